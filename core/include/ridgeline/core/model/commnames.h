// SPDX-License-Identifier: MIT
// Which kernels and PyTorch operators are communication: the one list every importer and the
// analysis use (issue 35; docs/COMMUNICATION.md "Which kernels are communication").
//
// Kernels, by (demangled) name:
// - NCCL and RCCL, by Holistic Trace Analysis's rule: `^nccl.*` or `.*ncclKernel.*` (also
//   `ncclDevKernel_*`, NCCL >= 2.19);
// - PyTorch symmetric memory (torch.distributed._symmetric_memory, `symm_mem::*` operators):
//   `multimem_all_reduce_kernel`, `multimem_one_shot_*`, `multimem_all_gather_kernel`,
//   `one_shot_all_reduce_kernel`, `two_shot_all_reduce_kernel`;
// - vLLM's and SGLang's custom all-reduce: `cross_device_reduce_1stage`, `cross_device_reduce_2stage`;
// - DeepEP's expert-parallel all-to-all: every `deep_ep::` kernel (dispatch, combine and their
//   notify steps).
// Operators, by name: c10d (`c10d::*`, `c10d_functional::*`, `_c10d_functional::*`), NCCL
// annotations (`nccl:*`, `record_param_comms`), `symm_mem::*`, vLLM's custom all-reduce
// (`_C_custom_ar::*`, `vllm::all_reduce`), SGLang's (`sgl_kernel::all_reduce`, `sgl_kernel::custom_*`)
// and DeepEP (`deep_ep*`).
#pragma once

#include <optional>
#include <string_view>

namespace ridgeline::core {

struct CommName {
    std::string_view library; // "NCCL", "symmetric memory", "custom all-reduce", "DeepEP", "c10d"
    // The collective the name says ("AllReduce", "AllGather", "AllToAll"); empty when it does not
    // (NCCL's kernels: their names are parsed in ncclkernel.h and the importers).
    std::string_view collective;
};

// A communication kernel by the list above; nullopt for any other kernel.
std::optional<CommName> communicationKernel(std::string_view kernelName);
inline bool isCommunicationKernelName(std::string_view kernelName)
{
    return communicationKernel(kernelName).has_value();
}

// A communication operator by the list above; nullopt for any other operator.
std::optional<CommName> communicationOperator(std::string_view operatorName);

} // namespace ridgeline::core
