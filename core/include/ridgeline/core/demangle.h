// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace ridgeline::core {

// The demangled C++ name, or the input unchanged when it is not a mangled name.
std::string demangle(std::string_view mangled);

} // namespace ridgeline::core
