// SPDX-License-Identifier: MIT
// Per-kernel counters in a running program: a CUPTI callback subscriber that sees every kernel
// launch (driver API), asks the launch filter, and profiles the selected launches with the range
// profiler of their context (contextprofiler.h). CUPTI allows one subscriber per process, so the
// same subscription also hands NCCL's NVTX ranges and launches to ncclhooks.h. Needs a GPU; the
// decisions it takes (filter, groups, errors) live in pure units with their own tests.
#pragma once

#include "graphcounters.h"
#include "injectionconfig.h"
#include "launchfilter.h"
#include "ncclcalls.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ridgeline::inject {

struct CounterSink {
    // A selected launch is about to be profiled: its kernel record should keep its id for the values.
    std::function<void(std::uint32_t correlationId)> expect;
    std::function<void(std::uint32_t correlationId, std::vector<core::MetricValue>)> values;
    // A user sentence (capture.error when counters are lost entirely, else capture.warning).
    std::function<void(const std::string& sentence, bool fatal)> problem;
    // Replay passes per config group, once the first context is set up ("3" or "3+1").
    std::function<void(const std::string& passes)> passes;
    // A CUDA graph launch is about to be profiled, and the ranges it left (graphcounters.h).
    std::function<void(std::uint32_t correlationId)> expectGraph;
    std::function<void(std::uint32_t correlationId, std::vector<GraphRange>)> graphValues;
};

class CounterCollector {
public:
    // Subscribes to CUPTI callbacks. Error (with a user sentence) when another profiler holds the
    // subscription or the filter is invalid; tracing goes on without counters. With `nccl`, the same
    // subscription also follows NCCL's NVTX ranges and launches (ncclhooks.h) into that registry,
    // which must outlive the collector.
    static core::Result<std::unique_ptr<CounterCollector>> start(
        const InjectionConfig& config, CounterSink sink, NcclCallRegistry* nccl = nullptr);
    ~CounterCollector();
    CounterCollector(const CounterCollector&) = delete;
    CounterCollector& operator=(const CounterCollector&) = delete;

    // Stops profiling (at exit): later launches run without counters.
    void stop();

    struct Impl;

private:
    explicit CounterCollector(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace ridgeline::inject
