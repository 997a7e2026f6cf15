// SPDX-License-Identifier: MIT
// Helpers shared by the exporters (exporters.h): error codes, JSON strings, GPU ops in time order.
#pragma once

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {
class SessionReader;
}

namespace ridgeline::core::detail {

// Whether [startNs, endNs] meets `window` (an instant at its edge does).
inline bool overlaps(std::int64_t startNs, std::int64_t endNs, const TimeWindow& window)
{
    return startNs <= window.endNs && endNs >= window.startNs;
}

// A failure while reading the session: never ErrorCode::Io, which exporters keep for the output.
Error readError(const Error& error);
// Early return of a reader Result's error as readError().
#define RIDGELINE_EXPORT_TRY(expr)                                                                                     \
    do {                                                                                                               \
        auto&& ridgelineExportResult_ = (expr);                                                                        \
        if (ridgelineExportResult_.hasError())                                                                         \
            return ::ridgeline::core::detail::readError(ridgelineExportResult_.error());                               \
    } while (false)

// A JSON string literal (quotes included); invalid UTF-8 is replaced, never an exception.
std::string jsonString(std::string_view text);
// Nanoseconds as microseconds with exactly three decimals: 1234567 -> "1234.567".
std::string microseconds(std::int64_t ns);
// "1024x1x1"
std::string dimText(const Dim3& dim);

// Memory operations sorted by start, then end.
std::vector<MemOp> sortedByStart(std::vector<MemOp> ops);

// Every kernel (with its analysis) and memory operation in start order: kernels are streamed from
// the reader, `memOps` (sorted by start) are merged in; a memory op goes first on equal starts.
struct GpuOpVisitor {
    std::function<void(const Kernel&, const KernelAnalysis&)> kernel;
    std::function<void(const MemOp&)> memOp;
};
Status forEachGpuOp(SessionReader& reader, const std::vector<MemOp>& memOps, const GpuOpVisitor& visit);

} // namespace ridgeline::core::detail
