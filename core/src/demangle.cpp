// SPDX-License-Identifier: MIT
#include "ridgeline/core/demangle.h"

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

std::string shortKernelName(std::string_view demangled)
{
    constexpr std::string_view anonymous = "(anonymous namespace)";
    std::string out;
    int angle = 0;
    int paren = 0;
    bool seenParameters = false;
    for (std::size_t i = 0; i < demangled.size(); ++i) {
        const bool top = angle == 0 && paren == 0;
        if (demangled.substr(i, anonymous.size()) == anonymous) {
            if (top)
                out += anonymous;
            i += anonymous.size() - 1;
            continue;
        }
        const char c = demangled[i];
        if (c == '<' || c == '(') {
            if (top) {
                out += c;
                out += "…";
                seenParameters = seenParameters || c == '(';
            }
            (c == '<' ? angle : paren) += 1;
        } else if (c == '>' || c == ')') {
            int& depth = c == '>' ? angle : paren;
            if (--depth < 0)
                return std::string(demangled); // unbalanced: not a name this can fold
            if (angle == 0 && paren == 0)
                out += c;
        } else if (top) {
            if (c == ' ' && !seenParameters)
                out.clear(); // what came before was the return type
            else
                out += c;
        }
    }
    if (angle != 0 || paren != 0 || out.empty())
        return std::string(demangled);
    return out;
}

} // namespace ridgeline::core
