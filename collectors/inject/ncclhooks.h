// SPDX-License-Identifier: MIT
// NCCL's NVTX ranges and kernel launches as the collector's CUPTI callbacks see them, on the
// application's threads: each thread keeps its open NCCL calls (thread_local, no lock, no
// allocation); a launch inside an NCCL call attaches the call to the launch's correlation id in
// the shared registry, where the kernel's activity record finds it (ncclcalls.h,
// docs/CAPTURE.md "NCCL collectives").
#pragma once

#include "ncclcalls.h"

#include <cupti.h>

namespace ridgeline::inject {

// An NVTX callback: domain creation, and push/pop of NCCL-domain ranges.
void ncclOnNvtx(NcclCallRegistry& registry, CUpti_CallbackId cbid, const CUpti_NvtxData& data);
// The enter callback of a kernel launch (driver API).
void ncclOnLaunch(NcclCallRegistry& registry, const CUpti_CallbackData& data);

} // namespace ridgeline::inject
