// SPDX-License-Identifier: MIT
// `ridgeline report S --baseline B`, run as a user runs it: figures worked out by hand on the small
// fixture against an edited copy of it, real ranks of a PyTorch job, and bad baseline files.
#include "clirun.h"
#include "fixtures.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

using ridgeline::testing::TempDir;

namespace {

// Fields of one CSV line (RFC 4180 quotes).
std::size_t csvFieldCount(const std::string& line)
{
    std::size_t fields = 1;
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            ++fields;
    }
    return fields;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        out.push_back(text.substr(start, end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return out;
}

class CliBaseline : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_current = m_dir.file("current.ridge");
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_current).ok());
        // The baseline: sgemm's two launches 2 µs longer each; the cutlass kernel under another name.
        m_baseline = m_dir.file("baseline.ridge");
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_baseline).ok());
        ridgeline::testing::execSql(m_baseline,
            "UPDATE kernels SET end_ns = end_ns + 2000 WHERE name_id IN "
            "(SELECT id FROM kernel_names WHERE demangled = 'ampere_sgemm_128x64_nn');"
            "UPDATE kernel_names SET raw = 'old_kernel', demangled = 'old_kernel' "
            "WHERE demangled = 'void cutlass::Kernel<int>(int*)';");
    }

    static ridgeline::testing::RunResult run(const std::vector<std::string>& args)
    {
        return ridgeline::testing::runCli(args);
    }

    nlohmann::json kernel(const nlohmann::json& doc, const std::string& name, int device)
    {
        for (const auto& k : doc["kernels"]) {
            if (k["name"] == name && k["device"] == device)
                return k;
        }
        ADD_FAILURE() << "no kernel " << name << " on device " << device;
        return {};
    }

    TempDir m_dir;
    std::string m_current;
    std::string m_baseline;
};

} // namespace

TEST_F(CliBaseline, JsonGivesDeltasNewAndGoneKernels)
{
    const auto r = run({ "report", m_current, "--baseline", m_baseline, "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);

    const auto sgemm = kernel(doc, "ampere_sgemm_128x64_nn", 0);
    EXPECT_EQ(sgemm["comparison"], "matched");
    EXPECT_EQ(sgemm["baseline"]["total_time_ns"], 28'000);
    EXPECT_EQ(sgemm["baseline"]["launches"], 2);
    EXPECT_DOUBLE_EQ(sgemm["baseline"]["avg_time_ns"].get<double>(), 14'000.0);
    EXPECT_EQ(sgemm["delta_time_ns"], -4'000);
    EXPECT_NEAR(sgemm["delta_pct"].get<double>(), -4'000.0 / 28'000.0 * 100.0, 1e-9);

    for (int device : { 0, 1 }) {
        const auto vectorAdd = kernel(doc, "vectorAdd(float const*, float const*, float*, int)", device);
        EXPECT_EQ(vectorAdd["comparison"], "matched");
        EXPECT_EQ(vectorAdd["delta_time_ns"], 0);
        EXPECT_EQ(vectorAdd["baseline"]["device"], device);
    }

    const auto cutlass = kernel(doc, "void cutlass::Kernel<int>(int*)", 1);
    EXPECT_EQ(cutlass["comparison"], "new");
    EXPECT_TRUE(cutlass["baseline"].is_null());
    EXPECT_EQ(cutlass["delta_time_ns"], 1'500);
    EXPECT_TRUE(cutlass["delta_pct"].is_null());

    const auto& b = doc["baseline"];
    EXPECT_EQ(b["path"], m_baseline);
    EXPECT_EQ(b["totals"]["kernel_time_ns"], 41'000);
    EXPECT_EQ(b["totals"]["kernels"], 5);
    EXPECT_EQ(b["delta_kernel_time_ns"], -4'000);
    EXPECT_EQ(b["matched"], 4);
    EXPECT_EQ(b["new"], 1);
    ASSERT_EQ(b["gone"].size(), 1u);
    EXPECT_EQ(b["gone"][0]["name"], "old_kernel");
    EXPECT_EQ(b["gone"][0]["total_time_ns"], 1'500);
    EXPECT_EQ(b["gone"][0]["launches"], 1);
    // The report of the current session itself is unchanged.
    EXPECT_EQ(doc["totals"]["kernel_time_ns"], 37'000);
}

// `diff BASE NEW` (the design's name for it) prints what `report NEW --baseline BASE` prints.
TEST_F(CliBaseline, DiffIsReportWithABaseline)
{
    for (const char* format : { "json", "table", "csv" }) {
        SCOPED_TRACE(format);
        const auto diff = run({ "diff", m_baseline, m_current, "--format", format, "--top", "3" });
        const auto report = run({ "report", m_current, "--baseline", m_baseline, "--format", format, "--top", "3" });
        ASSERT_EQ(diff.exitCode, 0) << diff.err;
        ASSERT_EQ(report.exitCode, 0) << report.err;
        EXPECT_EQ(diff.out, report.out);
        EXPECT_NE(diff.out.find("old_kernel"), std::string::npos); // the kernel gone since the baseline
    }
    const auto missing = run({ "diff", m_baseline });
    EXPECT_EQ(missing.exitCode, 1) << missing.err; // NEW is required: a usage error
    const auto bad = run({ "diff", m_dir.file("nope.ridge"), m_current });
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("baseline"), std::string::npos) << bad.err;
}

TEST_F(CliBaseline, TableHasBaselineColumnsAndListsGoneKernelsAfter)
{
    const auto r = run({ "report", m_current, "--baseline", m_baseline });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto all = lines(r.out);
    const auto header = std::find_if(
        all.begin(), all.end(), [](const std::string& l) { return l.find("Time %") != std::string::npos; });
    ASSERT_NE(header, all.end()) << r.out;
    for (const char* column : { "Baseline", "Δ time", "Δ %" })
        EXPECT_NE(header->find(column), std::string::npos) << *header;
    const auto sgemm = std::find_if(all.begin(), all.end(),
        [](const std::string& l) { return l.find("ampere_sgemm_128x64_nn") != std::string::npos; });
    ASSERT_NE(sgemm, all.end());
    EXPECT_NE(sgemm->find("28.000 µs"), std::string::npos) << *sgemm;
    EXPECT_NE(sgemm->find("-4.000 µs"), std::string::npos) << *sgemm;
    EXPECT_NE(sgemm->find("-14.3 %"), std::string::npos) << *sgemm;
    // void cutlass::Kernel<int>(int*), under its short name
    const auto cutlass // after the header, whose last column is also "Kernel"
        = std::find_if(std::next(header), all.end(), [](const std::string& l) { return l.ends_with("  Kernel"); });
    ASSERT_NE(cutlass, all.end());
    EXPECT_NE(cutlass->find("new"), std::string::npos) << *cutlass;
    EXPECT_NE(r.out.find("kernel time 41.000 µs -> 37.000 µs (-4.000 µs, -9.8 %)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("4 kernels matched, 1 new, 1 gone"), std::string::npos) << r.out;
    const auto gone = r.out.find("Gone since the baseline");
    ASSERT_NE(gone, std::string::npos) << r.out;
    EXPECT_GT(r.out.find("old_kernel", gone), gone);
    EXPECT_GT(gone, r.out.find("ampere_sgemm")); // after the current kernels
    // Without --baseline the table has no such columns.
    const auto plain = run({ "report", m_current });
    EXPECT_EQ(plain.out.find("Δ time"), std::string::npos);
}

TEST_F(CliBaseline, CsvRowsKeepTheColumnCountAndGoneRowsComeLast)
{
    const auto r = run({ "report", m_current, "--baseline", m_baseline, "--format", "csv", "--sort", "name" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto all = lines(r.out);
    ASSERT_EQ(all.size(), 1u + 5u + 1u); // header, current kernels, one gone
    const auto columns = csvFieldCount(all[0]);
    EXPECT_NE(all[0].find(",comparison,baseline_launches,baseline_total_time_ns"), std::string::npos);
    for (const auto& line : all)
        EXPECT_EQ(csvFieldCount(line), columns) << line;
    EXPECT_EQ(all.back().rfind("old_kernel,old_kernel,,", 0), 0u) << all.back();
    EXPECT_NE(all.back().find(",gone,1,1500,1500.0,"), std::string::npos) << all.back();
    // Sorted by name as without a baseline: sgemm first.
    EXPECT_EQ(all[1].rfind("ampere_sgemm_128x64_nn,", 0), 0u) << all[1];
    EXPECT_NE(all[1].find(",matched,2,28000,14000.0,"), std::string::npos) << all[1];
    EXPECT_NE(all[1].find(",-4000,-14.2857"), std::string::npos) << all[1];
}

TEST_F(CliBaseline, TopTrimsRowsButNotTotals)
{
    const auto r = run({ "report", m_current, "--baseline", m_baseline, "--format", "json", "--top", "1" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["kernels"].size(), 1u);
    EXPECT_EQ(doc["kernels"][0]["name"], "ampere_sgemm_128x64_nn");
    EXPECT_EQ(doc["baseline"]["delta_kernel_time_ns"], -4'000);
    EXPECT_EQ(doc["baseline"]["matched"], 4);
}

// Rank 1 of a real two-rank PyTorch job against rank 0: both imported with `ridgeline import`.
TEST_F(CliBaseline, RealRanksCompare)
{
    std::vector<std::string> sessions;
    for (const char* rank : { "0", "1" }) {
        sessions.push_back(m_dir.file(std::string("rank-") + rank + ".ridge"));
        const auto imported = run(
            { "import", std::string(RIDGELINE_TEST_DATA_DIR) + "/kineto/trace_filter/sampled_rank-" + rank + ".json.gz",
                "-o", sessions.back() });
        ASSERT_EQ(imported.exitCode, 0) << imported.err;
    }
    const auto r = run({ "report", sessions[1], "--baseline", sessions[0], "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const auto base = run({ "report", sessions[0], "--format", "json" });
    ASSERT_EQ(base.exitCode, 0) << base.err;
    std::map<std::string, std::int64_t> baseTotals;
    const auto baseDoc = nlohmann::json::parse(base.out);
    for (const auto& k : baseDoc["kernels"])
        baseTotals[k["name"].get<std::string>()] = k["total_time_ns"].get<std::int64_t>();

    std::set<std::string> current;
    std::int64_t matched = 0;
    for (const auto& k : doc["kernels"]) {
        const auto name = k["name"].get<std::string>();
        current.insert(name);
        const auto found = baseTotals.find(name);
        if (found == baseTotals.end()) {
            EXPECT_EQ(k["comparison"], "new") << name;
            continue;
        }
        ++matched;
        EXPECT_EQ(k["comparison"], "matched") << name;
        EXPECT_EQ(k["baseline"]["total_time_ns"], found->second) << name;
        EXPECT_EQ(k["delta_time_ns"].get<std::int64_t>(), k["total_time_ns"].get<std::int64_t>() - found->second);
    }
    EXPECT_GT(matched, 0);
    EXPECT_EQ(doc["baseline"]["matched"], matched);
    for (const auto& g : doc["baseline"]["gone"])
        EXPECT_EQ(current.count(g["name"].get<std::string>()), 0u);
    EXPECT_EQ(doc["baseline"]["gone"].size() + static_cast<std::size_t>(matched), baseTotals.size());
}

TEST_F(CliBaseline, BadBaselineIsOneClearErrorAndExitTwo)
{
    const auto missing = m_dir.file("missing.ridge");
    const auto foreign = m_dir.file("foreign.sqlite");
    ridgeline::testing::execSql(foreign, "CREATE TABLE notes(text);");
    const auto empty = m_dir.file("empty.ridge");
    ridgeline::testing::writeBytes(empty, "");
    for (const auto& [path, words] : std::vector<std::pair<std::string, std::string>> { { missing, "no such file" },
             { foreign, "not a Ridgeline session" }, { empty, "empty" }, { m_dir.path(), "directory" } }) {
        for (const char* format : { "table", "json", "csv" }) {
            SCOPED_TRACE(path + " " + format);
            const auto r = run({ "report", m_current, "--baseline", path, "--format", format });
            EXPECT_EQ(r.exitCode, 2) << r.err;
            EXPECT_TRUE(r.out.empty()) << r.out;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            EXPECT_EQ(r.err.rfind("ridgeline: baseline ", 0), 0u) << r.err;
            EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
            EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
        }
    }
    // A missing value is a usage error.
    EXPECT_EQ(run({ "report", m_current, "--baseline" }).exitCode, 1);
}
