// SPDX-License-Identifier: MIT
#include "ridgeline/core/model/demangle.h"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace ridgeline::core {

std::string demangle(std::string_view mangled)
{
    if (mangled.size() < 2 || mangled.substr(0, 2) != "_Z")
        return std::string(mangled);
    const std::string input(mangled);
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(input.c_str(), nullptr, nullptr, &status), &std::free);
    if (status != 0 || !out)
        return input;
    return std::string(out.get());
}

} // namespace ridgeline::core
