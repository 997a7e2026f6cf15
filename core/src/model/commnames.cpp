// SPDX-License-Identifier: MIT
#include "ridgeline/core/model/commnames.h"

#include <array>

namespace ridgeline::core {

namespace {

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

struct NamePattern {
    std::string_view part; // found anywhere in the name
    CommName name;
};

constexpr std::array<NamePattern, 8> kKernelPatterns { {
    { "multimem_all_reduce", { "symmetric memory", "AllReduce" } },
    { "multimem_one_shot", { "symmetric memory", "AllReduce" } },
    { "multimem_all_gather", { "symmetric memory", "AllGather" } },
    { "one_shot_all_reduce", { "symmetric memory", "AllReduce" } },
    { "two_shot_all_reduce", { "symmetric memory", "AllReduce" } },
    { "cross_device_reduce_1stage", { "custom all-reduce", "AllReduce" } },
    { "cross_device_reduce_2stage", { "custom all-reduce", "AllReduce" } },
    { "deep_ep::", { "DeepEP", "AllToAll" } },
} };

constexpr std::array<NamePattern, 10> kOperatorPrefixes { {
    { "c10d::", { "c10d", "" } },
    { "c10d_functional::", { "c10d", "" } },
    { "_c10d_functional::", { "c10d", "" } },
    { "nccl:", { "NCCL", "" } },
    { "record_param_comms", { "NCCL", "" } },
    { "symm_mem::", { "symmetric memory", "" } },
    { "_C_custom_ar::", { "custom all-reduce", "AllReduce" } },
    { "vllm::all_reduce", { "custom all-reduce", "AllReduce" } },
    { "sgl_kernel::all_reduce", { "custom all-reduce", "AllReduce" } },
    { "deep_ep", { "DeepEP", "AllToAll" } },
} };

} // namespace

std::optional<CommName> communicationKernel(std::string_view kernelName)
{
    // Holistic Trace Analysis's NCCL rule; RCCL's kernels keep the nccl prefix.
    if (kernelName.starts_with("nccl") || contains(kernelName, "ncclKernel") || contains(kernelName, "ncclDevKernel"))
        return CommName { "NCCL", "" };
    for (const auto& pattern : kKernelPatterns) {
        if (contains(kernelName, pattern.part))
            return pattern.name;
    }
    return std::nullopt;
}

std::optional<CommName> communicationOperator(std::string_view operatorName)
{
    if (operatorName.starts_with("sgl_kernel::custom_"))
        return CommName { "custom all-reduce", "AllReduce" };
    for (const auto& pattern : kOperatorPrefixes) {
        if (operatorName.starts_with(pattern.part))
            return pattern.name;
    }
    return std::nullopt;
}

} // namespace ridgeline::core
