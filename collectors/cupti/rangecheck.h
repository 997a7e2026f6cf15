// SPDX-License-Identifier: MIT
// The range profiler's rules that need no GPU: which launches wait for a profiled one (the
// serialisation rule), whether the range CUPTI decoded belongs to the launch that was profiled,
// and which counters were really collected. countercollector.cpp and contextprofiler.cpp apply
// them; tests/capture-translate/test_rangecheck.cpp tests them.
#pragma once

#include "ridgeline/core/model/model.h"

#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::inject {

// While a profiled launch is in flight on a context, every other launch on that context waits,
// so that no other kernel is counted into its range: profiled launches are exclusive, other
// launches shared (they never wait for each other). A profiled launch waits for the launches
// already inside their API call, and launches that come after a waiting profiled launch wait
// behind it (it is not starved). Contexts are independent. The context is CUDA's CUcontext.
class LaunchGate {
public:
    void enterPlain(const void* context);
    void exitPlain(const void* context);
    void enterProfiled(const void* context);
    void exitProfiled(const void* context);

    // For tests: launches inside their API call on a context (plain, profiled).
    std::pair<int, int> inside(const void* context);

private:
    struct State {
        int plain = 0;
        bool profiled = false;
        int profiledWaiting = 0;
    };
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<const void*, State> m_states;
};

enum class RangeOutcome {
    Counted, // one new range, the launch's: its values are at rangeIndex
    NoKernel, // no new range: the launch ran no kernel on this context
    Dropped, // CUPTI dropped the range (counter data image full)
    Foreign, // more than one new range, or a range named for another kernel: values not trusted
};

struct RangeJudgement {
    RangeOutcome outcome = RangeOutcome::NoKernel;
    std::size_t rangeIndex = 0;
    std::string sentence; // for capture.warning when the launch's counters are lost
};

// Auto ranges are named after the kernel. The name matches the launch when it is the mangled
// symbol, the demangled name, or the demangled name without its parameter list.
bool rangeNameMatches(std::string_view rangeName, std::string_view mangled, std::string_view demangled);

// After Stop and DecodeData: `before` and `after` are the counter data image's total ranges
// (cuptiRangeProfilerGetCounterDataInfo) before the launch and after decoding, `dropped` is
// DecodeData's numOfRangeDropped, `rangeName` the name of range after - 1.
RangeJudgement judgeRange(std::size_t before, std::size_t after, std::size_t dropped, std::string_view rangeName,
    std::string_view mangled, std::string_view demangled);

// Evaluated values in `names` order: a value that is not finite (NaN: the counter could not be
// collected) is left out and named in `missing`, never stored as 0.
struct CollectedValues {
    std::vector<core::MetricValue> values;
    std::vector<std::string> missing;
};
CollectedValues collectedValues(const std::vector<std::string>& names, const std::vector<double>& values);

} // namespace ridgeline::inject
