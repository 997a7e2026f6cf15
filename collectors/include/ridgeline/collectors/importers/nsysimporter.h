// SPDX-License-Identifier: MIT
// Imports an Nsight Systems SQLite export (`nsys export --type sqlite`, ../shared/reference/
// trace-formats.md §3) into a session: devices (with datasheet ceilings when catalogued), kernels,
// memcpy/memset, CUDA runtime and driver calls, NVTX ranges, processes and threads, and the NCCL
// collectives its NCCL kernels carry, sized from NCCL's NVTX payloads (docs/COLLECTIVES.md). The export
// is untrusted input: it is opened read-only and hardened (ARCHITECTURE §3); which tables and
// columns exist is discovered, never assumed (tables are created lazily; schemas differ by version).
#pragma once

#include "ridgeline/collectors/importers/importwarning.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

struct NsysImportSummary {
    std::int64_t devices = 0;
    std::int64_t kernels = 0;
    std::int64_t memcpys = 0;
    std::int64_t memsets = 0;
    std::int64_t apiCalls = 0;
    std::int64_t nvtxRanges = 0;
    // NCCL kernels, each written as a collective op (comm_ops) named from its symbol as the capture
    // names it (ncclDevKernel_AllReduce_Sum_f32_RING_LL -> AllReduce, Ring, LL).
    std::int64_t commOps = 0;
    // Those of them whose message size came from NCCL's NVTX payload (the call that launched the
    // kernel): with it, the communicator (processGroup), its number of ranks and the root.
    std::int64_t sizedCommOps = 0;
    // CUDA graph launches traced as a whole (`--cuda-graph-trace=graph`, CUPTI_ACTIVITY_KIND_GRAPH_TRACE):
    // each is written as one kernel named "CUDA graph N (whole launch)"; not counted in `kernels`.
    std::int64_t graphLaunches = 0;
    // false: no kernels, graph launches, copies or memsets (a CPU-only run); a warning says so.
    bool gpuActivity = true;
    std::string productVersion; // EXPORT_PRODUCT_VERSION of EXPORT_META_DATA / META_DATA_EXPORT, when present
    std::string schemaVersion; // EXPORT_SCHEMA_VERSION ("3.25.0"), when present
    ImportWarnings warnings; // one sentence each: no GPU activity, unknown GPU, ...
};

// Errors name the file (BadFile for anything that is not a readable export); an output that
// exists without `overwrite` is InvalidArgument. The export itself is never written to.
core::Result<NsysImportSummary> importNsysSqlite(
    const std::string& exportPath, const std::string& sessionPath, bool overwrite);

namespace nsys {

// globalPid / globalTid: pid = (id >> 24) & 0xFFFFFF, tid = id & 0xFFFFFF.
inline std::int64_t pidOf(std::int64_t globalId)
{
    return (globalId >> 24) & 0xFFFFFF;
}
inline std::int64_t tidOf(std::int64_t globalTid)
{
    return globalTid & 0xFFFFFF;
}

// CUPTI_ACTIVITY_MEMCPY_KIND (copyKind) as a session kind; array copies count as device memory.
core::MemOpKind memOpKindOf(std::int64_t copyKind);
// An ENUM_CUDA_MEMCPY_OPER label or name ("Host-to-Device", "CUDA_MEMCPY_KIND_DTOH") as a
// session kind; nullopt when the text is not understood.
std::optional<core::MemOpKind> memOpKindOfLabel(std::string_view label);
// CUDA_MEMOPR_MEMORY_KIND (srcKind, dstKind, memKind): 0 pageable, 1 pinned, 2 device, 3 array,
// 4 managed, 5 device-static, 6 managed-static; anything else "unknown".
std::string memoryKindOf(std::int64_t kind);
// An ENUM_CUDA_MEM_KIND label or name ("Pinned", "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC") in the
// same spelling as memoryKindOf ("pinned", "device-static").
std::string memoryKindOfLabel(std::string_view label);

} // namespace nsys

} // namespace ridgeline::collectors
