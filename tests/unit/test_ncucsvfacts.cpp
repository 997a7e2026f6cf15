// SPDX-License-Identifier: MIT
// ncu CSVs that do not name their GPU, or give no duration (issue 35), from the real files of
// tests/data/ncu (README there). Where a test needs a fact the real CSVs lack, it DERIVES a file
// from a real one here, line by line, and says how; the expected values are read from the files
// by this test's own CSV splitter, never from the importer.
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace ncucsvfacts {

std::vector<std::string> csvFields(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

std::string csvLine(const std::vector<std::string>& fields)
{
    std::string line;
    for (const auto& f : fields)
        line += (line.empty() ? "\"" : ",\"") + f + "\"";
    return line;
}

std::vector<std::string> linesOf(const std::string& path)
{
    std::istringstream in(ridgeline::testing::readBytes(path));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::string written(const TempDir& dir, const std::string& name, const std::vector<std::string>& lines)
{
    const auto path = dir.file(name);
    std::ofstream out(path, std::ios::binary);
    for (const auto& line : lines)
        out << line << '\n';
    return path;
}

double number(std::string text)
{
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    return std::stod(text);
}

struct Imported {
    collectors::ImportSummary summary;
    std::vector<core::Kernel> kernels;
    std::vector<core::Device> devices;
    std::vector<core::Ceiling> ceilings;
    std::map<std::int64_t, core::KernelAnalysis> analyses;
    std::map<std::int64_t, core::VerdictClass> stored; // the session's verdicts, by kernel id
};

Imported importCsv(const std::string& path, const std::string& session)
{
    Imported out;
    auto summary = collectors::importNcuCsv(path, session, false);
    EXPECT_TRUE(summary.ok()) << (summary.ok() ? "" : summary.error().message);
    if (!summary.ok())
        return out;
    out.summary = summary.value();
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok());
    if (!reader.ok())
        return out;
    out.kernels = reader.value().kernels().value();
    out.devices = reader.value().devices().value();
    out.ceilings = reader.value().ceilings().value();
    for (const auto& v : reader.value().verdicts().value())
        out.stored[v.kernelId] = v.verdict;
    EXPECT_TRUE(core::analyzeSession(reader.value(), [&](const core::Kernel& k, const core::KernelAnalysis& a) {
        out.analyses[k.id] = a;
    }).ok());
    return out;
}

std::string warningWith(const Imported& s, const std::string& words)
{
    for (const auto& w : s.summary.warnings)
        if (w.text.find(words) != std::string::npos)
            return w.text;
    return {};
}

// nersc-gpp/output.csv (details page, RTX 4060 Laptop GPU) gives the CC, 8.9, and no SM count:
// nine catalogue entries have CC 8.9; the warning names them and points to --gpu.
TEST(NcuCsvFacts, ComputeCapabilityAloneNamesTheCandidates)
{
    TempDir dir;
    const auto s = importCsv(testDataPath("ncu/nersc-gpp/output.csv"), dir.file("cc.ridge"));
    const auto warning = warningWith(s, "does not name GPU 0 (CC 8.9)");
    ASSERT_FALSE(warning.empty());
    EXPECT_NE(warning.find("NVIDIA GeForce RTX 4060 Laptop GPU"), std::string::npos) << warning;
    EXPECT_NE(warning.find("without the SM count"), std::string::npos) << warning;
    EXPECT_NE(warning.find("--gpu"), std::string::npos) << warning;
    EXPECT_TRUE(s.ceilings.empty());
}

// DERIVED: nersc-gpp/output.csv with four rows appended to its one launch, in the file's own
// layout (its first row with the metric name, unit and value replaced): the device attributes
// that output0.ncu-rep, a report of the same program on the same laptop, holds (24 SMs, memory
// clock 8,001,000 kHz, 128-bit bus, 8,318,484,480 bytes). They leave one catalogue entry: the RTX
// 4060 Laptop GPU (256 GB/s; the desktop RTX 4060 has 272). Its datasheet ceilings are used; the
// device stays unnamed, so --gpu may still name it.
TEST(NcuCsvFacts, DeviceAttributesIdentifyTheGpu)
{
    TempDir dir;
    auto lines = linesOf(testDataPath("ncu/nersc-gpp/output.csv"));
    const auto header = csvFields(lines.at(0));
    ASSERT_EQ(header.back(), "Metric Value");
    const auto first = csvFields(lines.at(1));
    const std::vector<std::array<std::string, 2>> added { { "device__attribute_multiprocessor_count", "24" },
        { "device__attribute_memory_clock_rate", "8,001,000" }, { "device__attribute_global_memory_bus_width", "128" },
        { "device__attribute_total_memory", "8,318,484,480" } };
    for (const auto& [name, value] : added) {
        auto row = first;
        row[row.size() - 3] = name;
        row[row.size() - 2] = name == "device__attribute_memory_clock_rate" ? "khz" : "";
        row[row.size() - 1] = value;
        lines.push_back(csvLine(row));
    }
    const auto s = importCsv(written(dir, "attributes.csv", lines), dir.file("attributes.ridge"));
    ASSERT_EQ(s.devices.size(), 1U);
    EXPECT_EQ(s.devices[0].name, "unknown GPU");
    EXPECT_EQ(s.devices[0].smCount, 24);
    const auto warning = warningWith(s, "matched \"NVIDIA GeForce RTX 4060 Laptop GPU\"");
    EXPECT_FALSE(warning.empty());
    EXPECT_NE(warning.find("DRAM 256 GB/s"), std::string::npos) << warning;
    EXPECT_TRUE(warningWith(s, "does not name GPU").empty());
    double dram = 0;
    for (const auto& c : s.ceilings)
        if (c.resource == "DRAM" && c.source == core::CeilingSource::Datasheet)
            dram = c.value;
    EXPECT_EQ(dram, 256e9); // 2 x 8,001 MHz x 16 B = 256 GB/s, the entry's datasheet figure
}

// DERIVED: leleucas/dropout-nsight162.csv (A100, details page, 162 launches) without its
// gpu__time_duration.sum, sm__cycles_elapsed.avg and sm__cycles_elapsed.avg.per_second rows, the
// file's only sources of a duration: what is left has ncu's Speed-of-Light throughputs and no time.
// Each launch still gets ncu's class (SOLBottleneck on the file's two throughputs, worked out
// here); its duration stays 0 and nothing is made up for it.
TEST(NcuCsvFacts, SpeedOfLightClassesWithoutDuration)
{
    constexpr const char* kSm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
    constexpr const char* kMemory = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
    const auto solClass = [](double sm, double memory) {
        return sm >= 60 && sm >= memory ? core::VerdictClass::ComputeBound
            : memory >= 60              ? core::VerdictClass::MemoryBound
                                        : core::VerdictClass::LatencyBound;
    };
    TempDir dir;
    const auto all = linesOf(testDataPath("ncu/leleucas/dropout-nsight162.csv"));
    std::vector<std::string> lines;
    std::map<std::string, std::map<std::string, double>> sol; // by ncu ID
    std::vector<std::string> order;
    int dropped = 0;
    for (const auto& line : all) {
        const auto fields = csvFields(line);
        if (fields.size() >= 12 && fields[0] != "ID" && !line.starts_with("==")) {
            const auto& metric = fields[9];
            if (metric == "gpu__time_duration.sum" || metric == "sm__cycles_elapsed.avg"
                || metric == "sm__cycles_elapsed.avg.per_second") {
                ++dropped;
                continue;
            }
            if (std::find(order.begin(), order.end(), fields[0]) == order.end())
                order.push_back(fields[0]);
            if (metric == kSm || metric == kMemory)
                sol[fields[0]][metric] = number(fields[11]);
        }
        lines.push_back(line);
    }
    ASSERT_EQ(order.size(), 162U);
    ASSERT_EQ(dropped, 3 * 162);
    const auto s = importCsv(written(dir, "no-time.csv", lines), dir.file("no-time.ridge"));
    ASSERT_EQ(s.kernels.size(), order.size());
    std::map<core::VerdictClass, int> classes;
    std::map<std::int64_t, std::vector<std::size_t>> byName; // launches of each kernel
    for (std::size_t i = 0; i < order.size(); ++i) {
        SCOPED_TRACE(order[i]);
        const auto& k = s.kernels[i];
        EXPECT_EQ(k.endNs - k.startNs, 0);
        const auto expected = solClass(sol.at(order[i]).at(kSm), sol.at(order[i]).at(kMemory));
        EXPECT_EQ(s.analyses.at(k.id).verdict, expected) << s.analyses.at(k.id).reason;
        EXPECT_EQ(s.stored.at(k.id), expected);
        EXPECT_NE(s.analyses.at(k.id).reason.find("no duration in the file, so no rates"), std::string::npos)
            << s.analyses.at(k.id).reason;
        EXPECT_FALSE(s.analyses.at(k.id).achievedFlopsPerS.has_value());
        ++classes[expected];
        byName[k.nameId].push_back(i);
    }
    // The file's launches are not all of one class (the test could not tell the rule from a constant).
    EXPECT_GE(classes.size(), 2U);
    EXPECT_FALSE(warningWith(s, "their verdicts come from ncu's Speed-of-Light throughputs").empty());
    // The launches of each kernel (here one kernel, launched 162 times, some memory- and some
    // latency-bound) aggregate by the same rule on the plain mean of their throughputs (no time
    // to weight them by).
    ASSERT_FALSE(byName.empty());
    for (const auto& [nameId, launchIndices] : byName) {
        std::vector<core::KernelAnalysis> launches;
        double sm = 0, memory = 0;
        for (auto i : launchIndices) {
            launches.push_back(s.analyses.at(s.kernels[i].id));
            sm += sol.at(order[i]).at(kSm);
            memory += sol.at(order[i]).at(kMemory);
        }
        const double n = static_cast<double>(launchIndices.size());
        const auto aggregate = core::aggregateLaunches(launches);
        ASSERT_TRUE(aggregate.speedOfLight.contains("SM")) << aggregate.reason;
        EXPECT_NEAR(aggregate.speedOfLight.at("SM"), sm / n / 100, 1e-9);
        EXPECT_NEAR(aggregate.speedOfLight.at("Memory"), memory / n / 100, 1e-9);
        EXPECT_EQ(aggregate.verdict, solClass(sm / n, memory / n)) << aggregate.reason;
    }
}

} // namespace ncucsvfacts
