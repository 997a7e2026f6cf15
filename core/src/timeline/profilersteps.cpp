// SPDX-License-Identifier: MIT
#include "ridgeline/core/timeline/profilersteps.h"

#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <map>

namespace ridgeline::core {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr std::string_view kGpuDomain = "gpu_user_annotation"; // the Kineto importer's GPU-side ranges

void widen(std::optional<TimeWindow>& window, const NvtxRange& range)
{
    if (!window) {
        window = TimeWindow { range.startNs, range.endNs };
        return;
    }
    window->startNs = std::min(window->startNs, range.startNs);
    window->endNs = std::max(window->endNs, range.endNs);
}

} // namespace

std::optional<std::int64_t> profilerStepNumber(std::string_view rangeName)
{
    if (!rangeName.starts_with(kStepPrefix))
        return std::nullopt;
    const std::string_view digits = rangeName.substr(kStepPrefix.size());
    std::int64_t number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || end != digits.data() + digits.size() || digits.empty() || number < 0)
        return std::nullopt;
    return number;
}

Result<std::vector<ProfilerStep>> profilerSteps(SessionReader& reader)
{
    auto ranges = reader.nvtxRanges();
    if (ranges.hasError())
        return ranges.error();
    std::map<std::int64_t, std::pair<std::optional<TimeWindow>, std::optional<TimeWindow>>> byNumber; // gpu, host
    for (const auto& range : ranges.value()) {
        const auto number = profilerStepNumber(range.name);
        if (!number || range.endNs < range.startNs)
            continue;
        auto& [gpu, host] = byNumber[*number];
        widen(range.domain == kGpuDomain ? gpu : host, range);
    }
    std::vector<ProfilerStep> steps;
    steps.reserve(byNumber.size());
    for (const auto& [number, windows] : byNumber) {
        const auto& [gpu, host] = windows;
        steps.push_back({ number, gpu ? *gpu : *host, gpu.has_value() });
    }
    return steps;
}

std::string stepNumbers(const std::vector<ProfilerStep>& steps)
{
    std::string numbers;
    for (const auto& s : steps)
        numbers += fmt::format("{}{}", numbers.empty() ? "" : ", ", s.number);
    return numbers;
}

Result<TimeWindow> profilerStepWindow(SessionReader& reader, std::int64_t step)
{
    auto steps = profilerSteps(reader);
    if (steps.hasError())
        return steps.error();
    for (const auto& s : steps.value()) {
        if (s.number == step)
            return s.window;
    }
    const std::string have = stepNumbers(steps.value());
    return makeError(ErrorCode::NotFound,
        have.empty() ? fmt::format("The session has no profiler step {} (no range named \"{}{}\"): it has no "
                                   "profiler steps.",
            step, kStepPrefix, step)
                     : fmt::format("The session has no profiler step {} (no range named \"{}{}\"); its steps: {}.",
                         step, kStepPrefix, step, have));
}

} // namespace ridgeline::core
