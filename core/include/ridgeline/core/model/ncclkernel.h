// SPDX-License-Identifier: MIT
// Which kernels are NCCL collectives, decided by the symbol only (docs/CAPTURE.md "Injection
// library"; the capture and the Nsight Systems importer share the rule): a kernel is a collective when its function name starts with `ncclDevKernel_`
// (NCCL >= 2.19) or `ncclKernel_` (older NCCL), mangled or not. Nothing else is guessed from a
// name: a kernel that merely contains "nccl" elsewhere is an ordinary kernel.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ridgeline::core {

struct NcclKernelInfo {
    // The operation from the symbol ("AllReduce", "SendRecv", ...); empty for NCCL's generic
    // kernel (`ncclDevKernel_Generic`), which runs whatever work it is handed.
    std::string collective;
    std::string dataType; // "f32", "bf16", "float", ... when the symbol names it
    std::string algorithm; // "Ring", "Tree", "CollNet", "NVLS", "PAT" when named
    std::string protocol; // "LL", "LL128", "Simple" when named
};

// std::nullopt when the kernel is not an NCCL kernel by the rule above.
std::optional<NcclKernelInfo> ncclKernelInfo(std::string_view symbol);

} // namespace ridgeline::core
