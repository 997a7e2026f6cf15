// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ridgeline::collectors;
namespace resource = ridgeline::core::resource;

namespace {

std::string nameOf(const GpuSpec* spec)
{
    return spec ? spec->name : std::string("<none>");
}

double peak(const GpuSpec& spec, const char* resourceName)
{
    const auto it = spec.peaks.find(ridgeline::core::resourceFromString(resourceName).value());
    return it == spec.peaks.end() ? -1.0 : it->second;
}

// Whether the spec has a peak for the resource of this name.
bool has(const GpuSpec& spec, const char* resourceName)
{
    return spec.peaks.contains(ridgeline::core::resourceFromString(resourceName).value());
}

} // namespace

TEST(GpuCatalogue, FindsCudaDeviceNamesAsReported)
{
    const std::vector<std::pair<std::string, std::string>> cases {
        { "NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB" },
        { "NVIDIA H100 PCIe", "NVIDIA H100 PCIe 80GB" },
        { "NVIDIA H200", "NVIDIA H200 SXM 141GB" },
        { "NVIDIA GH200 480GB", "NVIDIA GH200 480GB (96GB HBM3)" },
        { "NVIDIA A100-SXM4-40GB", "NVIDIA A100 SXM4 40GB" },
        { "NVIDIA A100-SXM4-80GB", "NVIDIA A100 SXM4 80GB" },
        { "NVIDIA A100-PCIE-40GB", "NVIDIA A100 PCIe 40GB" },
        { "NVIDIA A100 80GB PCIe", "NVIDIA A100 PCIe 80GB" },
        { "NVIDIA L40S", "NVIDIA L40S" },
        { "NVIDIA L4", "NVIDIA L4" },
        { "NVIDIA A10", "NVIDIA A10" },
        { "Tesla V100-SXM2-16GB", "NVIDIA V100 SXM2" },
        { "Tesla V100-SXM2-32GB", "NVIDIA V100 SXM2" },
        { "Tesla V100-PCIE-32GB", "NVIDIA V100 PCIe" },
        { "Tesla V100-PCIE-16GB", "NVIDIA V100 PCIe" },
        { "NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090" },
        { "NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3090" },
        { "NVIDIA B200", "NVIDIA B200" },
        { "Tesla T4", "NVIDIA T4" },
        { "NVIDIA GeForce RTX 2080 Ti", "NVIDIA GeForce RTX 2080 Ti" },
        { "GeForce RTX 2080 Ti", "NVIDIA GeForce RTX 2080 Ti" }, // older drivers drop "NVIDIA"
        { "NVIDIA GeForce RTX 2080", "NVIDIA GeForce RTX 2080" },
        { "NVIDIA GeForce RTX 2070", "NVIDIA GeForce RTX 2070" },
        { "NVIDIA A30", "NVIDIA A30" },
        { "NVIDIA A40", "NVIDIA A40" },
        { "NVIDIA A10G", "NVIDIA A10G" },
        { "NVIDIA A2", "NVIDIA A2" },
        { "NVIDIA RTX A6000", "NVIDIA RTX A6000" },
        { "NVIDIA GeForce RTX 3080", "NVIDIA GeForce RTX 3080" },
        { "NVIDIA GeForce RTX 3070", "NVIDIA GeForce RTX 3070" },
        { "NVIDIA GeForce RTX 3060", "NVIDIA GeForce RTX 3060" },
        { "NVIDIA L40", "NVIDIA L40" },
        { "NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX 6000 Ada Generation" },
        { "NVIDIA GeForce RTX 4080", "NVIDIA GeForce RTX 4080" },
        { "NVIDIA GeForce RTX 4070", "NVIDIA GeForce RTX 4070" },
        { "NVIDIA GeForce RTX 4060", "NVIDIA GeForce RTX 4060" },
        { "NVIDIA GeForce RTX 4060 Laptop GPU", "NVIDIA GeForce RTX 4060 Laptop GPU" },
        { "NVIDIA H800", "NVIDIA H800 SXM5 80GB" },
        { "NVIDIA H20", "NVIDIA H20" },
        { "NVIDIA GB200", "NVIDIA GB200" },
        { "NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 5090" },
        { "NVIDIA GeForce RTX 5080", "NVIDIA GeForce RTX 5080" },
        { "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition" },
    };
    for (const auto& [device, expected] : cases)
        EXPECT_EQ(nameOf(findGpu(device)), expected) << device;
}

TEST(GpuCatalogue, MatchingIgnoresCaseAndPunctuationAndAcceptsCatalogueNames)
{
    EXPECT_EQ(nameOf(findGpu("nvidia a100-sxm4-80gb")), "NVIDIA A100 SXM4 80GB");
    EXPECT_EQ(nameOf(findGpu("  NVIDIA   L40S ")), "NVIDIA L40S");
    EXPECT_EQ(nameOf(findGpu("GeForce RTX 4090")), "NVIDIA GeForce RTX 4090");
    EXPECT_EQ(nameOf(findGpu("RTX 3090")), "NVIDIA GeForce RTX 3090");
    for (const auto& spec : gpuCatalogue())
        EXPECT_EQ(nameOf(findGpu(spec.name)), spec.name);
    EXPECT_EQ(normalizedGpuName("NVIDIA A100-SXM4-80GB"), "a100 sxm4 80gb");
    EXPECT_EQ(normalizedGpuName("Tesla V100-PCIE-32GB"), "v100 pcie 32gb");
}

TEST(GpuCatalogue, A10IsNotA100AndL4IsNotL40S)
{
    EXPECT_EQ(nameOf(findGpu("NVIDIA A10")), "NVIDIA A10");
    EXPECT_EQ(findGpu("NVIDIA A10", 8, 6, 72)->smCount, 72);
    EXPECT_EQ(findGpu("NVIDIA A10", 8, 0, 108), nullptr);
    EXPECT_EQ(findGpu("NVIDIA A100-SXM4-80GB", 8, 6, 72), nullptr);
    EXPECT_EQ(nameOf(findGpu("NVIDIA A10G")), "NVIDIA A10G") << "the AWS A10G is a product of its own";
    EXPECT_EQ(findGpu("NVIDIA A10G", 8, 6, 72), nullptr) << "the A10G has 80 SMs, the A10 72";

    EXPECT_EQ(nameOf(findGpu("NVIDIA L4")), "NVIDIA L4");
    EXPECT_EQ(nameOf(findGpu("NVIDIA L40S")), "NVIDIA L40S");
    EXPECT_EQ(findGpu("NVIDIA L4", 8, 9, 142), nullptr);
    EXPECT_EQ(findGpu("NVIDIA L40S", 8, 9, 58), nullptr);
    EXPECT_EQ(nameOf(findGpu("NVIDIA L40")), "NVIDIA L40") << "the L40 is not the L40S";
    EXPECT_EQ(nameOf(findGpu("NVIDIA L40", 8, 9, 142)), "NVIDIA L40") << "same CC and SMs as the L40S";
}

TEST(GpuCatalogue, SmCountAndComputeCapabilityDisambiguateAndReject)
{
    // A generic name fits several entries: only the SM count can tell SXM5 from PCIe.
    EXPECT_EQ(findGpu("NVIDIA H100"), nullptr);
    EXPECT_EQ(matchingGpus("NVIDIA H100").size(), 2u);
    EXPECT_EQ(nameOf(findGpu("NVIDIA H100", 9, 0, 132)), "NVIDIA H100 SXM5 80GB");
    EXPECT_EQ(nameOf(findGpu("NVIDIA H100", 9, 0, 114)), "NVIDIA H100 PCIe 80GB");
    EXPECT_EQ(nameOf(findGpu("NVIDIA H100", 0, 0, 114)), "NVIDIA H100 PCIe 80GB");
    // A100 40 vs 80 GB share CC and SM count: still ambiguous, so no guess.
    EXPECT_EQ(findGpu("NVIDIA A100", 8, 0, 108), nullptr);
    EXPECT_EQ(matchingGpus("NVIDIA A100", 8, 0, 108).size(), 4u);
    EXPECT_EQ(findGpu("Tesla V100"), nullptr);

    // Known names with the wrong CC or SM count (a MIG slice, a mislabelled trace) are rejected.
    EXPECT_NE(findGpu("NVIDIA H100 80GB HBM3", 9, 0, 132), nullptr);
    EXPECT_EQ(findGpu("NVIDIA H100 80GB HBM3", 9, 0, 16), nullptr);
    EXPECT_EQ(findGpu("NVIDIA H100 80GB HBM3", 8, 0, 132), nullptr);
    EXPECT_EQ(findGpu("NVIDIA H100 80GB HBM3", 9, 1, 0), nullptr);
    EXPECT_EQ(findGpu("NVIDIA A100-SXM4-80GB", 8, 0, 14), nullptr);
    EXPECT_NE(findGpu("NVIDIA B200", 10, 0, 148), nullptr);
    EXPECT_NE(findGpu("NVIDIA L4", 8, 9, 58), nullptr);
}

TEST(GpuCatalogue, UnknownGpusAreNotGuessed)
{
    // Not catalogued (not sourced: see gpucataloguedata.cpp), and not to be taken for a catalogued
    // product, by the exact name nor loosely: a variant word, another model word, or a MIG slice.
    for (const char* name : { "", "NVIDIA", "NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA GH200 144G HBM3e",
             "NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 3090 Ti", "NVIDIA GeForce RTX 3080 Ti",
             "NVIDIA GeForce RTX 4060 Ti", "NVIDIA GeForce RTX 4080 SUPER", "NVIDIA GeForce RTX 2080 SUPER",
             "NVIDIA GeForce RTX 5090 Laptop GPU", "Tesla V100S-PCIE-32GB", "NVIDIA H800 PCIe", "Quadro RTX 6000",
             "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
             "NVIDIA TITAN RTX", "AMD Instinct MI300X", "NVIDIA B300 SXM6 AC", "NVIDIA H100 80GB HBM3 MIG 1g.10gb",
             "NVIDIA A800-SXM4-80GB", "GeForce GTX 1060 with Max-Q Design" }) {
        EXPECT_EQ(findGpu(name), nullptr) << name;
        EXPECT_EQ(nameOf(resolveGpu(name).spec), "<none>") << name;
    }
}

TEST(GpuCatalogue, HandCheckedDatasheetFigures)
{
    const auto& h100 = *findGpu("NVIDIA H100 80GB HBM3");
    EXPECT_DOUBLE_EQ(peak(h100, resource::FP64), 34e12);
    EXPECT_DOUBLE_EQ(peak(h100, resource::FP64Tensor), 67e12);
    EXPECT_DOUBLE_EQ(peak(h100, resource::DRAM), 3.35e12);
    EXPECT_DOUBLE_EQ(peak(h100, resource::FP16Tensor), 989.5e12) << "datasheet 1,979* is sparse";
    EXPECT_DOUBLE_EQ(peak(h100, resource::FP8Tensor), 1979e12);
    EXPECT_DOUBLE_EQ(peak(h100, resource::NVLink), 450e9) << "900 GB/s bidirectional";
    EXPECT_DOUBLE_EQ(peak(h100, resource::PCIe), 64e9) << "PCIe Gen5 x16, 128 GB/s bidirectional";
    EXPECT_EQ(h100.smCount, 132);

    const auto& h100Pcie = *findGpu("NVIDIA H100 PCIe");
    EXPECT_DOUBLE_EQ(peak(h100Pcie, resource::FP64), 26e12);
    EXPECT_DOUBLE_EQ(peak(h100Pcie, resource::DRAM), 2e12);

    EXPECT_DOUBLE_EQ(peak(*findGpu("NVIDIA H200"), resource::DRAM), 4.8e12);

    const auto& a100 = *findGpu("NVIDIA A100-SXM4-80GB");
    EXPECT_DOUBLE_EQ(peak(a100, resource::FP64), 9.7e12);
    EXPECT_DOUBLE_EQ(peak(a100, resource::FP64Tensor), 19.5e12);
    EXPECT_DOUBLE_EQ(peak(a100, resource::TF32Tensor), 156e12);
    EXPECT_DOUBLE_EQ(peak(a100, resource::BF16Tensor), 312e12);
    EXPECT_DOUBLE_EQ(peak(a100, resource::DRAM), 2039e9);
    EXPECT_DOUBLE_EQ(peak(*findGpu("NVIDIA A100-SXM4-40GB"), resource::DRAM), 1555e9);
    EXPECT_DOUBLE_EQ(peak(*findGpu("NVIDIA A100 80GB PCIe"), resource::DRAM), 1935e9);

    const auto& l40s = *findGpu("NVIDIA L40S");
    EXPECT_DOUBLE_EQ(peak(l40s, resource::FP32), 91.6e12);
    EXPECT_DOUBLE_EQ(peak(l40s, resource::FP8Tensor), 733e12);
    EXPECT_DOUBLE_EQ(peak(l40s, resource::DRAM), 864e9);

    const auto& l4 = *findGpu("NVIDIA L4");
    EXPECT_DOUBLE_EQ(peak(l4, resource::FP16Tensor), 121e12) << "datasheet 242* is sparse";
    EXPECT_DOUBLE_EQ(peak(l4, resource::DRAM), 300e9);

    const auto& v100 = *findGpu("Tesla V100-SXM2-16GB");
    EXPECT_DOUBLE_EQ(peak(v100, resource::FP64), 7.8e12);
    EXPECT_DOUBLE_EQ(peak(v100, resource::FP16Tensor), 125e12);
    EXPECT_DOUBLE_EQ(peak(*findGpu("Tesla V100-PCIE-32GB"), resource::FP16Tensor), 112e12);

    EXPECT_DOUBLE_EQ(peak(*findGpu("NVIDIA GeForce RTX 4090"), resource::DRAM), 1008e9);
    EXPECT_DOUBLE_EQ(peak(*findGpu("NVIDIA B200"), resource::FP8Tensor), 4.5e15);
}

// Figures of the entries added for issue 33, each as its source prints it (dense; sparse ones
// halved), or derived as gpucataloguedata.cpp says: SMs x per-SM rate x boost clock.
TEST(GpuCatalogue, HandCheckedFiguresOfTheLaterEntries)
{
    // A40 datasheet: FP32 37.4, BF16 149.7 | 299.4*, TF32 74.8 | 149.6*, INT8 299.3 | 598.6*, 696 GB/s,
    // NVLink 112.5 GB/s bidirectional.
    const auto& a40 = *findGpu("NVIDIA A40");
    EXPECT_DOUBLE_EQ(peak(a40, resource::FP32), 37.4e12);
    EXPECT_DOUBLE_EQ(peak(a40, resource::BF16Tensor), 149.7e12);
    EXPECT_DOUBLE_EQ(peak(a40, resource::TF32Tensor), 74.8e12);
    EXPECT_DOUBLE_EQ(peak(a40, resource::DRAM), 696e9);
    EXPECT_DOUBLE_EQ(peak(a40, resource::NVLink), 56.25e9);

    // A10G: no datasheet; 80 SMs x 512 FP16 FLOP/clk (GA10x with FP32 accumulate) x 1.71 GHz = 70.04
    // TFLOPS, 80 x 256 x 1.71 GHz = 35.02 TFLOPS FP32; 600 GB/s like the A10.
    const auto& a10g = *findGpu("NVIDIA A10G");
    EXPECT_DOUBLE_EQ(peak(a10g, resource::FP16Tensor), 80 * 512 * 1.71e9);
    EXPECT_NEAR(peak(a10g, resource::FP16Tensor), 70.04e12, 0.01e12);
    EXPECT_NEAR(peak(a10g, resource::FP32), 35.02e12, 0.01e12);
    EXPECT_DOUBLE_EQ(peak(a10g, resource::DRAM), 600e9);

    // Turing blog, Table 1, RTX 2080 Ti reference: FP32 13.4, FP16 tensor with FP32 accumulate 53.8,
    // INT8 215.2, 616 GB/s. T4 datasheet: 8.1, 65, 130 TOPS, 320 GB/s.
    const auto& rtx2080ti = *findGpu("NVIDIA GeForce RTX 2080 Ti");
    EXPECT_DOUBLE_EQ(peak(rtx2080ti, resource::FP16Tensor), 53.8e12);
    EXPECT_DOUBLE_EQ(peak(rtx2080ti, resource::INT8Tensor), 215.2e12);
    EXPECT_DOUBLE_EQ(peak(rtx2080ti, resource::DRAM), 616e9);
    const auto& t4 = *findGpu("Tesla T4");
    EXPECT_DOUBLE_EQ(peak(t4, resource::FP16Tensor), 65e12);
    EXPECT_DOUBLE_EQ(peak(t4, resource::INT8Tensor), 130e12);
    EXPECT_DOUBLE_EQ(peak(t4, resource::DRAM), 320e9);

    // L40 datasheet, L40 column: BF16 181.05 | 362.1*, FP8 362 | 724* (half the L40S's), 864 GB/s.
    const auto& l40 = *findGpu("NVIDIA L40");
    EXPECT_DOUBLE_EQ(peak(l40, resource::BF16Tensor), 181.05e12);
    EXPECT_DOUBLE_EQ(peak(l40, resource::FP8Tensor), 362e12);
    EXPECT_DOUBLE_EQ(peak(l40, resource::DRAM), 864e9);

    // RTX 4060 Laptop GPU: 24 SMs x 512 x 2.37 GHz (top of NVIDIA's 1470-2370 MHz range) = 29.1
    // TFLOPS FP16 with FP32 accumulate; 16 Gbps x 128 bits = 256 GB/s.
    const auto& laptop = *findGpu("NVIDIA GeForce RTX 4060 Laptop GPU");
    EXPECT_DOUBLE_EQ(peak(laptop, resource::FP16Tensor), 24 * 512 * 2.37e9);
    EXPECT_DOUBLE_EQ(peak(laptop, resource::DRAM), 256e9);
    EXPECT_EQ(laptop.smCount, 24);

    // H800: the H100 SXM5 with FP64 at 1 TFLOPS and NVLink at 400 GB/s bidirectional.
    const auto& h800 = *findGpu("NVIDIA H800");
    EXPECT_DOUBLE_EQ(peak(h800, resource::FP64), 1e12);
    EXPECT_DOUBLE_EQ(peak(h800, resource::BF16Tensor), 989.5e12);
    EXPECT_DOUBLE_EQ(peak(h800, resource::NVLink), 200e9);
    // H20: FP16 148 dense, INT8 296, FP32 44, 4.0 TB/s; no published clock.
    const auto& h20 = *findGpu("NVIDIA H20");
    EXPECT_DOUBLE_EQ(peak(h20, resource::FP16Tensor), 148e12);
    EXPECT_DOUBLE_EQ(peak(h20, resource::FP32), 44e12);
    EXPECT_DOUBLE_EQ(peak(h20, resource::DRAM), 4e12);
    EXPECT_EQ(h20.boostClockHz, 0);

    // GB200 NVL72, per GPU: FP16/BF16 5 PFLOPS*, FP8 10*, FP32 80 TFLOPS, FP64 40, 8 TB/s, NVLink 1.8 TB/s.
    const auto& gb200 = *findGpu("NVIDIA GB200");
    EXPECT_DOUBLE_EQ(peak(gb200, resource::BF16Tensor), 2.5e15);
    EXPECT_DOUBLE_EQ(peak(gb200, resource::FP8Tensor), 5e15);
    EXPECT_DOUBLE_EQ(peak(gb200, resource::FP64), 40e12);
    EXPECT_DOUBLE_EQ(peak(gb200, resource::DRAM), 8e12);
    EXPECT_DOUBLE_EQ(peak(gb200, resource::NVLink), 900e9);

    // RTX Blackwell whitepaper Table 3, RTX 5090: BF16 with FP32 accumulate 209.5 | 419*, FP8 419 | 838*,
    // 1792 GB/s. RTX PRO Blackwell whitepaper Table 4: RTX PRO 6000 BF16 503.8 dense, RTX 6000 Ada 364.
    const auto& rtx5090 = *findGpu("NVIDIA GeForce RTX 5090");
    EXPECT_DOUBLE_EQ(peak(rtx5090, resource::BF16Tensor), 209.5e12);
    EXPECT_DOUBLE_EQ(peak(rtx5090, resource::FP8Tensor), 419e12);
    EXPECT_DOUBLE_EQ(peak(rtx5090, resource::DRAM), 1792e9);
    EXPECT_DOUBLE_EQ(
        peak(*findGpu("NVIDIA RTX PRO 6000 Blackwell Workstation Edition"), resource::BF16Tensor), 503.8e12);
    EXPECT_DOUBLE_EQ(peak(*findGpu("NVIDIA RTX 6000 Ada Generation"), resource::BF16Tensor), 364e12);
}

TEST(GpuCatalogue, ResourcesAGpuLacksAreAbsent)
{
    for (const char* a100 :
        { "NVIDIA A100-SXM4-40GB", "NVIDIA A100-SXM4-80GB", "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe" })
        EXPECT_FALSE(has(*findGpu(a100), resource::FP8Tensor)) << a100;
    for (const char* noNvlink :
        { "NVIDIA L4", "NVIDIA L40S", "NVIDIA A10", "NVIDIA GeForce RTX 4090", "Tesla V100-PCIE-32GB" })
        EXPECT_FALSE(has(*findGpu(noNvlink), resource::NVLink)) << noNvlink;
    const auto& v100 = *findGpu("Tesla V100-SXM2-32GB");
    for (const char* volta :
        { resource::TF32Tensor, resource::BF16Tensor, resource::FP8Tensor, resource::INT8Tensor, resource::FP64Tensor })
        EXPECT_FALSE(has(v100, volta)) << volta;
    // FP64 tensor cores exist on GA100, GH100 and Blackwell data-centre parts only.
    for (const char* noFp64Tensor : { "NVIDIA L40S", "NVIDIA L4", "NVIDIA A10", "NVIDIA GeForce RTX 3090", "NVIDIA A40",
             "NVIDIA A10G", "Tesla T4", "NVIDIA GeForce RTX 4060 Laptop GPU", "NVIDIA GeForce RTX 5090" })
        EXPECT_FALSE(has(*findGpu(noFp64Tensor), resource::FP64Tensor)) << noFp64Tensor;
    // Turing has FP16 and INT8 tensor math only; Ampere no FP8.
    for (const char* turing : { "Tesla T4", "NVIDIA GeForce RTX 2080 Ti", "NVIDIA GeForce RTX 2070" }) {
        for (const char* lacks : { resource::TF32Tensor, resource::BF16Tensor, resource::FP8Tensor })
            EXPECT_FALSE(has(*findGpu(turing), lacks)) << turing << " " << lacks;
    }
    for (const char* ampere : { "NVIDIA A40", "NVIDIA A10G", "NVIDIA A30", "NVIDIA GeForce RTX 3060" })
        EXPECT_FALSE(has(*findGpu(ampere), resource::FP8Tensor)) << ampere;
    // A superchip's GPU reaches its host by NVLink-C2C, not PCIe.
    EXPECT_FALSE(has(*findGpu("NVIDIA GB200"), resource::PCIe));
    EXPECT_FALSE(has(*findGpu("NVIDIA GeForce RTX 4060 Laptop GPU"), resource::NVLink));
}

TEST(GpuCatalogue, EveryEntryIsCompleteAndDense)
{
    std::set<std::string> known;
    for (const auto& group : { std::vector<const char*>(resource::Compute.begin(), resource::Compute.end()),
             std::vector<const char*>(resource::Memory.begin(), resource::Memory.end()),
             std::vector<const char*>(resource::Links.begin(), resource::Links.end()) })
        known.insert(group.begin(), group.end());

    std::set<std::string> names;
    ASSERT_GE(gpuCatalogue().size(), 40u);
    for (const auto& spec : gpuCatalogue()) {
        SCOPED_TRACE(spec.name);
        EXPECT_TRUE(names.insert(spec.name).second) << "duplicate name";
        EXPECT_FALSE(spec.source.empty());
        EXPECT_FALSE(spec.matches.empty());
        EXPECT_GT(spec.smCount, 0);
        EXPECT_GT(spec.ccMajor, 0);
        // 0: NVIDIA publishes no clock (H20, GB200); else a GPU clock.
        EXPECT_TRUE(spec.boostClockHz == 0 || (spec.boostClockHz > 0.5e9 && spec.boostClockHz < 3.5e9));
        for (const auto& match : spec.matches)
            EXPECT_EQ(normalizedGpuName(match), match) << "matches must be written normalised";
        for (const auto& [r, value] : spec.peaks) {
            EXPECT_TRUE(known.count(ridgeline::core::toString(r))) << ridgeline::core::toString(r);
            EXPECT_GT(value, 0) << ridgeline::core::toString(r);
        }
        for (const char* needed : { resource::FP64, resource::FP32, resource::FP16Tensor, resource::DRAM })
            EXPECT_GT(peak(spec, needed), 0) << needed;
        EXPECT_TRUE(has(spec, resource::NVLink) || has(spec, resource::PCIe)) << "no link";

        // Dense figures: FP16 and BF16 tensor run at the same rate on every part that has both;
        // TF32 at half of them, FP8 (where present) at twice (datasheets round: L40S 733 / 362.05).
        const double fp16 = peak(spec, resource::FP16Tensor);
        if (has(spec, resource::BF16Tensor)) {
            EXPECT_DOUBLE_EQ(peak(spec, resource::BF16Tensor), fp16);
        }
        if (has(spec, resource::TF32Tensor)) {
            EXPECT_NEAR(peak(spec, resource::TF32Tensor) / fp16, 0.5, 0.02);
        }
        if (has(spec, resource::FP8Tensor)) {
            EXPECT_NEAR(peak(spec, resource::FP8Tensor) / fp16, 2.0, 0.03);
        }

        // The FP32 peak agrees with SMs x 128 lanes (64 before Hopper and Ampere GA10x) x 2 x boost.
        const int lanes = (spec.ccMajor == 7 || (spec.ccMajor == 8 && spec.ccMinor == 0)) ? 64 : 128;
        const double fp32FromClock = spec.smCount * lanes * 2.0 * spec.boostClockHz;
        if (spec.boostClockHz > 0) {
            EXPECT_NEAR(peak(spec, resource::FP32) / fp32FromClock, 1.0, 0.03);
        }
    }
}

TEST(GpuCatalogue, DatasheetCeilings)
{
    const auto& h100 = *findGpu("NVIDIA H100 80GB HBM3");
    const auto ceilings = datasheetCeilings(h100, 7);
    ASSERT_EQ(ceilings.size(), h100.peaks.size());
    EXPECT_EQ(ceilings.front().resource, resource::FP64) << "ordered as core::resource::Compute, Memory, Links";
    EXPECT_EQ(ceilings.back().resource, resource::PCIe);
    for (const auto& ceiling : ceilings) {
        SCOPED_TRACE(ceiling.resource);
        EXPECT_EQ(ceiling.deviceId, 7);
        EXPECT_EQ(ceiling.source, ridgeline::core::CeilingSource::Datasheet);
        EXPECT_EQ(ceiling.note, h100.source);
        EXPECT_DOUBLE_EQ(ceiling.value, h100.peaks.at(ridgeline::core::resourceFromString(ceiling.resource).value()));
    }
    const auto unitOf = [&](const char* name) {
        const auto it = std::find_if(
            ceilings.begin(), ceilings.end(), [name](const auto& ceiling) { return ceiling.resource == name; });
        return it == ceilings.end() ? std::string() : it->unit;
    };
    EXPECT_EQ(unitOf(resource::FP32), "FLOP/s");
    EXPECT_EQ(unitOf(resource::FP8Tensor), "FLOP/s");
    EXPECT_EQ(unitOf(resource::INT8Tensor), "op/s");
    EXPECT_EQ(unitOf(resource::DRAM), "B/s");
    EXPECT_EQ(unitOf(resource::NVLink), "B/s");

    const auto l4 = datasheetCeilings(*findGpu("NVIDIA L4"), 0);
    EXPECT_TRUE(std::none_of(l4.begin(), l4.end(), [](const auto& c) { return c.resource == resource::NVLink; }));
}

// Names as users type them and files spell them (issue: naming a GPU).
TEST(GpuResolution, LooseNamesAndFallbacks)
{
    using ridgeline::collectors::resolveGpu;
    auto exact = resolveGpu("NVIDIA A100-SXM4-80GB");
    ASSERT_NE(exact.spec, nullptr);
    EXPECT_EQ(exact.spec->name, "NVIDIA A100 SXM4 80GB");
    EXPECT_TRUE(exact.note.empty());
    auto pcie = resolveGpu("A100-PCIE-40GB");
    ASSERT_NE(pcie.spec, nullptr);
    EXPECT_EQ(pcie.spec->name, "NVIDIA A100 PCIe 40GB");
    // Not in the catalogue: the model word picks A100, the first such entry, with a warning.
    auto board = resolveGpu("NVIDIA A100-PG509-200");
    ASSERT_NE(board.spec, nullptr);
    EXPECT_EQ(board.spec->ccMajor, 8);
    EXPECT_EQ(board.spec->smCount, 108);
    EXPECT_NE(board.note.find("treated as NVIDIA A100"), std::string::npos) << board.note;
    EXPECT_NE(board.note.find("CC 8.0, 108 SMs"), std::string::npos) << board.note;
    EXPECT_NE(board.note.find("the first of 4 catalogue entries it fits"), std::string::npos) << board.note;
    // A name that fits no entry is not matched by CC and SM count: they say nothing of its name.
    EXPECT_EQ(resolveGpu("Mystery Accelerator", 8, 0, 108).spec, nullptr);
    EXPECT_EQ(resolveGpu("Mystery Accelerator").spec, nullptr);
    // Narrowed by the name's other words: "80gb" and no "pcie" leave the SXM4 80GB.
    EXPECT_EQ(nameOf(resolveGpu("NVIDIA A100 80GB").spec), "NVIDIA A100 SXM4 80GB");
    EXPECT_EQ(nameOf(resolveGpu("NVIDIA A100-PCIE-80GB-LC").spec), "NVIDIA A100 PCIe 80GB");
    EXPECT_EQ(nameOf(resolveGpu("A100-PCIE").spec), "NVIDIA A100 PCIe 40GB") << "the first PCIe entry";
}

// A file that names no GPU (Nsight Compute CSV without device__attribute_display_name): its CC
// and SM count pick the entry when exactly one has both, and the note says so.
TEST(GpuResolution, ComputeCapabilityAndSmCountOnlyWithoutAName)
{
    const auto a10g = resolveGpu("", 8, 6, 80);
    ASSERT_NE(a10g.spec, nullptr);
    EXPECT_EQ(a10g.spec->name, "NVIDIA A10G");
    EXPECT_NE(a10g.note.find("no GPU name in the file; CC 8.6 with 80 SMs matched \"NVIDIA A10G\""), std::string::npos)
        << a10g.note;
    EXPECT_EQ(nameOf(resolveGpu("", 7, 5, 68).spec), "NVIDIA GeForce RTX 2080 Ti");
    EXPECT_EQ(nameOf(resolveGpu("", 8, 6, 84).spec), "<none>") << "A40 and RTX A6000: 8.6, 84 SMs both";
    EXPECT_EQ(nameOf(resolveGpu("", 8, 0, 108).spec), "<none>") << "four A100 entries";
    EXPECT_EQ(nameOf(resolveGpu("", 8, 9, 24).spec), "<none>") << "RTX 4060 and its laptop part";
    EXPECT_EQ(nameOf(resolveGpu("", 8, 6, 0).spec), "<none>") << "both are needed";
    EXPECT_EQ(nameOf(resolveGpu("", 0, 0, 80).spec), "<none>") << "both are needed";
    EXPECT_EQ(gpusWithComputeCapability(8, 6, 84).size(), 2u);
    EXPECT_TRUE(resolveGpu("", 8, 6, 80).spec == findGpu("NVIDIA A10G"));
}

// The GPUs of real files in ../shared/data and of the traces our users send: each resolves to its
// entry with the CC and SM count its file reports. The RTX 4060 Laptop GPU is that of
// tests/data/ncu/nersc-gpp/*.ncu-rep (device__attribute_display_name, CC 8.9, 24 SMs); the others
// are as CUDA names them (torch.cuda.get_device_properties: 'NVIDIA A10G' 8.6 80 SMs, 'NVIDIA H20'
// 9.0 78 SMs), and as the kineto and nsys files in tests/data spell them.
TEST(GpuResolution, DeviceNamesOfRealFiles)
{
    struct Case {
        const char* name;
        int ccMajor, ccMinor, smCount;
        const char* expected;
        bool exact;
    };
    const std::vector<Case> cases {
        { "NVIDIA GeForce RTX 4060 Laptop GPU", 8, 9, 24, "NVIDIA GeForce RTX 4060 Laptop GPU", true },
        { "NVIDIA A10G", 8, 6, 80, "NVIDIA A10G", true },
        { "NVIDIA A40", 8, 6, 84, "NVIDIA A40", true },
        { "NVIDIA GeForce RTX 2080 Ti", 7, 5, 68, "NVIDIA GeForce RTX 2080 Ti", true },
        { "NVIDIA H20", 9, 0, 78, "NVIDIA H20", true },
        { "NVIDIA H100 80GB HBM3", 9, 0, 132, "NVIDIA H100 SXM5 80GB", true },
        { "Tesla V100-SXM2-32GB", 7, 0, 80, "NVIDIA V100 SXM2", true },
        { "A100-PCIE-40GB", 8, 0, 108, "NVIDIA A100 PCIe 40GB", true },
        // HTA's kineto traces: an A100 board name, matched loosely (and said so).
        { "NVIDIA A100-PG509-200", 8, 0, 108, "NVIDIA A100 SXM4 40GB", false },
    };
    for (const auto& c : cases) {
        const auto found = resolveGpu(c.name, c.ccMajor, c.ccMinor, c.smCount);
        EXPECT_EQ(nameOf(found.spec), c.expected) << c.name;
        EXPECT_EQ(found.note.empty(), c.exact) << c.name << ": " << found.note;
    }
    // nsys con_kernel.sqlite: a Pascal laptop GPU, not in the catalogue (Volta and later).
    EXPECT_EQ(resolveGpu("GeForce GTX 1060 with Max-Q Design", 6, 1, 10).spec, nullptr);
    // A MIG slice of a catalogued GPU has its SM count: no entry.
    EXPECT_EQ(resolveGpu("NVIDIA H100 80GB HBM3 MIG 1g.10gb", 9, 0, 16).spec, nullptr);
    EXPECT_EQ(resolveGpu("NVIDIA H100 80GB HBM3", 9, 0, 16).spec, nullptr);
}

// "A10" vs "A10G" vs "A100", "L4" vs "L40" vs "L40S", a laptop part vs its desktop namesake: a
// name never selects another product. Only the family names "a100", "h100", "h800", "v100" are
// spellings of several entries: the SM count tells the H100s apart, the clock the V100s (so a
// bare "Tesla V100" stays unmatched), nothing the four A100s (a bare "A100" is resolved loosely).
TEST(GpuCatalogue, NamesDoNotOverlap)
{
    const std::vector<std::pair<const char*, const char*>> distinct {
        { "NVIDIA A10", "NVIDIA A10" },
        { "NVIDIA A10G", "NVIDIA A10G" },
        { "NVIDIA L4", "NVIDIA L4" },
        { "NVIDIA L40", "NVIDIA L40" },
        { "NVIDIA L40S", "NVIDIA L40S" },
        { "NVIDIA GeForce RTX 4060", "NVIDIA GeForce RTX 4060" },
        { "NVIDIA GeForce RTX 4060 Laptop GPU", "NVIDIA GeForce RTX 4060 Laptop GPU" },
        { "NVIDIA GeForce RTX 2080", "NVIDIA GeForce RTX 2080" },
        { "NVIDIA GeForce RTX 2080 Ti", "NVIDIA GeForce RTX 2080 Ti" },
        { "NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX 6000 Ada Generation" },
        { "NVIDIA H200", "NVIDIA H200 SXM 141GB" },
        { "NVIDIA H20", "NVIDIA H20" },
        { "NVIDIA GB200", "NVIDIA GB200" },
        { "NVIDIA B200", "NVIDIA B200" },
    };
    for (const auto& [name, expected] : distinct) {
        EXPECT_EQ(matchingGpus(name).size(), 1u) << name;
        EXPECT_EQ(nameOf(resolveGpu(name).spec), expected) << name;
        EXPECT_TRUE(resolveGpu(name).note.empty()) << name;
    }
    EXPECT_EQ(findGpu("NVIDIA A10", 8, 6, 80), nullptr) << "an A10 with the A10G's SM count is neither";

    std::map<std::string, std::vector<const GpuSpec*>> bySpelling;
    for (const auto& spec : gpuCatalogue()) {
        for (const auto& spelling : spec.matches)
            bySpelling[spelling].push_back(&spec);
        // Each entry is among those each of its spellings finds with its own CC and SM count.
        for (const auto& spelling : spec.matches) {
            const auto found = matchingGpus(spelling, spec.ccMajor, spec.ccMinor, spec.smCount);
            EXPECT_NE(std::find(found.begin(), found.end(), &spec), found.end()) << spelling;
        }
    }
    const std::set<std::string> families { "a100", "h100", "h800", "v100" };
    for (const auto& [spelling, specs] : bySpelling) {
        if (specs.size() == 1)
            continue;
        EXPECT_TRUE(families.contains(spelling)) << spelling << " names " << specs.size() << " entries";
        std::set<std::pair<int, double>> told;
        for (const auto* spec : specs)
            told.emplace(spec->smCount, spec->boostClockHz);
        if (spelling != "a100") {
            EXPECT_EQ(told.size(), specs.size()) << spelling << ": SM count and clock must tell them apart";
        }
    }
}
