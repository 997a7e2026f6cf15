// SPDX-License-Identifier: MIT
#include "ridgeline/core/demangle.h"
#include "ridgeline/core/model.h"
#include "ridgeline/core/units.h"

#include <gtest/gtest.h>

using namespace ridgeline::core;

TEST(Units, Durations)
{
    EXPECT_EQ(formatDuration(0), "0 ns");
    EXPECT_EQ(formatDuration(999), "999 ns");
    EXPECT_EQ(formatDuration(1500), "1.500 µs");
    EXPECT_EQ(formatDuration(2'345'678), "2.346 ms");
    EXPECT_EQ(formatDuration(3e9), "3.000 s");
}

TEST(Units, Counts)
{
    EXPECT_EQ(formatCount(0), "0");
    EXPECT_EQ(formatCount(999), "999");
    EXPECT_EQ(formatCount(1000), "1,000");
    EXPECT_EQ(formatCount(1234567), "1,234,567");
    EXPECT_EQ(formatCount(-1234), "-1,234");
    EXPECT_EQ(formatCount(INT64_MIN), "-9,223,372,036,854,775,808");
}

TEST(Units, Bytes)
{
    EXPECT_EQ(formatBytes(512), "512 B");
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
    EXPECT_EQ(formatBytes(80.0 * 1024 * 1024 * 1024), "80.0 GiB");
}

TEST(Units, CsvQuoting)
{
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
}

TEST(Demangle, CudaKernelNames)
{
    EXPECT_EQ(demangle("_Z9vectorAddPKfS0_Pfi"), "vectorAdd(float const*, float const*, float*, int)");
    EXPECT_EQ(demangle("ampere_sgemm_128x64_nn"), "ampere_sgemm_128x64_nn");
    EXPECT_EQ(demangle("_Z"), "_Z");
    EXPECT_EQ(demangle("_Zgarbage!!"), "_Zgarbage!!");
}

TEST(Demangle, ShortKernelNamesFoldTemplatesParametersAndTheReturnType)
{
    using ridgeline::core::shortKernelName;
    EXPECT_EQ(shortKernelName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                              "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"),
        "at::native::vectorized_elementwise_kernel<…>(…)");
    EXPECT_EQ(shortKernelName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
        "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(…)");
    EXPECT_EQ(
        shortKernelName("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>(float*, "
                        "float const*, int, int, int)"),
        "(anonymous namespace)::softmax_warp_forward<…>(…)");
    EXPECT_EQ(shortKernelName("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1"),
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1");
    EXPECT_EQ(shortKernelName("Memcpy HtoD (Pinned -> Device)"), "Memcpy HtoD (Pinned -> Device)");
    EXPECT_EQ(shortKernelName("void k<(a)>(int) const"), "k<…>(…) const");
    EXPECT_EQ(shortKernelName("broken>(name"), "broken>(name");
    EXPECT_EQ(shortKernelName(""), "");
}

TEST(Model, DescribeDeviceSaysWhatTheSessionKnowsAndNothingElse)
{
    using ridgeline::core::describeDevice;
    ridgeline::core::Device d;
    d.name = "NVIDIA A100-PG509-200";
    EXPECT_EQ(describeDevice(d), ""); // a trace that names a GPU and nothing more: no "0.0, 0 SMs"
    d.ccMajor = 8;
    EXPECT_EQ(describeDevice(d), "compute capability 8.0");
    d.smCount = 108;
    d.host = "node-3";
    EXPECT_EQ(describeDevice(d), "compute capability 8.0, 108 SMs, host node-3");
    d.ccMajor = 0;
    EXPECT_EQ(describeDevice(d), "108 SMs, host node-3");
}
