// SPDX-License-Identifier: MIT
// The target half of per-kernel counters on one CUDA context: the CUPTI range profiler with
// automatic ranges (one range per kernel) and kernel replay (CUPTI replays each profiled kernel
// once per pass, saving and restoring device memory). One config image is active per launch;
// begin() before the launch, end() after it returns the kernel's values. The configuration
// (SetConfig with the group's config image and counter data image) is set once per context and
// group, and again only when the group changes or the counter data image is full; each launch
// adds one range to the image, which end() checks (rangecheck.h). Needs a GPU.
#pragma once

#include "counterconfig.h"
#include "graphcounters.h"
#include "rangecheck.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <cuda.h>
#include <cupti_range_profiler.h>
#include <memory>
#include <string_view>
#include <vector>

namespace ridgeline::inject {

class ContextProfiler {
public:
    // Initialises the profiler, checks that the device can be profiled and returns its chip
    // name ("GH100"). Errors carry a user sentence (cuptierrors.h).
    static core::Result<std::string> chipOf(std::uint32_t deviceId);
    // Builds a config image per group for the chip and enables the range profiler on `context`.
    static core::Result<std::unique_ptr<ContextProfiler>> create(
        CUcontext context, const std::string& chip, const std::vector<std::vector<std::string>>& groups);
    ContextProfiler(const ContextProfiler&) = delete;
    ContextProfiler& operator=(const ContextProfiler&) = delete;

    std::size_t groupCount() const { return m_groups.size(); }
    std::size_t passes(std::size_t group) const { return m_groups.at(group).config.passes(); }
    const std::string& chip() const { return m_chip; }

    // Ranges one counter data image holds before it is initialised and configured again.
    static constexpr std::size_t kRangesPerImage = 64;

    struct LaunchCounters {
        std::vector<core::MetricValue> values; // kernelId left 0; only counters really collected
        std::vector<std::string> missing; // counters that could not be collected (not stored as 0)
        std::string lost; // why the launch has no counters at all (a dropped or foreign range)
    };

    core::Status begin(std::size_t group);
    // The counters of the one kernel launched since begin(), whose names are given to check the range.
    core::Result<LaunchCounters> end(std::string_view mangled, std::string_view demangled);

    // A CUDA graph launch (GPU counters): a fresh counter data image that takes up to
    // kRangesPerImage ranges in one pass, and every range it holds after the launch
    // (graphcounters.h pairs them with the launch's kernels).
    struct GraphLaunchCounters {
        std::vector<GraphRange> ranges;
        std::vector<std::string> missing; // counters not collected in some range (not stored as 0)
        std::string lost; // why the launch has no counters
    };
    core::Status beginGraph();
    core::Result<GraphLaunchCounters> endGraph();

private:
    struct Group {
        CounterConfig config;
        std::vector<std::uint8_t> counterData;
        std::size_t ranges = 0; // ranges in counterData since it was initialised
    };
    static constexpr std::size_t kNotConfigured = static_cast<std::size_t>(-1);
    ContextProfiler() = default;
    core::Status prepareCounterData(Group& group);
    core::Status configure(std::size_t group, bool graph = false);
    core::Result<LaunchCounters> collect(Group& group, std::string_view mangled, std::string_view demangled);
    // Starts the range profiler for a group (configured already); a failure makes the next launch configure again.
    core::Status startRanges(std::size_t group);
    // What Stop and DecodeData leave in a group's image.
    struct Decoded {
        std::size_t totalRanges = 0; // ranges in the image, old and new
        std::size_t droppedRanges = 0; // ranges that did not fit
    };
    // Stops the range profiler and decodes its ranges into the group's image; `incomplete` is the error
    // when not every replay pass was submitted.
    core::Result<Decoded> stopAndDecode(Group& group, const char* incomplete);
    // The name of range `index` in the group's image (its NVTX / kernel path, "/"-separated).
    static core::Result<std::string> rangeName(const Group& group, std::size_t index);

    // Disables the range profiler on the context when the profiler goes.
    struct RangeProfilerRelease {
        void operator()(CUpti_RangeProfiler_Object* object) const;
    };
    using RangeProfiler = std::unique_ptr<CUpti_RangeProfiler_Object, RangeProfilerRelease>;

    std::string m_chip;
    std::vector<Group> m_groups;
    std::size_t m_active = 0;
    std::size_t m_configured = kNotConfigured; // the group SetConfig was last given
    bool m_started = false;
    bool m_configuredForGraph = false; // SetConfig was given for a graph launch (many ranges per pass)
    // Last, so that it goes first: the range profiler is disabled before the groups' host objects go.
    RangeProfiler m_object;
};

} // namespace ridgeline::inject
