// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/outputpattern.h"

#include <cstdlib>
#include <fmt/format.h>

namespace ridgeline::collectors {

namespace {

std::optional<std::string> processEnv(const std::string& name)
{
    const char* value = std::getenv(name.c_str());
    if (value == nullptr)
        return std::nullopt;
    return std::string(value);
}

core::Error bad(const PatternContext& context, std::string_view pattern, std::string message)
{
    return core::makeError(core::ErrorCode::InvalidArgument,
        fmt::format("{}{}: {}", context.option.empty() ? "" : context.option + " ", pattern, message));
}

} // namespace

core::Result<std::string> expandOutputPattern(std::string_view pattern, const PatternContext& context)
{
    const auto lookup = context.env ? context.env : processEnv;
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c != '%') {
            out += c;
            continue;
        }
        if (i + 1 >= pattern.size())
            return bad(context, pattern, "ends with a lone '%' (write %% for a literal %)");
        const char code = pattern[++i];
        switch (code) {
        case '%':
            out += '%';
            break;
        case 'h':
            out += context.host;
            break;
        case 'p':
            out += std::to_string(context.pid);
            break;
        case 'q': {
            if (i + 1 >= pattern.size() || pattern[i + 1] != '{')
                return bad(context, pattern, "%q needs a variable name in braces, e.g. %q{SLURM_PROCID}");
            const auto close = pattern.find('}', i + 2);
            if (close == std::string_view::npos)
                return bad(context, pattern, "%q{ is not closed with '}'");
            const std::string name(pattern.substr(i + 2, close - i - 2));
            if (name.empty())
                return bad(context, pattern, "%q{} names no environment variable");
            const auto value = lookup(name);
            if (!value)
                return bad(context, pattern,
                    fmt::format("environment variable {} is not set (it is needed for %q{{{}}})", name, name));
            out += *value;
            i = close;
            break;
        }
        default:
            return bad(
                context, pattern, fmt::format("unknown escape %{} (known: %h host, %p pid, %q{{VAR}}, %%)", code));
        }
    }
    if (out.empty())
        return bad(context, pattern, "expands to an empty file name");
    return out;
}

} // namespace ridgeline::collectors
