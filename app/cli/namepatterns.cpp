// SPDX-License-Identifier: MIT
#include "namepatterns.h"

#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/launch/outputpattern.h"
#include "ridgeline/core/base/hostname.h"

#include <unistd.h>

namespace ridgeline::cli {

std::optional<int> expandNamePattern(std::string& name, std::string_view option)
{
    collectors::PatternContext context;
    context.host = core::hostName();
    if (context.host.empty())
        context.host = "localhost"; // as capture names it
    context.pid = static_cast<long>(getpid());
    context.option = std::string(option);
    auto expanded = collectors::expandOutputPattern(name, context);
    if (expanded.hasError())
        return fail(ExitUsage, expanded.error().message);
    name = std::move(expanded).value();
    return std::nullopt;
}

std::optional<int> expandNamePatterns(std::vector<std::string>& names, std::string_view option)
{
    for (auto& name : names) {
        if (auto failed = expandNamePattern(name, option))
            return failed;
    }
    return std::nullopt;
}

} // namespace ridgeline::cli
