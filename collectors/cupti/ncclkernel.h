// SPDX-License-Identifier: MIT
// The NCCL kernel-name rule lives in core (ridgeline/core/model/ncclkernel.h), where the capture and
// the Nsight Systems importer both reach it; the capture keeps its own names for it.
#pragma once

#include "ridgeline/core/model/ncclkernel.h"

namespace ridgeline::inject {

using core::NcclKernelInfo;
using core::ncclKernelInfo;

} // namespace ridgeline::inject
