// SPDX-License-Identifier: MIT
// The one list of communication kernels and operators (commnames.h), on names as real traces write
// them (tests/data/kineto: HTA's NCCL traces, the vLLM B200 trace) and as the libraries' sources
// name their kernels.
#include "ridgeline/core/model/commnames.h"

#include <gtest/gtest.h>

using ridgeline::core::communicationKernel;
using ridgeline::core::communicationOperator;
using ridgeline::core::isCommunicationKernelName;

TEST(CommNames, NcclKernelsByHtasRule)
{
    EXPECT_EQ(
        communicationKernel("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)")->library, "NCCL");
    EXPECT_TRUE(isCommunicationKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
    EXPECT_TRUE(isCommunicationKernelName("void ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)"));
    EXPECT_TRUE(isCommunicationKernelName("nccl:all_reduce")); // HTA: any name that starts with nccl
    EXPECT_FALSE(isCommunicationKernelName("void at::native::vectorized_elementwise_kernel<4, nccl_like>()"));
}

TEST(CommNames, SymmetricMemoryCustomAllReduceAndDeepEpKernels)
{
    // As in tests/data/kineto/vllm-b200/eager_trace.json.gz.
    const auto symm
        = communicationKernel("void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>("
                              "c10::BFloat16*, unsigned long, unsigned int**, unsigned long, unsigned long)");
    ASSERT_TRUE(symm);
    EXPECT_EQ(symm->library, "symmetric memory");
    EXPECT_EQ(symm->collective, "AllReduce");
    EXPECT_EQ(communicationKernel("void two_shot_all_reduce_kernel<float, 8>(float**, unsigned long)")->collective,
        "AllReduce");
    EXPECT_EQ(communicationKernel("multimem_all_gather_kernel<16>")->collective, "AllGather");
    EXPECT_EQ(communicationKernel("void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*)")->library,
        "custom all-reduce");
    EXPECT_EQ(
        communicationKernel("void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*)")->collective, "AllToAll");
    EXPECT_FALSE(communicationKernel("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm>(Params)"));
    EXPECT_FALSE(communicationKernel("triton_poi_fused_add_all_reduce_0")); // a Triton kernel named after its graph
}

TEST(CommNames, Operators)
{
    EXPECT_EQ(communicationOperator("symm_mem::multimem_all_reduce_")->library, "symmetric memory");
    EXPECT_EQ(communicationOperator("c10d::allreduce_")->library, "c10d");
    EXPECT_EQ(communicationOperator("_c10d_functional::all_gather_into_tensor")->library, "c10d");
    EXPECT_EQ(communicationOperator("record_param_comms")->library, "NCCL");
    EXPECT_EQ(communicationOperator("nccl:all_reduce")->library, "NCCL");
    EXPECT_EQ(communicationOperator("_C_custom_ar::all_reduce")->collective, "AllReduce");
    EXPECT_EQ(communicationOperator("sgl_kernel::custom_reduce")->library, "custom all-reduce");
    EXPECT_FALSE(communicationOperator("aten::addmm"));
    EXPECT_FALSE(communicationOperator("vllm::moe_forward"));
}
