// SPDX-License-Identifier: MIT
// The host half of per-kernel counters: which metrics, split into config images the range
// profiler accepts (GPU counters, then system-unit counters: collectors/metrics/metricsets.h), each with
// its replay passes; and evaluating a decoded counter data image into values. Only the CUPTI
// Profiler Host API is used, so all of it runs without a GPU (tests/cupti).
#pragma once

#include "injectionconfig.h"
#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object;

namespace ridgeline::inject {

// The metric names to collect on `chip` for the configuration, split into config groups (GPU
// counters first). Error with a user sentence for an unknown chip or set.
core::Result<std::vector<std::vector<std::string>>> counterGroups(const InjectionConfig& config, const std::string& chip);

// One config image: a CUPTI host object holding the metrics, the image and its pass count.
class CounterConfig {
public:
    // `availability` is the device's counter availability image (cuptiProfilerGetCounterAvailability);
    // empty on a machine without a GPU, where CUPTI assumes every counter is available.
    static core::Result<CounterConfig> create(
        const std::string& chip, const std::vector<std::string>& metrics, std::span<const std::uint8_t> availability);

    CounterConfig(CounterConfig&&) noexcept;
    CounterConfig& operator=(CounterConfig&&) noexcept;
    ~CounterConfig();

    const std::vector<std::string>& metrics() const { return m_metrics; }
    // metrics() as C strings, as the CUPTI calls take metric names (valid while the config lives).
    const std::vector<const char*>& metricNames() const { return m_names; }
    const std::vector<std::uint8_t>& image() const { return m_image; }
    std::size_t passes() const { return m_passes; }

    // The values of range `rangeIndex` of a decoded counter data image, in metrics() order.
    core::Result<std::vector<double>> evaluate(std::span<const std::uint8_t> counterData, std::size_t rangeIndex) const;

private:
    // Deinitialises the CUPTI host object when the config lets it go.
    struct HostRelease {
        void operator()(CUpti_Profiler_Host_Object* host) const;
    };
    CounterConfig() = default;
    using HostObject = std::unique_ptr<CUpti_Profiler_Host_Object, HostRelease>;

    std::vector<std::string> m_metrics;
    std::vector<const char*> m_names; // pointers into m_metrics, for CUPTI
    std::vector<std::uint8_t> m_image;
    std::size_t m_passes = 0;
    // Last, so that it goes first: the host object is deinitialised before the names it was given.
    HostObject m_host;
};

} // namespace ridgeline::inject
