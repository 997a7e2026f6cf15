// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace ridgeline::core {

// The demangled C++ name, or the input unchanged when it is not a mangled name.
std::string demangle(std::string_view mangled);

// A demangled name as a person scans it in a table, like Nsight's function name: no return type,
// template arguments and parameters folded to "<…>" and "(…)", "(anonymous namespace)" kept.
// "void at::native::vectorized_elementwise_kernel<4, Op, Array>(int, Op, Array)" ->
// "at::native::vectorized_elementwise_kernel<…>(…)". Names it cannot fold come back unchanged.
std::string shortKernelName(std::string_view demangled);

} // namespace ridgeline::core
