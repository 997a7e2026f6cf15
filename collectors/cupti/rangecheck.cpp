// SPDX-License-Identifier: MIT
#include "rangecheck.h"

#include <cmath>
#include <fmt/format.h>

namespace ridgeline::inject {

void LaunchGate::enterPlain(const void* context)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] {
        const State& s = m_states[context];
        return !s.profiled && s.profiledWaiting == 0;
    });
    ++m_states[context].plain;
}

void LaunchGate::exitPlain(const void* context)
{
    {
        std::lock_guard lock(m_mutex);
        --m_states[context].plain;
    }
    m_changed.notify_all();
}

void LaunchGate::enterProfiled(const void* context)
{
    std::unique_lock lock(m_mutex);
    ++m_states[context].profiledWaiting;
    m_changed.wait(lock, [&] {
        const State& s = m_states[context];
        return !s.profiled && s.plain == 0;
    });
    State& s = m_states[context];
    --s.profiledWaiting;
    s.profiled = true;
}

void LaunchGate::exitProfiled(const void* context)
{
    {
        std::lock_guard lock(m_mutex);
        m_states[context].profiled = false;
    }
    m_changed.notify_all();
}

std::pair<int, int> LaunchGate::inside(const void* context)
{
    std::lock_guard lock(m_mutex);
    const State& s = m_states[context];
    return { s.plain, s.profiled ? 1 : 0 };
}

bool rangeNameMatches(std::string_view rangeName, std::string_view mangled, std::string_view demangled)
{
    if (rangeName.empty())
        return false;
    if (rangeName == mangled || rangeName == demangled)
        return true;
    const auto paren = demangled.find('(');
    return paren != std::string_view::npos && rangeName == demangled.substr(0, paren);
}

RangeJudgement judgeRange(std::size_t before, std::size_t after, std::size_t dropped, std::string_view rangeName,
    std::string_view mangled, std::string_view demangled)
{
    RangeJudgement j;
    const std::string_view shown = demangled.empty() ? mangled : demangled;
    if (dropped > 0) {
        j.outcome = RangeOutcome::Dropped;
        j.sentence = fmt::format("CUPTI dropped the counter range of a launch of {} ({} range{} dropped); that launch "
                                 "has no counters.",
            shown, dropped, dropped == 1 ? "" : "s");
        return j;
    }
    if (after <= before) {
        j.outcome = RangeOutcome::NoKernel;
        return j;
    }
    if (after - before > 1) {
        j.outcome = RangeOutcome::Foreign;
        j.sentence = fmt::format("a profiled launch of {} recorded {} counter ranges instead of one (another kernel "
                                 "ran inside it); that launch has no counters.",
            shown, after - before);
        return j;
    }
    // A launch the callback named no kernel for (it gave no symbol) cannot be checked by name; the
    // launch gate still keeps other kernels out of its range.
    const bool named = !mangled.empty() || !demangled.empty();
    if (named && !rangeNameMatches(rangeName, mangled, demangled)) {
        j.outcome = RangeOutcome::Foreign;
        j.sentence = fmt::format(
            "the counter range of a launch of {} is named \"{}\"; the counters are not that launch's and are not kept.",
            shown, rangeName);
        return j;
    }
    j.outcome = RangeOutcome::Counted;
    j.rangeIndex = after - 1;
    return j;
}

CollectedValues collectedValues(const std::vector<std::string>& names, const std::vector<double>& values)
{
    CollectedValues out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i < values.size() && std::isfinite(values[i]))
            out.values.push_back(core::MetricValue { 0, names[i], values[i], {} });
        else
            out.missing.push_back(names[i]);
    }
    return out;
}

} // namespace ridgeline::inject
