// SPDX-License-Identifier: MIT
// Counters of CUDA graph launches (docs/CAPTURE.md "CUDA graphs"). A profiled cuGraphLaunch can
// leave several counter ranges (one per kernel node, named for its kernel) or one for the whole
// launch. Which one CUPTI's auto range and kernel replay do has not been seen on a GPU yet, so both
// are handled: ranges named for a kernel of the launch go to that kernel ("per node"); a single
// range named for none of them is the launch's ("graph-level"): its values are kept on the launch's
// first kernel and every kernel of the launch is marked (core::Kernel::graphRangeKernels).
//
// All kernels of one graph launch share the correlation id of its cuGraphLaunch call. Ranges are
// known when the call returns; kernel records come with CUPTI's buffers, before or after. This
// class pairs them, whichever comes first. Pure: no CUPTI, no SQL (the part writer applies the
// outcome); tested in tests/capture-translate.
#pragma once

#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ridgeline::inject {

struct GraphRange {
    std::string name; // CUPTI's range name
    std::vector<core::MetricValue> values; // kernelId left 0
};

// What the profiler found after a graph launch: every range added since Start, or why none is kept.
struct GraphRangesJudgement {
    bool keep = false;
    std::string sentence; // for capture.warning when the launch's ranges are not kept
};
// `added` ranges since Start, `dropped` per DecodeData.
GraphRangesJudgement judgeGraphRanges(std::size_t added, std::size_t dropped);

struct GraphKernelRow {
    std::int64_t kernelId = 0;
    std::string raw; // mangled name
    std::string demangled;
    std::int64_t startNs = 0;
};

// What to write for a graph launch now.
struct GraphAttribution {
    std::vector<core::MetricValue> metrics; // with kernel ids
    std::vector<std::int64_t> graphLevel; // kernels to mark: graph-level counters only
    std::int64_t graphLevelKernels = 0; // the value to mark them with
    std::string warning; // ranges that could not be attributed
    bool empty() const { return metrics.empty() && graphLevel.empty() && warning.empty(); }
};

class GraphCounters {
public:
    // A graph launch with this correlation id is being profiled: its kernels are remembered.
    void expect(std::uint32_t correlationId);
    bool expects(std::uint32_t correlationId) const { return m_launches.count(correlationId) != 0; }
    // The ranges of the launch (empty: none kept; the launch is forgotten).
    GraphAttribution ranges(std::uint32_t correlationId, std::vector<GraphRange> ranges);
    // Kernels of the launch were written (all those of one CUPTI buffer at once: a graph-level range
    // covers the kernels known when it is attributed; later ones of the same launch are not marked).
    GraphAttribution kernels(std::uint32_t correlationId, std::vector<GraphKernelRow> rows);
    // Launches whose ranges never met a kernel (at the end of the process).
    std::size_t orphans() const;

private:
    struct Launch {
        bool rangesKnown = false;
        std::vector<GraphRange> ranges;
        std::vector<bool> used;
        std::vector<GraphKernelRow> kernels;
        std::vector<bool> counted;
    };
    GraphAttribution attribute(std::uint32_t correlationId, Launch& launch);
    std::map<std::uint32_t, Launch> m_launches;
};

} // namespace ridgeline::inject
