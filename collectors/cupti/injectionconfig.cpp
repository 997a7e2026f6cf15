// SPDX-License-Identifier: MIT
#include "injectionconfig.h"

#include <charconv>
#include <string_view>

namespace ridgeline::inject {

namespace {

std::string trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t");
    return std::string(text.substr(first, last - first + 1));
}

std::optional<std::uint64_t> number(std::string_view text)
{
    std::uint64_t value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty())
        return std::nullopt;
    return value;
}

} // namespace

std::string InjectionConfig::metricsLabel() const
{
    switch (metricsMode) {
    case MetricsMode::None:
        return "none";
    case MetricsMode::Set:
        return metricSet;
    case MetricsMode::List: {
        std::string joined;
        for (const auto& name : metricList)
            joined += (joined.empty() ? "" : ",") + name;
        return joined;
    }
    }
    return {};
}

InjectionConfig readInjectionConfig(const EnvLookup& getenv)
{
    InjectionConfig config;
    auto text = [&](const char* name) -> std::optional<std::string> {
        const char* value = getenv(name);
        if (!value)
            return std::nullopt;
        return std::string(value);
    };
    config.partDir = text("RIDGELINE_PART_DIR").value_or("");
    config.sessionId = text("RIDGELINE_SESSION_ID").value_or("");

    if (auto metrics = text("RIDGELINE_METRICS")) {
        const std::string value = trimmed(*metrics);
        if (value.empty() || value == "roofline" || value == "full") {
            config.metricSet = value.empty() ? "roofline" : value;
        } else if (value == "none") {
            config.metricsMode = MetricsMode::None;
        } else {
            config.metricsMode = MetricsMode::List;
            std::string_view rest = value;
            while (!rest.empty()) {
                const auto comma = rest.find(',');
                const std::string name = trimmed(rest.substr(0, comma));
                if (!name.empty())
                    config.metricList.push_back(name);
                rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            }
            if (config.metricList.empty()) {
                config.metricsMode = MetricsMode::Set;
                config.warnings.push_back("RIDGELINE_METRICS names no metric; the roofline set is used.");
            }
        }
    }
    config.kernelRegex = text("RIDGELINE_KERNEL_REGEX").value_or("");
    config.nvtxRange = text("RIDGELINE_NVTX_RANGE").value_or("");

    auto count = [&](const char* name) -> std::optional<std::uint64_t> {
        auto value = text(name);
        if (!value || trimmed(*value).empty())
            return std::nullopt;
        auto parsed = number(trimmed(*value));
        if (!parsed)
            config.warnings.push_back(std::string(name) + "=" + *value + " is not a whole number; it is ignored.");
        return parsed;
    };
    config.launchSkip = count("RIDGELINE_LAUNCH_SKIP").value_or(0);
    config.launchCount = count("RIDGELINE_LAUNCH_COUNT");
    if (auto period = count("RIDGELINE_FLUSH_PERIOD_MS")) {
        if (*period == 0 || *period > 3'600'000)
            config.warnings.push_back("RIDGELINE_FLUSH_PERIOD_MS must be between 1 and 3600000; 1000 is used.");
        else
            config.flushPeriodMs = static_cast<std::uint32_t>(*period);
    }
    return config;
}

} // namespace ridgeline::inject
