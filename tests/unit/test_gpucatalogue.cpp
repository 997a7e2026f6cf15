// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <gtest/gtest.h>
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
    EXPECT_EQ(findGpu("NVIDIA A10G"), nullptr) << "the AWS A10G is a different product";

    EXPECT_EQ(nameOf(findGpu("NVIDIA L4")), "NVIDIA L4");
    EXPECT_EQ(nameOf(findGpu("NVIDIA L40S")), "NVIDIA L40S");
    EXPECT_EQ(findGpu("NVIDIA L4", 8, 9, 142), nullptr);
    EXPECT_EQ(findGpu("NVIDIA L40S", 8, 9, 58), nullptr);
    EXPECT_EQ(findGpu("NVIDIA L40"), nullptr) << "the L40 (not S) is not catalogued";
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
    for (const char* name : { "", "NVIDIA", "NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA GH200 144G HBM3e",
             "NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 3090 Ti", "Tesla V100S-PCIE-32GB", "Tesla T4",
             "AMD Instinct MI300X", "NVIDIA B300 SXM6 AC", "NVIDIA H100 80GB HBM3 MIG 1g.10gb" })
        EXPECT_EQ(findGpu(name), nullptr) << name;
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
    // FP64 tensor cores exist on GA100, GH100 and Blackwell only.
    for (const char* noFp64Tensor : { "NVIDIA L40S", "NVIDIA L4", "NVIDIA A10", "NVIDIA GeForce RTX 3090" })
        EXPECT_FALSE(has(*findGpu(noFp64Tensor), resource::FP64Tensor)) << noFp64Tensor;
}

TEST(GpuCatalogue, EveryEntryIsCompleteAndDense)
{
    std::set<std::string> known;
    for (const auto& group : { std::vector<const char*>(resource::Compute.begin(), resource::Compute.end()),
             std::vector<const char*>(resource::Memory.begin(), resource::Memory.end()),
             std::vector<const char*>(resource::Links.begin(), resource::Links.end()) })
        known.insert(group.begin(), group.end());

    std::set<std::string> names;
    ASSERT_GE(gpuCatalogue().size(), 15u);
    for (const auto& spec : gpuCatalogue()) {
        SCOPED_TRACE(spec.name);
        EXPECT_TRUE(names.insert(spec.name).second) << "duplicate name";
        EXPECT_FALSE(spec.source.empty());
        EXPECT_FALSE(spec.matches.empty());
        EXPECT_GT(spec.smCount, 0);
        EXPECT_GT(spec.ccMajor, 0);
        EXPECT_GT(spec.boostClockHz, 0.5e9);
        EXPECT_LT(spec.boostClockHz, 3.5e9);
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
        EXPECT_NEAR(peak(spec, resource::FP32) / fp32FromClock, 1.0, 0.03);
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
    // No model word at all: compute capability and SM count decide, and say so.
    auto bySpecs = resolveGpu("Mystery Accelerator", 8, 0, 108);
    ASSERT_NE(bySpecs.spec, nullptr);
    EXPECT_EQ(bySpecs.spec->smCount, 108);
    EXPECT_FALSE(bySpecs.note.empty());
    EXPECT_EQ(resolveGpu("Mystery Accelerator").spec, nullptr);
}
