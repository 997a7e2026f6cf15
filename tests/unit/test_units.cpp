// SPDX-License-Identifier: MIT
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/model/model.h"

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

TEST(Units, FitColumnsCutsWholeCodePointsAndEndsInAnEllipsis)
{
    using ridgeline::core::fitColumns;
    using ridgeline::core::textColumns;
    EXPECT_EQ(textColumns("36.200 µs"), 9u); // µ is two bytes, one column
    EXPECT_EQ(fitColumns("ampere_sgemm", 12), "ampere_sgemm");
    EXPECT_EQ(fitColumns("ampere_sgemm", 11), "ampere_sge…");
    EXPECT_EQ(textColumns(fitColumns("ampere_sgemm", 11)), 11u);
    EXPECT_EQ(fitColumns("µµµµ", 3), "µµ…");
    EXPECT_EQ(fitColumns("abc", 1), "…");
    EXPECT_EQ(fitColumns("abc", 0), "");
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
