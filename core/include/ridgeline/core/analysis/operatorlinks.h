// SPDX-License-Identifier: MIT
// Which PyTorch operator launched each GPU op (issue 17). A GPU op (kernel, copy, memset) is linked
// to the API call that launched it by correlation id (of its process; the earliest call, i.e. the
// runtime call around its driver call), then to the innermost operator on that call's thread whose
// time holds the call. Where the call carries the profiler's "External id" and an operator of that
// thread has it and holds the call, that operator is the innermost one; where it differs from the
// one found by time, the disagreement is counted. GPU ops without a launching call or without an
// operator around it (NCCL kernels launched from a background thread, ...) are unattributed.
//
// Computed when read, not stored: the link is derived data (like the verdicts, recomputable from
// the rows), it serves every session with operators whatever wrote it, it needs no schema change
// to kernels, copies or calls, and it keeps the import (whose speed has a budget) as it is; over
// the 1 GB benchmark trace it costs about a second (docs/PERFORMANCE.md).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timeline.h"

#include <cstdint>
#include <vector>

namespace ridgeline::core {

enum class LinkedOpKind : std::uint8_t { Kernel, Collective, Memcpy, Memset };

struct GpuOpLink {
    LinkedOpKind kind = LinkedOpKind::Kernel;
    std::int64_t sourceId = 0; // kernels.id, or memops.id for a copy or memset
    std::int64_t processId = 0;
    std::int64_t deviceId = 0;
    std::int64_t nameId = -1; // kernel_names.id of a kernel (or collective); -1 for a copy or memset
    MemOpKind memOpKind = MemOpKind::Other; // of a copy or memset
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    VerdictClass verdict = VerdictClass::Unknown;
    // Indexes into OperatorLinks::operators; kNone when unattributed.
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t innermost = kNone; // the cpu_op around the launching call (a python_function when no cpu_op is)
    std::size_t outermost = kNone; // the top-level cpu_op above it (itself when it is top level)
    bool hasCall = false; // its launching call is in the session
    std::int64_t durationNs() const { return saturatingSub(endNs, startNs); }
};

struct OperatorLinks {
    std::vector<SessionReader::OperatorSpan> operators; // in id order
    std::vector<std::size_t> parent; // per operator: its parent's index; GpuOpLink::kNone at top level
    std::vector<GpuOpLink> gpuOps; // every kernel, copy and memset of the session
    std::int64_t cpuOpDomainId = 0; // strings id of "cpu_op" (0: the session has none)
    // External id against time containment, over GPU ops with a launching call:
    std::int64_t byExternalId = 0; // the call's External id named an operator of its thread that holds it
    std::int64_t externalIdDisagrees = 0; // ... and it was not the innermost operator found by time
    std::int64_t externalIdUnmatched = 0; // the call has an External id that names no such operator

    bool isCpuOp(std::size_t index) const { return operators[index].domainId == cpuOpDomainId; }
};

Result<OperatorLinks> linkOperators(SessionReader& reader);
// The same with the GPU ops' verdicts from `verdicts` (an empty map: every kernel `unknown`, for
// the analysis that works them out: operatorshapes.h).
Result<OperatorLinks> linkOperators(SessionReader& reader, const KernelVerdictSource& verdicts);

} // namespace ridgeline::core
