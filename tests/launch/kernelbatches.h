// SPDX-License-Identifier: MIT
// The kernels that the launch tests' stand-in captures write: one name, one process, in
// transactions of a fixed size, as the injection library writes CUPTI's buffers.
#pragma once

#include "ridgeline/core/store/sessionwriter.h"

#include <cstdint>
#include <vector>

namespace ridgeline::testing {

struct KernelBatches {
    int count = 0; // kernels in all
    int batchSize = 100; // kernels per transaction
    std::int64_t spacingNs = 1000; // kernel i starts at i * spacingNs
    std::int64_t durationNs = 500;
    std::int64_t streamId = 0;
};

// Writes the kernels of `spec` (process `processId`, name `nameId`); the first error stops it.
inline core::Status writeKernelBatches(
    core::SessionWriter& writer, std::int64_t processId, std::int64_t nameId, const KernelBatches& spec)
{
    for (int done = 0; done < spec.count;) {
        std::vector<core::Kernel> batch;
        for (int i = 0; i < spec.batchSize && done < spec.count; ++i, ++done) {
            core::Kernel k;
            k.processId = processId;
            k.nameId = nameId;
            k.startNs = spec.spacingNs * done;
            k.endNs = k.startNs + spec.durationNs;
            k.streamId = spec.streamId;
            batch.push_back(k);
        }
        if (auto begun = writer.beginBatch(); begun.hasError())
            return begun;
        if (auto added = writer.addKernels(batch); added.hasError())
            return core::Status(added.error());
        if (auto committed = writer.commitBatch(); committed.hasError())
            return committed;
    }
    return {};
}

} // namespace ridgeline::testing
