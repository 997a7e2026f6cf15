// SPDX-License-Identifier: MIT
// Identifying a GPU that a file does not name (gpuidentify.h). The facts are the device attributes
// of real reports (device__attribute_compute_capability_major/minor, multiprocessor_count,
// clock_rate, memory_clock_rate, global_memory_bus_width, total_memory of each report's first
// result, read with tests/data/ncu/ncurep_facts.py's decoder) with the name left out: what each
// resolves to must be the GPU that made the report, or a set of candidates that holds it.
#include "ridgeline/collectors/ceilings/gpuidentify.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

using ridgeline::collectors::GpuFacts;
using ridgeline::collectors::GpuSpec;
using ridgeline::collectors::identifyUnnamedGpu;

namespace gpuidentify {

// CC, SMs, clock kHz, memory clock kHz, bus bits, memory bytes.
constexpr GpuFacts kA100Pcie40 { 8, 0, 108, 1410000, 1215000, 5120, 42505273344 }; // extrap-a100 (A100-PCIE-40GB)
constexpr GpuFacts kA100Pcie80 { 8, 0, 108, 1410000, 1512000, 5120, 85097971712 }; // panjd123/cutlass report.ncu-rep
constexpr GpuFacts kH800 { 9, 0, 132, 1980000, 2619000, 5120, 84943110144 }; // sglang-h800
constexpr GpuFacts kA10G { 8, 6, 80, 1710000, 6251000, 384, 23595909120 }; // esmm-a10g
constexpr GpuFacts kA40 { 8, 6, 84, 1740000, 7251000, 384, 47691595776 }; // eschnett/IndexSpaces.jl profile.ncu-rep
constexpr GpuFacts kRtx4060Laptop { 8, 9, 24, 2010000, 8001000, 128, 8318484480 }; // nersc-gpp output0

std::vector<std::string> namesOf(const std::vector<const GpuSpec*>& specs)
{
    std::vector<std::string> out;
    for (const auto* s : specs)
        out.push_back(s->name);
    return out;
}

bool mentions(const std::string& text, const std::string& words)
{
    return text.find(words) != std::string::npos;
}

TEST(GpuIdentify, RealDevicesWithTheirNamesLeftOut)
{
    // DRAM 2 x 1,512 MHz x 640 B = 1,935 GB/s: only the 80 GB PCIe card of the four A100s.
    auto a = identifyUnnamedGpu(kA100Pcie80);
    ASSERT_NE(a.spec, nullptr) << a.note;
    EXPECT_EQ(a.spec->name, "NVIDIA A100 PCIe 80GB");
    EXPECT_TRUE(mentions(a.note, "DRAM 1935 GB/s")) << a.note;

    // 1,215 MHz: 1,555 GB/s, the 40 GB A100s, SXM4 and PCIe, whose datasheet ceilings are the same:
    // they are used, and the note says that the file does not say which card it is.
    a = identifyUnnamedGpu(kA100Pcie40);
    ASSERT_NE(a.spec, nullptr) << a.note;
    EXPECT_TRUE(a.sameCeilings);
    EXPECT_EQ(namesOf(a.candidates), (std::vector<std::string> { "NVIDIA A100 SXM4 40GB", "NVIDIA A100 PCIe 40GB" }));
    EXPECT_TRUE(mentions(a.note, "the same datasheet ceilings")) << a.note;
    EXPECT_TRUE(mentions(a.note, "--gpu")) << a.note;

    // CC 8.6 with 80 SMs: the A10G alone, as before.
    a = identifyUnnamedGpu(kA10G);
    ASSERT_NE(a.spec, nullptr) << a.note;
    EXPECT_EQ(a.spec->name, "NVIDIA A10G");

    // 84 SMs: the A40 and the RTX A6000; the 1,740 MHz clock and 696 GB/s are the A40's.
    a = identifyUnnamedGpu(kA40);
    ASSERT_NE(a.spec, nullptr) << a.note;
    EXPECT_EQ(a.spec->name, "NVIDIA A40");

    // The laptop part's clock is its maker's (2,010 MHz, under the catalogue's 2,370): no entry
    // has it, so it is not used and the note says so; 256 GB/s is the laptop part's, not the
    // desktop RTX 4060's 272.
    a = identifyUnnamedGpu(kRtx4060Laptop);
    ASSERT_NE(a.spec, nullptr) << a.note;
    EXPECT_EQ(a.spec->name, "NVIDIA GeForce RTX 4060 Laptop GPU");
    EXPECT_TRUE(mentions(a.unused, "2010 MHz")) << a.unused;
    EXPECT_TRUE(mentions(a.note, "so it was not used")) << a.note;

    // An H800 and an H100 SXM5 look the same to CUDA (132 SMs, 1,980 MHz, 3.35 TB/s, 80 GB), but
    // their FP64 and NVLink ceilings differ: no ceilings, both named, and --gpu.
    a = identifyUnnamedGpu(kH800);
    EXPECT_EQ(a.spec, nullptr) << a.note;
    EXPECT_EQ(namesOf(a.candidates), (std::vector<std::string> { "NVIDIA H100 SXM5 80GB", "NVIDIA H800 SXM5 80GB" }));
    EXPECT_TRUE(mentions(a.note, "ceilings differ")) << a.note;
    EXPECT_TRUE(mentions(a.note, "--gpu \"NVIDIA H100 SXM5 80GB\"")) << a.note;
}

TEST(GpuIdentify, EachFactNarrows)
{
    // CC and SM count alone: the four A100s, whose DRAM figures differ.
    auto a = identifyUnnamedGpu({ 8, 0, 108 });
    EXPECT_EQ(a.spec, nullptr);
    EXPECT_EQ(a.candidates.size(), 4U);
    EXPECT_TRUE(mentions(a.note, "fit 4 catalogue entries whose ceilings differ")) << a.note;
    // The memory size alone separates 40 from 80 GB, not SXM4 from PCIe (1,555 GB/s both at 40 GB,
    // 2,039 and 1,935 at 80 GB).
    a = identifyUnnamedGpu({ 8, 0, 108, 0, 0, 0, kA100Pcie80.memoryBytes });
    EXPECT_EQ(namesOf(a.candidates), (std::vector<std::string> { "NVIDIA A100 SXM4 80GB", "NVIDIA A100 PCIe 80GB" }));
    EXPECT_EQ(a.spec, nullptr);
    a = identifyUnnamedGpu({ 8, 0, 108, 0, 0, 0, kA100Pcie40.memoryBytes });
    EXPECT_TRUE(a.sameCeilings);
    // 2 x 1,593 MHz x 640 B = 2,039 GB/s: the SXM4 80 GB.
    a = identifyUnnamedGpu({ 8, 0, 108, 0, 1593000, 5120, 0 });
    ASSERT_NE(a.spec, nullptr);
    EXPECT_EQ(a.spec->name, "NVIDIA A100 SXM4 80GB");
}

TEST(GpuIdentify, TooLittleIsNotAnAnswer)
{
    // Nothing to go on.
    auto a = identifyUnnamedGpu({});
    EXPECT_EQ(a.spec, nullptr);
    EXPECT_TRUE(a.note.empty());
    // CC 9.0 alone (the CSV): every Hopper entry, none picked, --gpu.
    a = identifyUnnamedGpu({ 9, 0, 0 });
    EXPECT_EQ(a.spec, nullptr);
    EXPECT_GE(a.candidates.size(), 5U);
    EXPECT_TRUE(
        std::all_of(a.candidates.begin(), a.candidates.end(), [](const GpuSpec* s) { return s->ccMajor == 9; }));
    EXPECT_TRUE(mentions(a.note, "without the SM count")) << a.note;
    EXPECT_TRUE(mentions(a.note, "--gpu")) << a.note;
    // Even when the facts leave one entry (80 SMs at 600 GB/s: the A10G), nothing is picked without
    // the CC: the catalogue does not hold every GPU.
    a = identifyUnnamedGpu({ 0, 0, 80, 0, 6251000, 384, 0 });
    EXPECT_EQ(a.spec, nullptr) << a.note;
    // Facts no entry has.
    a = identifyUnnamedGpu({ 9, 0, 200 });
    EXPECT_EQ(a.spec, nullptr);
    EXPECT_TRUE(a.candidates.empty());
    EXPECT_TRUE(mentions(a.note, "no catalogue entry has CC 9.0 with 200 SMs")) << a.note;
}

} // namespace gpuidentify
