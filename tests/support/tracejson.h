// SPDX-License-Identifier: MIT
// Reading Kineto trace events in tests, independently of the importer (nlohmann::json).
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace ridgeline::testing {

// A JSON time in µs as ns, exact for integers (epoch µs exceed a double's 53 bits once in ns).
inline std::int64_t microsToNs(const nlohmann::json& micros)
{
    if (micros.is_number_integer())
        return micros.get<std::int64_t>() * 1000;
    return std::llround(micros.get<double>() * 1000.0);
}

// An NCCL kernel of the trace_filter traces (their kernels carry no "Collective name" argument).
inline bool isNcclKernelEvent(const nlohmann::json& ev)
{
    return ev.value("cat", "") == "kernel" && ev.value("name", "").rfind("ncclKernel", 0) == 0;
}

} // namespace ridgeline::testing
