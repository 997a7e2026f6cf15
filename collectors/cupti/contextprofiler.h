// SPDX-License-Identifier: MIT
// The target half of per-kernel counters on one CUDA context: the CUPTI range profiler with
// automatic ranges (one range per kernel) and kernel replay (CUPTI replays each profiled kernel
// once per pass, saving and restoring device memory). One config image is active per launch;
// begin() before the launch, end() after it returns the kernel's values. Needs a GPU.
#pragma once

#include "counterconfig.h"
#include "ridgeline/core/model.h"
#include "ridgeline/core/result.h"

#include <cuda.h>
#include <cupti_range_profiler.h>
#include <memory>
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
    ~ContextProfiler();
    ContextProfiler(const ContextProfiler&) = delete;
    ContextProfiler& operator=(const ContextProfiler&) = delete;

    std::size_t groupCount() const { return m_groups.size(); }
    std::size_t passes(std::size_t group) const { return m_groups.at(group).config.passes(); }
    const std::string& chip() const { return m_chip; }

    core::Status begin(std::size_t group);
    // Metric values of the one kernel launched since begin() (kernelId left 0).
    core::Result<std::vector<core::MetricValue>> end();

private:
    struct Group {
        CounterConfig config;
        std::vector<std::uint8_t> counterData;
    };
    ContextProfiler() = default;
    core::Status prepareCounterData(Group& group);

    CUpti_RangeProfiler_Object* m_object = nullptr;
    std::string m_chip;
    std::vector<Group> m_groups;
    std::size_t m_active = 0;
    bool m_started = false;
};

} // namespace ridgeline::inject
