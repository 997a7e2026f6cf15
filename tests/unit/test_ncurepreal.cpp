// SPDX-License-Identifier: MIT
// Real .ncu-rep reports of other Nsight Compute versions than nersc-gpp's 2024.2.1 (issue 35),
// origins and licences in tests/data/README.md:
// - sglang-h800/profile-nosource.ncu-rep: ncu 2023.3.0, NVIDIA H800; its string table arrives in
//   four blocks, three of them after the first result, which names their strings (967 + 1 + 1 + 1);
// - esmm-a10g/profile.ncu-rep: ncu 2023.1.1, NVIDIA A10G;
// - extrap-a100/ex-gpu.s100.ncu-rep: ncu 2020.3.1, A100-PCIE-40GB.
// Every expected number below was read off the files with tests/data/ncu/ncurep_facts.py, a
// standalone protobuf wire decoder (no Ridgeline code): the "Nsight Compute Target" version; per
// result the mangled name, grid x,
// gpu__time_duration.sum and ncu's two Speed-of-Light inputs; the expected class is ncu's SOL
// rule applied here to those inputs, and the launches and time per kernel are summed here.
#include "ncu/ncurepinternal.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace ncurepreal {

// One result as the decoder prints it. No duration and no SOL: the result holds NaN for them
// (ncu could not profile the launch), which the import leaves out.
struct Result {
    std::string mangledStart; // the start of ProfileResult field 5
    std::uint32_t gridX = 0; // 0: no grid (field 10 all zero)
    std::optional<double> ns;
    std::optional<double> solSm; // sm__throughput.avg.pct_of_peak_sustained_elapsed, %
    std::optional<double> solMemory; // gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed, %
};

struct Report {
    std::string path;
    std::string ncuVersion; // "Nsight Compute Target" of the session details
    std::string device; // device__attribute_display_name
    int ccMajor = 0;
    int ccMinor = 0;
    int sms = 0; // device__attribute_multiprocessor_count
    std::vector<Result> results;
};

// gtest names a failing case by its file.
void PrintTo(const Report& report, std::ostream* os)
{
    *os << report.path;
}

// ncu's SOLBottleneck rule on the two inputs (docs/ROOFLINE.md): compute when SM >= 60 % and
// SM >= memory, memory when memory >= 60 %, else latency.
core::VerdictClass solClass(const Result& r)
{
    if (!r.solSm || !r.solMemory)
        return core::VerdictClass::Unknown;
    if (*r.solSm >= 60 && *r.solSm >= *r.solMemory)
        return core::VerdictClass::ComputeBound;
    return *r.solMemory >= 60 ? core::VerdictClass::MemoryBound : core::VerdictClass::LatencyBound;
}

const std::string kDistribution = "_ZN2at6native54_GLOBAL__N__d8ceb000_21_DistributionNormal_cu_0c5b6e854";

const Report kH800 { "ncu/sglang-h800/profile-nosource.ncu-rep", "2023.3.0.0 (build 33266684) (public-release)",
    "NVIDIA H800", 9, 0, 132,
    {
        { kDistribution, 1056, 16448, 61.92466129622849, 12.683451055936073 },
        { kDistribution, 8, 3232, 0.7713851704167852, 9.888124316441852 },
        { kDistribution, 1056, 33504, 69.82315091994518, 18.83308781258982 },
        { kDistribution, 1056, 33952, 69.83708114255764, 18.667375950742485 },
        { "_Z16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128ELi64ELi4ELb", 0, {}, {}, {} },
    } };

const Report kA10G { "ncu/esmm-a10g/profile.ncu-rep", "2023.1.1.0 (build 32678585) (public-release)", "NVIDIA A10G", 8,
    6, 80,
    {
        { "_Z5basiciiiPKfS0_Pf", 32, 10783168, 11.816918459241359, 97.49219998282925 },
        { "_Z13gmem_coalesceILi32EEviiiPKfS1_Pf", 32, 1397120, 91.43619403041932, 91.43619403041932 },
        { "_Z13smem_blockingILi32EEviiiPKfS1_Pf", 32, 1006528, 87.11747912398822, 87.11747912398822 },
        { "_Z15one_blocktilingILi64ELi64ELi8ELi8EEviiiPKfS1_Pf", 16, 429792, 64.74939964723708, 64.74939964723708 },
        { "_Z15two_blocktilingILi128ELi128ELi8ELi8ELi8EEviiiPKfS1_Pf", 8, 295264, 33.39683364997179,
            44.49936598943066 },
        { "_Z9one_d_vecILi64ELi64ELi8ELi8ELi1EEviiiPfS0_S0_", 0, {}, {}, {} },
    } };

// ncu 2020.3 collected no Speed-of-Light throughputs in this run.
const Report kA100 { "ncu/extrap-a100/ex-gpu.s100.ncu-rep", "2020.3.1.0 (build 29471205) (public-release)",
    "A100-PCIE-40GB", 8, 0, 108,
    {
        { "_Z10init_arrayPdm", 1, 4672, {}, {} },
        { "_Z10init_arrayPdm", 1, 4704, {}, {} },
        { "_Z10vector_addPKdS0_mPd", 1, 11296, {}, {} },
        { "_Z11vector_add1PKdS0_mPd", 1, 11168, {}, {} },
        { "_Z10vector_mulPKdS0_mPd", 1, 11008, {}, {} },
        { "_Z10vector_dotPKdS0_mPd", 1, 11488, {}, {} },
    } };

class NcuRepReal : public ::testing::TestWithParam<Report> { };

TEST_P(NcuRepReal, ResultsDurationsDevicesAndClasses)
{
    const Report& expected = GetParam();
    TempDir dir;
    const auto session = dir.file("real.ridge");
    auto summary = collectors::importNcuRep({ testDataPath(expected.path) }, session, false);
    ASSERT_TRUE(summary.ok()) << summary.error().message;
    EXPECT_EQ(summary.value().kernels, static_cast<std::int64_t>(expected.results.size()));
    auto reader = core::SessionReader::open(session);
    ASSERT_TRUE(reader.ok());
    const auto kernels = reader.value().kernels().value();
    ASSERT_EQ(kernels.size(), expected.results.size());
    std::map<std::int64_t, std::string> names;
    for (const auto& n : reader.value().kernelNames().value())
        names[n.id] = n.raw;
    std::map<std::int64_t, core::KernelAnalysis> analyses;
    ASSERT_TRUE(core::analyzeSession(reader.value(), [&](const core::Kernel& k, const core::KernelAnalysis& a) {
        analyses[k.id] = a;
    }).ok());

    // Launches and time per kernel, as ncu's results give them.
    std::map<std::string, std::pair<int, std::int64_t>> expectedPerKernel, importedPerKernel;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        SCOPED_TRACE(i);
        const auto& r = expected.results[i];
        const auto& k = kernels[i];
        EXPECT_EQ(names.at(k.nameId).rfind(r.mangledStart, 0), 0U) << names.at(k.nameId);
        // A grid of zeros (a launch ncu could not profile) is left unset: 1 x 1 x 1.
        EXPECT_EQ(k.grid.x, r.gridX == 0 ? 1U : r.gridX);
        const std::int64_t ns = r.ns ? std::llround(*r.ns) : 0; // no duration: 0 ns, never made up
        EXPECT_EQ(k.endNs - k.startNs, ns);
        auto& e = expectedPerKernel[r.mangledStart];
        ++e.first;
        e.second += ns;
        auto& got = importedPerKernel[names.at(k.nameId).substr(0, r.mangledStart.size())];
        ++got.first;
        got.second += k.endNs - k.startNs;
        if (r.solSm || !r.ns) {
            EXPECT_EQ(analyses.at(k.id).verdict, solClass(r)) << analyses.at(k.id).reason;
        }
    }
    EXPECT_EQ(importedPerKernel, expectedPerKernel);

    // The version that made the report, in the session's meta and origin.
    const auto meta = reader.value().meta().value();
    EXPECT_EQ(meta.at("ncu_version"), expected.ncuVersion);
    EXPECT_EQ(meta.at("ncu_report_format"), "7");
    const std::string shortVersion = expected.ncuVersion.substr(0, expected.ncuVersion.find(' '));
    EXPECT_NE(meta.at("origin").find("Nsight Compute " + shortVersion + " report, format version 7"), std::string::npos)
        << meta.at("origin");

    const auto devices = reader.value().devices().value();
    ASSERT_EQ(devices.size(), 1U);
    EXPECT_EQ(devices[0].name, expected.device);
    EXPECT_EQ(devices[0].ccMajor, expected.ccMajor);
    EXPECT_EQ(devices[0].ccMinor, expected.ccMinor);
    EXPECT_EQ(devices[0].smCount, expected.sms);
}

std::string versionName(const ::testing::TestParamInfo<Report>& param)
{
    return param.index == 0 ? std::string("Ncu2023_3_H800")
        : param.index == 1  ? std::string("Ncu2023_1_A10G")
                            : std::string("Ncu2020_3_A100");
}

INSTANTIATE_TEST_SUITE_P(Versions, NcuRepReal, ::testing::Values(kH800, kA10G, kA100), versionName);

// Cut anywhere, the H800 report (names after its results) gives one sentence, never a crash.
TEST(NcuRepReal, TheH800ReportCutAnywhereIsOneError)
{
    const auto bytes = ridgeline::testing::readBytes(testDataPath(kH800.path));
    for (std::size_t parts = 1; parts < 16; ++parts) {
        const std::size_t size = bytes.size() * parts / 16;
        SCOPED_TRACE(size);
        collectors::ncu::ParsedProfile profile;
        auto parsed = collectors::ncu::parseReport(bytes.substr(0, size), "cut.ncu-rep", profile);
        ASSERT_FALSE(parsed.ok());
        EXPECT_EQ(parsed.error().code, core::ErrorCode::BadFile);
        EXPECT_EQ(parsed.error().message.find('\n'), std::string::npos);
        EXPECT_EQ(parsed.error().message.rfind("cut.ncu-rep: ", 0), 0U) << parsed.error().message;
    }
}

} // namespace ncurepreal
