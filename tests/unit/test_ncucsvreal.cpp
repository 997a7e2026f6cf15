// SPDX-License-Identifier: MIT
// Every real Nsight Compute CSV of tests/data/ncu/{leleucas,nersc-gpp} (README there: A100 and
// RTX 4060 files from public projects) imported, and checked launch by launch against what the
// test's own reader finds in the file: a plain RFC 4180 splitter and zlib, written here, that
// shares nothing with the importer. Kernel count, names, per-launch time, FP32/FP64 FLOPs and
// DRAM/L2/L1 bytes of every launch.
#include "gunzip.h"
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

// One launch as the file states it.
struct FileLaunch {
    std::string name;
    std::map<std::string, std::pair<std::string, std::string>> metrics; // name -> (unit, value text)
};

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

// The launches of a details-page or raw-page file, by ncu ID, in file order.
std::vector<FileLaunch> readLaunches(const std::string& path)
{
    std::string text
        = path.ends_with(".gz") ? ridgeline::testing::gunzipFile(path) : ridgeline::testing::readBytes(path);
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    std::map<std::string, std::size_t> column;
    std::vector<FileLaunch> launches;
    std::map<std::string, std::size_t> byId;
    bool units = false;
    std::vector<std::string> unitRow;
    while (std::getline(in, line)) {
        if (line.empty() || line.starts_with("==") || line == "\r")
            continue;
        auto fields = splitCsvLine(line);
        if (header.empty()) {
            if (fields[0] != "ID")
                continue; // the program's own output before the CSV
            header = fields;
            for (std::size_t i = 0; i < header.size(); ++i)
                column.emplace(header[i], i);
            units = !column.contains("Metric Name"); // a raw page: one unit row after the header
            continue;
        }
        if (units) {
            units = false;
            unitRow = fields;
            continue;
        }
        const std::string id = fields[0];
        auto [it, fresh] = byId.emplace(id, launches.size());
        if (fresh)
            launches.push_back({ fields[column.at("Kernel Name")], {} });
        auto& launch = launches[it->second];
        if (column.contains("Metric Name")) {
            const auto at = [&](const char* name) {
                const auto i = column.at(name);
                return i < fields.size() ? fields[i] : std::string();
            };
            launch.metrics[at("Metric Name")] = { at("Metric Unit"), at("Metric Value") };
        } else {
            // A raw page: one column per metric, its unit in the row after the header.
            for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i)
                launch.metrics[header[i]] = { i < unitRow.size() ? unitRow[i] : "", fields[i] };
        }
    }
    return launches;
}

std::optional<double> number(std::string text)
{
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    if (text.empty() || text == "n/a")
        return std::nullopt;
    return std::stod(text);
}

double scaled(const std::string& unit, double value)
{
    static const std::map<std::string, double> factor { { "nsecond", 1 }, { "usecond", 1e3 }, { "msecond", 1e6 },
        { "second", 1e9 }, { "byte", 1 }, { "Kbyte", 1e3 }, { "Mbyte", 1e6 }, { "Gbyte", 1e9 }, { "inst", 1 },
        { "", 1 }, { "cycle", 1 }, { "cycle/second", 1 }, { "cycle/nsecond", 1e9 }, { "cycle/usecond", 1e6 },
        { "hz", 1 }, { "Khz", 1e3 }, { "Mhz", 1e6 }, { "Ghz", 1e9 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 },
        { "s", 1e9 } };
    return value * factor.at(unit);
}

std::optional<double> metricOf(const FileLaunch& launch, const std::string& name)
{
    const auto it = launch.metrics.find(name);
    if (it == launch.metrics.end())
        return std::nullopt;
    const auto value = number(it->second.second);
    return value ? std::optional(scaled(it->second.first, *value)) : std::nullopt;
}

// gpu__time_duration.sum, or (as ncu's own docs define it) cycles / cycles per second.
double expectedDurationNs(const FileLaunch& launch)
{
    if (auto ns = metricOf(launch, "gpu__time_duration.sum"))
        return *ns;
    return *metricOf(launch, "sm__cycles_elapsed.avg") / *metricOf(launch, "sm__cycles_elapsed.avg.per_second") * 1e9;
}

double fp(const FileLaunch& launch, char precision)
{
    const auto count = [&](const std::string& op) {
        return metricOf(launch, std::string("sm__sass_thread_inst_executed_op_") + precision + op + "_pred_on.sum")
            .value_or(0);
    };
    return count("add") + count("mul") + 2 * count("fma");
}

class NcuCsvReal : public ::testing::TestWithParam<const char*> { };

TEST_P(NcuCsvReal, EveryLaunchAsTheFileStatesIt)
{
    const std::string path = testDataPath(std::string("ncu/") + GetParam());
    const auto expected = readLaunches(path);
    ASSERT_FALSE(expected.empty());

    TempDir dir;
    const auto session = dir.file("real.ridge");
    // Through format detection, as `ridgeline import` does: content decides, .gz included.
    collectors::ImportRequest request;
    request.inputs = { path };
    request.output = session;
    auto imported = collectors::importFiles(request);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    EXPECT_EQ(imported.value().format, collectors::FileFormat::NsightComputeCsv);

    auto reader = core::SessionReader::open(session);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto kernels = reader.value().kernels().value();
    ASSERT_EQ(kernels.size(), expected.size());
    std::sort(kernels.begin(), kernels.end(), [](auto& a, auto& b) { return a.startNs < b.startNs; });
    std::map<std::int64_t, std::string> names;
    const auto kernelNames = reader.value().kernelNames().value();
    for (auto& n : kernelNames)
        names[n.id] = n.demangled;

    for (std::size_t i = 0; i < expected.size(); ++i) {
        SCOPED_TRACE("launch " + std::to_string(i) + " " + expected[i].name.substr(0, 60));
        const auto& kernel = kernels[i];
        EXPECT_EQ(names[kernel.nameId], expected[i].name);
        EXPECT_NEAR(static_cast<double>(kernel.durationNs()), expectedDurationNs(expected[i]), 1.0);
        std::map<std::string, double> stored;
        const auto metrics = reader.value().metrics(kernel.id).value();
        for (auto& m : metrics)
            stored[m.name] = m.value;
        const auto flops = [&](char precision) {
            double sum = 0;
            for (const char* op : { "add", "mul", "fma" }) {
                const auto name = std::string("sm__sass_thread_inst_executed_op_") + precision + op + "_pred_on.sum";
                sum += (std::string(op) == "fma" ? 2 : 1) * (stored.contains(name) ? stored[name] : 0);
            }
            return sum;
        };
        EXPECT_DOUBLE_EQ(flops('f'), fp(expected[i], 'f'));
        EXPECT_DOUBLE_EQ(flops('d'), fp(expected[i], 'd'));
        for (const char* bytes : { "dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum" }) {
            if (auto value = metricOf(expected[i], bytes)) {
                EXPECT_DOUBLE_EQ(stored[bytes], *value) << bytes;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(RealFiles, NcuCsvReal,
    ::testing::Values("leleucas/linear-nsight1381.csv.gz", "leleucas/dropout-nsight162.csv",
        "leleucas/attention-bert_nsight.csv", "nersc-gpp/output.csv", "nersc-gpp/output1.csv", "nersc-gpp/output2.csv"),
    [](const auto& param) {
        std::string name = param.param;
        std::replace_if(
            name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
        return name;
    });

// Worked by hand from the file (first rows of linear-nsight1381.csv.gz): launch 0 is
// ampere_sgemm_64x32_sliced1x4_tn, 45,920 ns, 3,670,272 DRAM bytes ("3,670,272" in the file).
TEST(NcuCsvRealByHand, FirstLinearLaunch)
{
    TempDir dir;
    const auto session = dir.file("linear.ridge");
    ASSERT_TRUE(collectors::importNcuCsv(testDataPath("ncu/leleucas/linear-nsight1381.csv.gz"), session, false).ok());
    auto reader = core::SessionReader::open(session);
    ASSERT_TRUE(reader.ok());
    auto kernels = reader.value().kernels().value();
    ASSERT_EQ(kernels.size(), 2933u);
    std::sort(kernels.begin(), kernels.end(), [](auto& a, auto& b) { return a.startNs < b.startNs; });
    EXPECT_EQ(kernels[0].durationNs(), 45'920);
    double dram = -1;
    const auto metrics = reader.value().metrics(kernels[0].id).value();
    for (auto& m : metrics)
        if (m.name == "dram__bytes.sum")
            dram = m.value;
    EXPECT_EQ(dram, 3'670'272.0);
}

// output1.csv: the GPP kernel's one long launch, time = sm__cycles_elapsed.avg / its rate
// (ncu wrote no gpu__time_duration here); SOURCES.md and the .ncu-rep of the same program say 30.49 s.
TEST(NcuCsvRealByHand, NerscLongLaunch)
{
    const auto expected = readLaunches(testDataPath("ncu/nersc-gpp/output1.csv"));
    ASSERT_EQ(expected.size(), 1u);
    EXPECT_NEAR(expectedDurationNs(expected[0]) / 1e9, 30.49, 30.49 * 0.001);
}

} // namespace

namespace {

// The same real file in every form users save it in: each must import to the same launches.
std::string variant(std::string text, const std::string& form)
{
    std::string out;
    if (form == "bom")
        return "\xEF\xBB\xBF" + text;
    if (form == "crlf") {
        for (char c : text)
            out += c == '\n' ? std::string("\r\n") : std::string(1, c);
        return out;
    }
    if (form == "unquoted") { // quotes only around fields holding commas, as a spreadsheet saves it
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line)) {
            const auto fields = splitCsvLine(line);
            for (std::size_t i = 0; i < fields.size(); ++i)
                out += (i ? "," : "") + (fields[i].find(',') != std::string::npos ? '"' + fields[i] + '"' : fields[i]);
            out += '\n';
        }
        return out;
    }
    if (form == "warnings") { // ncu's messages between records, and a blank line
        const auto middle = text.find('\n', text.size() / 2) + 1;
        return text.substr(0, middle) + "==WARNING== Found outstanding GPU clock reset, trying to revert...\n\n"
            + "==PROF== Disconnected from process 1\n" + text.substr(middle) + "==ERROR== An error was reported\n";
    }
    return text;
}

class NcuCsvForms : public ::testing::TestWithParam<const char*> { };

TEST_P(NcuCsvForms, SameLaunchesAsTheOriginal)
{
    const auto original = testDataPath("ncu/leleucas/dropout-nsight162.csv");
    const auto expected = readLaunches(original);
    TempDir dir;
    std::string path = dir.file(std::string("dropout-") + GetParam() + ".csv");
    const std::string form = GetParam();
    const auto text = variant(ridgeline::testing::readBytes(original), form == "gzip" ? "" : form);
    if (form == "gzip") {
        path += ".gz";
        gzFile gz = gzopen(path.c_str(), "wb");
        ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
        gzclose(gz);
    } else {
        ridgeline::testing::writeBytes(path, text);
    }
    collectors::ImportRequest request;
    request.inputs = { path };
    request.output = dir.file("forms.ridge");
    auto imported = collectors::importFiles(request);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    auto reader = core::SessionReader::open(request.output);
    ASSERT_TRUE(reader.ok());
    const auto kernels = reader.value().kernels().value();
    ASSERT_EQ(kernels.size(), expected.size());
    double total = 0, expectedTotal = 0;
    for (auto& k : kernels)
        total += static_cast<double>(k.durationNs());
    for (auto& launch : expected)
        expectedTotal += expectedDurationNs(launch);
    EXPECT_NEAR(total, expectedTotal, 1.0);
}

INSTANTIATE_TEST_SUITE_P(RealFile, NcuCsvForms, ::testing::Values("bom", "crlf", "unquoted", "warnings", "gzip"));

// Not ncu output, plain or compressed: the clear "not a format" error, saying what was expected.
TEST(NcuCsvForms, OtherCsvIsNotAFormat)
{
    TempDir dir;
    const auto path = dir.file("other.csv");
    ridgeline::testing::writeBytes(path, "Name,Value\nalpha,1\nbeta,2\n");
    collectors::ImportRequest request;
    request.inputs = { path };
    request.output = dir.file("other.ridge");
    auto imported = collectors::importFiles(request);
    ASSERT_FALSE(imported.ok());
    EXPECT_NE(imported.error().message.find("not a format Ridgeline imports"), std::string::npos);
    EXPECT_NE(imported.error().message.find("Nsight Compute"), std::string::npos);
}

} // namespace
