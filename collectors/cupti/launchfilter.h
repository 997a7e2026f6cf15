// SPDX-License-Identifier: MIT
// Which kernel launches get hardware counters (RIDGELINE_KERNEL_REGEX, RIDGELINE_LAUNCH_SKIP,
// RIDGELINE_LAUNCH_COUNT, RIDGELINE_NVTX_RANGE), with Nsight Compute's meaning: the regex and the
// NVTX range select launches, the first `skip` selected launches are passed over, then `count`
// are profiled. Pure and thread-compatible (the caller serialises launches).
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace ridgeline::inject {

// Open NVTX ranges, for RIDGELINE_NVTX_RANGE: push/pop ranges per thread, start/end ranges per
// process (they may end on another thread).
class NvtxRangeTracker {
public:
    void push(std::int64_t threadId, std::string name);
    void pop(std::int64_t threadId);
    void start(std::uint64_t rangeId, std::string name);
    void end(std::uint64_t rangeId);
    // Whether a range named `name` is open on this thread (push/pop) or anywhere (start/end).
    bool inside(std::int64_t threadId, const std::string& name) const;

private:
    std::map<std::int64_t, std::vector<std::string>> m_stacks;
    std::map<std::uint64_t, std::string> m_started;
};

struct LaunchFilterOptions {
    std::string kernelRegex; // ECMAScript, searched in the mangled and the demangled name
    std::uint64_t skip = 0;
    std::optional<std::uint64_t> count;
    std::string nvtxRange;
};

class LaunchFilter {
public:
    // InvalidArgument with a sentence when the regex does not compile.
    static core::Result<LaunchFilter> create(const LaunchFilterOptions& options);

    // Decides one launch and counts it. `insideRange`: the launching thread is inside the NVTX
    // range of the options (ignored when none was asked for).
    bool select(const std::string& mangled, const std::string& demangled, bool insideRange);
    // No launch can be selected any more (the count is used up): callbacks can stop early.
    bool exhausted() const;
    std::uint64_t profiled() const { return m_profiled; }
    const LaunchFilterOptions& options() const { return m_options; }

private:
    explicit LaunchFilter(LaunchFilterOptions options);
    LaunchFilterOptions m_options;
    std::optional<std::regex> m_regex;
    std::uint64_t m_matched = 0;
    std::uint64_t m_profiled = 0;
};

} // namespace ridgeline::inject
