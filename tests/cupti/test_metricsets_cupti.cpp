// SPDX-License-Identifier: MIT
// The metric sets (collectors/.../metricsets.h) against the CUPTI Profiler Host API, which knows
// every chip's metrics without a GPU. Only host calls: no device API (cuptiDeviceGetChipName
// crashes without a GPU), no libcuda. Also measures the replay passes each set needs and keeps
// the table in docs/METRIC-SETS.md true.
#include "hostobject.h"
#include "ridgeline/collectors/metrics/metricsets.h"
#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

using namespace ridgeline::collectors;

namespace {

std::string resultText(CUptiResult result)
{
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
        return "CUPTI error " + std::to_string(result);
    return text;
}

std::vector<std::string> cuptiSupportedChips()
{
    CUpti_Profiler_Host_GetSupportedChips_Params params {};
    params.structSize = CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE;
    const CUptiResult result = cuptiProfilerHostGetSupportedChips(&params);
    EXPECT_EQ(result, CUPTI_SUCCESS) << resultText(result);
    std::vector<std::string> chips;
    for (size_t i = 0; result == CUPTI_SUCCESS && i < params.numChips; ++i)
        chips.emplace_back(params.ppChipNames[i]);
    return chips;
}

CUptiResult addOne(const std::string& chip, const std::string& metric)
{
    HostObject host(chip);
    if (host.initResult() != CUPTI_SUCCESS)
        return host.initResult();
    return host.addMetrics({ metric });
}

// Passes of each config group of a set (empty on failure, with the failure in `error`).
std::vector<size_t> groupPasses(const MetricSet& set, std::string& error)
{
    std::vector<size_t> passes;
    for (const auto& group : configGroups(set)) {
        HostObject host(set.chip);
        CUptiResult result = host.initResult();
        if (result == CUPTI_SUCCESS)
            result = host.addMetrics(group);
        size_t n = 0;
        if (result == CUPTI_SUCCESS)
            result = host.passes(n);
        if (result != CUPTI_SUCCESS) {
            error = set.chip + " " + set.name + ": a config image of its " + std::to_string(group.size())
                + " metrics starting with " + group.front() + " failed: " + resultText(result);
            return {};
        }
        passes.push_back(n);
    }
    return passes;
}

std::string cudaVersionText()
{
    uint32_t version = 0;
    if (cuptiGetVersion(&version) != CUPTI_SUCCESS)
        return "unknown CUDA version";
    // From CUDA 13.0 the CUPTI API version is xxyyzz: CUDA xx.yy, CUPTI update zz.
    return "CUDA " + std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + ", CUPTI API "
        + std::to_string(version);
}

std::string passesCell(const std::vector<size_t>& passes)
{
    size_t total = 0;
    for (const auto n : passes)
        total += n;
    std::string cell = std::to_string(total);
    if (passes.size() > 1)
        cell += " (" + std::to_string(passes[0]) + " + " + std::to_string(passes[1]) + ")";
    return cell;
}

constexpr std::string_view BeginMarker
    = "<!-- BEGIN passes table: written by tests/cupti/test_metricsets_cupti.cpp -->";
constexpr std::string_view EndMarker = "<!-- END passes table -->";

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The first line of the table block names the CUDA version it was measured with.
std::string firstLine(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

} // namespace

// Plain data, no CUPTI: the shape of the sets.
TEST(MetricSets, SetsAreWellFormed)
{
    EXPECT_FALSE(metricSet("GH100", "bogus"));
    EXPECT_FALSE(metricSet("XX999", RooflineSet));
    EXPECT_EQ(setNames(), (std::vector<std::string> { "roofline", "full" }));

    using namespace ridgeline::core::metric;
    std::set<std::string> knownTensorSources;
    const auto know = [&knownTensorSources](std::span<const std::string_view> sources) {
        knownTensorSources.insert(sources.begin(), sources.end());
    };
    know(TensorSrcFp64);
    know(TensorSrcTf32);
    know(TensorSrcFp16);
    know(TensorSrcBf16);
    know(TensorSrcFp8);
    know(TensorSrcInt8);

    for (const auto& chip : chipNames()) {
        const auto roofline = metricSet(chip, RooflineSet);
        const auto full = metricSet(chip, FullSet);
        ASSERT_TRUE(roofline && full) << chip;
        EXPECT_FALSE(roofline->family.empty()) << chip;
        const std::set<std::string> rooflineNames(roofline->metrics.begin(), roofline->metrics.end());
        const std::set<std::string> fullNames(full->metrics.begin(), full->metrics.end());
        EXPECT_EQ(rooflineNames.size(), roofline->metrics.size()) << chip << ": duplicate in roofline";
        EXPECT_EQ(fullNames.size(), full->metrics.size()) << chip << ": duplicate in full";
        for (const auto& name : roofline->metrics)
            EXPECT_TRUE(fullNames.count(name)) << chip << ": " << name << " is in roofline but not in full";
        for (const auto& missing : roofline->unavailable) {
            EXPECT_FALSE(fullNames.count(missing.metric)) << chip << ": " << missing.metric << " both in and missing";
            EXPECT_FALSE(missing.reason.empty()) << chip << ": " << missing.metric;
        }
        // Every tensor source type the roofline set collects is one the analysis maps to a resource.
        for (const auto& name : roofline->metrics) {
            if (!name.starts_with(TensorOpsPrefix) || name.ends_with(".peak_sustained"))
                continue;
            const auto source
                = name.substr(TensorOpsPrefix.size(), name.size() - TensorOpsPrefix.size() - TensorOpsSuffix.size());
            EXPECT_TRUE(knownTensorSources.count(source)) << chip << ": " << name << " is in no metricnames.h list";
        }
        // System units last, so that configGroups keeps the set's order.
        const auto groups = configGroups(*full);
        ASSERT_FALSE(groups.empty());
        std::vector<std::string> joined;
        for (const auto& group : groups)
            joined.insert(joined.end(), group.begin(), group.end());
        EXPECT_EQ(joined, full->metrics) << chip;
    }
}

TEST(MetricSetsCupti, EverySupportedChipHasASetOrAReason)
{
    const auto supported = cuptiSupportedChips();
    ASSERT_FALSE(supported.empty());
    const auto withSets = chipNames();
    for (const auto& chip : supported) {
        const bool hasSet = std::find(withSets.begin(), withSets.end(), chip) != withSets.end();
        const auto& unsupported = unsupportedChips();
        const auto it = std::find_if(
            unsupported.begin(), unsupported.end(), [&chip](const UnsupportedChip& u) { return u.chip == chip; });
        EXPECT_TRUE(hasSet || it != unsupported.end())
            << "CUPTI supports " << chip << ": add a metric set for it, or list it in unsupportedChips() with why";
        EXPECT_FALSE(hasSet && it != unsupported.end()) << chip << " has a set and is listed as unsupported";
        if (it != unsupported.end()) {
            EXPECT_FALSE(it->reason.empty()) << chip;
            // The reason must still hold: the host API still refuses the chip.
            HostObject host(chip);
            EXPECT_NE(host.initResult(), CUPTI_SUCCESS)
                << chip << " is listed as unsupported, but cuptiProfilerHostInitialize now accepts it: add a set";
        }
    }
    for (const auto& chip : withSets)
        EXPECT_NE(std::find(supported.begin(), supported.end(), chip), supported.end())
            << chip << " has a metric set but this CUPTI does not list it";
}

// Proves the checks below can fail: CUPTI rejects a name a chip spells differently, an unknown
// name, and a config image that mixes the GPU's counters with a system unit's.
TEST(MetricSetsCupti, HostApiRejectsWhatItShould)
{
    EXPECT_EQ(addOne("GH100", "dram__bytes_read.sum"), CUPTI_SUCCESS);
    EXPECT_NE(addOne("GB202", "dram__bytes_read.sum"), CUPTI_SUCCESS);
    EXPECT_EQ(addOne("GB202", std::string(ridgeline::core::metric::DramBytesOpRead)), CUPTI_SUCCESS);
    EXPECT_NE(addOne("GH100", "no_such_unit__bytes.sum"), CUPTI_SUCCESS);

    EXPECT_EQ(addOne("GH100", "nvlrx__bytes.sum"), CUPTI_SUCCESS);
    HostObject mixed("GH100");
    ASSERT_EQ(mixed.initResult(), CUPTI_SUCCESS);
    EXPECT_EQ(mixed.addMetrics({ "dram__bytes.sum", "nvlrx__bytes.sum" }), CUPTI_ERROR_NOT_SUPPORTED);
}

class MetricSetsCuptiChip : public ::testing::TestWithParam<std::string> { };

// Every metric of both sets, one at a time (to name an invalid one), then each config group all
// together, which must give a config image and a pass count.
TEST_P(MetricSetsCuptiChip, EveryMetricIsValid)
{
    const std::string chip = GetParam();
    ASSERT_EQ(HostObject(chip).initResult(), CUPTI_SUCCESS) << chip;
    for (const auto& setName : setNames()) {
        const auto set = metricSet(chip, setName);
        ASSERT_TRUE(set) << chip << " " << setName;
        for (const auto& metric : set->metrics) {
            const CUptiResult result = addOne(chip, metric);
            EXPECT_EQ(result, CUPTI_SUCCESS)
                << chip << " (" << set->family << ") " << setName << ": " << metric << ": " << resultText(result);
        }
        std::string error;
        const auto passes = groupPasses(*set, error);
        ASSERT_FALSE(passes.empty()) << error;
        std::cout << chip << " " << setName << ": " << set->metrics.size() << " metrics, " << passesCell(passes)
                  << " passes\n";
    }
    // What the sets say the chip lacks, it must really lack.
    const auto roofline = metricSet(chip, RooflineSet);
    for (const auto& missing : roofline->unavailable)
        EXPECT_NE(addOne(chip, missing.metric), CUPTI_SUCCESS)
            << chip << ": " << missing.metric << " is listed as unavailable (" << missing.reason
            << ") but CUPTI accepts it";
}

// Peak figures are constants of the chip: the roofline set with all its .peak_sustained metrics
// needs exactly the passes it needs without them. And every FLOP or byte counter of the set that
// has a roof has its peak there, so that a captured kernel carries its own counter ceilings.
TEST_P(MetricSetsCuptiChip, PeaksCostNoPassAndEveryRoofHasOne)
{
    const std::string chip = GetParam();
    const auto set = metricSet(chip, RooflineSet);
    ASSERT_TRUE(set);
    MetricSet withoutPeaks = *set;
    std::erase_if(withoutPeaks.metrics, [](const std::string& m) { return m.ends_with(".peak_sustained"); });
    ASSERT_LT(withoutPeaks.metrics.size(), set->metrics.size());
    std::string error;
    const auto with = groupPasses(*set, error);
    ASSERT_FALSE(with.empty()) << error;
    const auto without = groupPasses(withoutPeaks, error);
    ASSERT_FALSE(without.empty()) << error;
    EXPECT_EQ(with, without) << chip;

    using namespace ridgeline::core::metric;
    const std::set<std::string> names(set->metrics.begin(), set->metrics.end());
    std::vector<std::string> roofed { std::string(L2Bytes), std::string(L1Bytes) };
    for (const auto& name : set->metrics) {
        if ((name.starts_with(TensorOpsPrefix) && name.ends_with(TensorOpsSuffix)) || name == TensorPipeInst
            || name == DramBytes)
            roofed.push_back(name);
    }
    for (const auto& name : roofed)
        EXPECT_TRUE(names.count(name + ".peak_sustained")) << chip << ": no peak for " << name;
    EXPECT_TRUE(names.count("lts__cycles_elapsed.avg.per_second")) << chip;
    EXPECT_TRUE(names.count("l1tex__cycles_elapsed.avg.per_second")) << chip;
}

INSTANTIATE_TEST_SUITE_P(AllChips, MetricSetsCuptiChip, ::testing::ValuesIn(chipNames()),
    [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

// The pass counts of every set, as a Markdown table: printed, written to the build directory, and
// compared with docs/METRIC-SETS.md when that was measured with this CUDA version. Rewrite the
// doc's table with RIDGELINE_UPDATE_METRIC_SETS_DOC=1.
TEST(MetricSetsCupti, PassCountsTable)
{
    std::ostringstream table;
    table << "Measured with " << cudaVersionText() << ": `cuptiProfilerHostGetNumOfPasses`, range profiler, "
          << "no counter availability image (no GPU).\n\n"
          << "| Chip | Family | roofline metrics | roofline passes | full metrics | full passes |\n"
          << "|---|---|---:|---:|---:|---:|\n";
    for (const auto& chip : chipNames()) {
        const auto roofline = metricSet(chip, RooflineSet);
        const auto full = metricSet(chip, FullSet);
        ASSERT_TRUE(roofline && full);
        std::string error;
        const auto rooflinePasses = groupPasses(*roofline, error);
        ASSERT_FALSE(rooflinePasses.empty()) << error;
        const auto fullPasses = groupPasses(*full, error);
        ASSERT_FALSE(fullPasses.empty()) << error;
        table << "| " << chip << " | " << roofline->family << " | " << roofline->metrics.size() << " | "
              << passesCell(rooflinePasses) << " | " << full->metrics.size() << " | " << passesCell(fullPasses)
              << " |\n";
    }
    const std::string generated = table.str();
    std::cout << generated;
    std::ofstream(RIDGELINE_METRIC_SETS_TABLE) << generated;

    const std::string docPath = RIDGELINE_METRIC_SETS_DOC;
    std::string doc = readFile(docPath);
    const auto begin = doc.find(BeginMarker);
    const auto end = doc.find(EndMarker);
    ASSERT_TRUE(begin != std::string::npos && end != std::string::npos && begin < end)
        << docPath << " lacks the table markers";
    const auto blockStart = begin + BeginMarker.size() + 1; // after the marker's newline
    const std::string documented = doc.substr(blockStart, end - blockStart);

    if (std::getenv("RIDGELINE_UPDATE_METRIC_SETS_DOC")) {
        doc.replace(blockStart, end - blockStart, generated);
        std::ofstream(docPath) << doc;
        std::cout << "Rewrote the table in " << docPath << "\n";
        return;
    }
    if (firstLine(documented) != firstLine(generated)) {
        std::cout << docPath << " was measured with another CUDA version (" << firstLine(documented)
                  << "); not compared\n";
        return;
    }
    EXPECT_EQ(documented, generated) << docPath << " is out of date: run this test with "
                                     << "RIDGELINE_UPDATE_METRIC_SETS_DOC=1 (table also in "
                                     << RIDGELINE_METRIC_SETS_TABLE << ")";
}
