// SPDX-License-Identifier: MIT
// `ridgeline import` and `merge`, run as a user runs them: each trace format, then report and check.
#include "clitest.h"
#include "ridgeline/core/store/sessionformat.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <sys/wait.h>
#include <vector>

TEST_F(Cli, ImportNcuCsvThenCheckTheSession)
{
    const auto csv = ridgeline::testing::testDataPath("ncu/raw-roofline.csv");
    const auto out = m_dir.file("imported.ridge");
    std::string err;
    ASSERT_TRUE(imports(csv, out, err));
    EXPECT_EQ(err, "imported 3 kernels with 78 metrics from " + csv + " into " + out + "\n");

    expectOutputHolds({ "check", out },
        { "source:        import:ncu-csv", "kernels:       3 launches of 3 kernels", "integrity:     ok" });

    // A details page; warnings (here: a text-valued metric) come before the summary line.
    const auto details = run(
        { "import", ridgeline::testing::testDataPath("ncu/details.csv"), "--output", m_dir.file("details.ridge") });
    ASSERT_EQ(details.exitCode, 0) << details.err;
    EXPECT_NE(details.err.find("ridgeline: warning: the metric"), std::string::npos) << details.err;
    EXPECT_NE(details.err.find("imported 2 kernels with"), std::string::npos) << details.err;
    EXPECT_EQ(run({ "check", m_dir.file("details.ridge") }).exitCode, 0);

    const auto help = run({ "import", "--help" });
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("FILE"), std::string::npos);
    EXPECT_NE(help.out.find("--force"), std::string::npos);
    // Every format the importer recognises is named (the help may wrap its lines: whitespace is
    // compared as one space).
    std::string text;
    for (const char c : help.out) {
        if (!std::isspace(static_cast<unsigned char>(c)))
            text += c;
        else if (!text.empty() && text.back() != ' ')
            text += ' ';
    }
    for (const char* format : { "PyTorch profiler (Kineto) JSON", "Nsight Systems SQLite export", "Nsight Compute CSV",
             "Nsight Compute report (.ncu-rep" })
        EXPECT_NE(text.find(format), std::string::npos) << format << " is not named in:\n" << help.out;
}

TEST_F(Cli, ImportOfAMalformedCsvNamesTheLine)
{
    const auto out = m_dir.file("never.ridge");
    for (const auto& [fixture, words] : std::vector<std::pair<std::string, std::string>> {
             { "bad-ragged.csv", "bad-ragged.csv:4: expected 14 fields, found 12" },
             { "bad-unterminated-quote.csv", "bad-unterminated-quote.csv:4: unterminated quoted field" },
             { "bad-header-only.csv", "bad-header-only.csv:1: no kernels in this file" },
             { "bad-prof-only.csv", "no kernels in this file (did ncu profile any?)" } }) {
        SCOPED_TRACE(fixture);
        const auto path = ridgeline::testing::testDataPath("ncu/" + fixture);
        expectBadInput({ "import", path, "-o", out }, path, words);
        EXPECT_FALSE(std::filesystem::exists(out));
    }
}

TEST_F(Cli, ImportUsageErrors)
{
    const auto csv = ridgeline::testing::testDataPath("ncu/raw-nersc.csv");
    const auto noOutput = run({ "import", csv });
    EXPECT_EQ(noOutput.exitCode, 1) << noOutput.err;
    EXPECT_NE(noOutput.err.find("--output"), std::string::npos) << noOutput.err;
    EXPECT_EQ(run({ "import", "-o", m_dir.file("x.ridge") }).exitCode, 1);

    const auto existing = m_dir.file("existing.ridge");
    writeBytes(existing, "precious");
    const auto refused = run({ "import", csv, "-o", existing });
    EXPECT_EQ(refused.exitCode, 1) << refused.err;
    EXPECT_NE(refused.err.find("already exists"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
    EXPECT_EQ(readBytes(existing), "precious");

    const auto forced = run({ "import", csv, "-o", existing, "--force" });
    EXPECT_EQ(forced.exitCode, 0) << forced.err;
    EXPECT_EQ(run({ "check", existing }).exitCode, 0);
}

TEST_F(Cli, ImportOfOtherFormatsIsNotSupportedYet)
{
    const auto out = m_dir.file("out.ridge");
    expectBadInput({ "import", m_fixture, "-o", out }, m_fixture, "Ridgeline session import is not supported yet");
    // An SQLite file that is no Nsight Systems export.
    const auto foreign = m_dir.file("foreign.sqlite");
    ridgeline::testing::execSql(foreign, "CREATE TABLE notes(text);");
    expectBadInput({ "import", foreign, "-o", out }, foreign, "not supported yet");
    const auto text = m_dir.file("notes.txt");
    writeBytes(text, "just some notes\n");
    expectBadInput({ "import", text, "-o", out }, text, "not a format Ridgeline imports");
    expectBadInput({ "import", m_dir.file("missing.csv"), "-o", out }, m_dir.file("missing.csv"), "cannot be opened");
    EXPECT_FALSE(std::filesystem::exists(out));
}

// `ridgeline import ncu.csv -o s.ridge && ridgeline report s.ridge`, against verdicts worked out by
// hand from tests/data/ncu/raw-roofline.csv (H100, counters with peaks per cycle and clocks):
//  gemm:   FP32 FLOPs 2 x 34,359,738,368 + 2 x 16,777,216 = 68,753,031,168 in 1,500 us = 45.835
//          TFLOP/s; ceiling 16,896 FFMA/cycle x 2 x 1.75 GHz = 59.136 TFLOP/s -> 77.5 %, compute-bound;
//          DRAM 268.44 MB / 1.5 ms = 179 GB/s of 1,279.39 B/cycle x 2.62 GHz = 3.352 TB/s -> 5 %.
//  copy:   DRAM 1,610.61 MB / 600 us = 2.684 TB/s -> 80.1 % of 3.352 TB/s, memory-bound; no FLOPs.
//  reduce: 1 block, 0.01 waves per SM; DRAM 0.52 MB / 12.25 us = 42.4 GB/s -> 1.3 %, latency-bound.
TEST_F(Cli, ImportNcuCsvThenReportGivesHandComputedVerdicts)
{
    const auto session = m_dir.file("ncu.ridge");
    const auto imported = run({ "import", ridgeline::testing::testDataPath("ncu/raw-roofline.csv"), "-o", session });
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    const auto report = run({ "report", session, "--format", "json" });
    ASSERT_EQ(report.exitCode, 0) << report.err;
    const auto doc = nlohmann::json::parse(report.out);
    ASSERT_EQ(doc["kernels"].size(), 3u);
    const auto& gemm = doc["kernels"][0];
    EXPECT_EQ(gemm["verdict"], "compute-bound");
    EXPECT_EQ(gemm["bound_by"], "FP32");
    EXPECT_NEAR(gemm["pct_of_roof"].get<double>(), 100.0 * (68'753'031'168.0 / 1.5e-3) / (16'896 * 2 * 1.75e9), 1e-6);
    EXPECT_DOUBLE_EQ(gemm["flops"].get<double>(), 68'753'031'168.0);
    EXPECT_DOUBLE_EQ(gemm["dram_bytes"].get<double>(), 268.44e6);
    EXPECT_NEAR(gemm["ai_dram"].get<double>(), 68'753'031'168.0 / 268.44e6, 1e-9);
    EXPECT_EQ(gemm["ceilings"]["FP32"]["source"], "counters");
    EXPECT_EQ(gemm["reason"], "compute-bound (FP32): 45.8 TFLOP/s = 78 % of 59.1 TFLOP/s; DRAM at 5 % of peak");

    const auto& copy = doc["kernels"][1];
    EXPECT_EQ(copy["verdict"], "memory-bound");
    EXPECT_EQ(copy["bound_by"], "DRAM");
    EXPECT_NEAR(copy["pct_of_roof"].get<double>(), 100.0 * (1'610.61e6 / 600e-6) / (1'279.39 * 2.62e9), 1e-6);
    EXPECT_EQ(copy["reason"], "memory-bound (DRAM): 2.68 TB/s = 80 % of 3.35 TB/s");

    const auto& reduce = doc["kernels"][2];
    EXPECT_EQ(reduce["verdict"], "latency-bound");
    EXPECT_TRUE(reduce["bound_by"].is_null());
    EXPECT_EQ(reduce["reason"],
        "latency-bound: less than one wave (0.01 waves per SM); the busiest resource, DRAM, is at 1 % of peak");

    // The session records the ceilings with their sources: the catalogue's and the counters'.
    const auto check = run({ "check", "--json", session });
    ASSERT_EQ(check.exitCode, 0) << check.err;
    EXPECT_EQ(nlohmann::json::parse(check.out)["counts"]["ceilings"], 11 + 3);
    const auto table = run({ "report", session });
    EXPECT_NE(table.out.find("compute-bound (FP32)"), std::string::npos) << table.out;
}

// Kineto: a gzipped PyTorch-profiler trace imports and reports; a truncated one is one clear error.
TEST_F(Cli, ImportKinetoTraceThenReport)
{
    const auto trace = ridgeline::testing::testDataPath("kineto/nccl_parser_config/nccl_data.json.gz");
    const auto out = m_dir.file("kineto.ridge");
    std::string err;
    ASSERT_TRUE(imports(trace, out, err));
    EXPECT_NE(err.find("imported 2700 kernels"), std::string::npos) << err;
    EXPECT_NE(err.find("21 collectives"), std::string::npos) << err;
    EXPECT_EQ(err.find('\r'), std::string::npos) << "no progress line when stderr is not a terminal";
    expectOutputHolds({ "report", out }, { "communication-bound" });
    expectOutputHolds({ "check", out }, { "import:kineto" });

    // Two ranks into one session.
    const auto pair = m_dir.file("pair.ridge");
    const auto two = run({ "import", ridgeline::testing::testDataPath("kineto/trace_filter/sampled_rank-0.json.gz"),
        ridgeline::testing::testDataPath("kineto/trace_filter/sampled_rank-1.json.gz"), "-o", pair });
    ASSERT_EQ(two.exitCode, 0) << two.err;
    EXPECT_NE(two.err.find("2 files (ranks 0, 1)"), std::string::npos) << two.err;

    // No GPU ops: imported, and the CLI says so.
    const auto cpuOnly
        = ridgeline::testing::testDataPath("kineto/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
    const auto cpu = run({ "import", cpuOnly, "-o", m_dir.file("cpu.ridge") });
    ASSERT_EQ(cpu.exitCode, 0) << cpu.err;
    EXPECT_NE(cpu.err.find("ridgeline: warning: no GPU activity in"), std::string::npos) << cpu.err;
}

TEST_F(Cli, ImportOfATruncatedKinetoTraceExitsWithTwo)
{
    const auto gz = readBytes(ridgeline::testing::testDataPath("kineto/triton_example/triton_example.json.gz"));
    const auto truncated = m_dir.file("truncated.json.gz");
    writeBytes(truncated, gz.substr(0, gz.size() / 2));
    const auto out = m_dir.file("never.ridge");
    expectBadInput({ "import", truncated, "-o", out }, truncated, "truncated gzip");
    const auto json = m_dir.file("truncated.json");
    writeBytes(json, R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2}, {"ph": )");
    expectBadInput({ "import", json, "-o", out }, json, "JSON");
    EXPECT_FALSE(std::filesystem::exists(out));
}

// `ridgeline import con_kernel.sqlite -o x.ridge && ridgeline report x.ridge` (nsys 2022.1 export:
// 9 kernels of 5 names, 11 copies, 1 memset, 71 runtime calls; counted with sqlite3).
TEST_F(Cli, ImportNsysSqliteThenReportListsTheKernels)
{
    const auto nsys = ridgeline::testing::testDataPath("nsys/concurrent-kernels.sqlite");
    const auto before = readBytes(nsys);
    const auto out = m_dir.file("x.ridge");
    std::string err;
    ASSERT_TRUE(imports(nsys, out, err));
    EXPECT_NE(err.find("imported 9 kernels, 11 memcpys, 1 memset, 71 API calls and 0 NVTX ranges from " + nsys),
        std::string::npos)
        << err;
    EXPECT_EQ(readBytes(nsys), before);

    const auto report = run({ "report", out, "--format", "json" });
    ASSERT_EQ(report.exitCode, 0) << report.err;
    const auto doc = nlohmann::json::parse(report.out);
    std::set<std::string> names;
    std::int64_t launches = 0;
    for (const auto& row : doc["kernels"]) {
        names.insert(row["name"].get<std::string>());
        launches += row["launches"].get<std::int64_t>();
    }
    EXPECT_EQ(launches, 9);
    for (const char* name : { "test0", "test1", "test2", "test3", "test4" })
        EXPECT_TRUE(names.contains(std::string(name) + "(double *, unsigned long long, unsigned long long)")) << name;
    expectOutputHolds({ "report", out }, { "test0" });
    expectOutputHolds({ "check", out }, { "import:nsys-sqlite", "integrity:     ok" });

    // A truncated export: one clear error, exit 2, no output file.
    const auto truncated = m_dir.file("truncated.sqlite");
    writeBytes(truncated, before.substr(0, before.size() / 3));
    expectBadInput({ "import", truncated, "-o", m_dir.file("never.ridge") }, truncated, "malformed");
    EXPECT_FALSE(std::filesystem::exists(m_dir.file("never.ridge")));
}

// `ridgeline merge A B -o OUT`: two ranks of the fixture into one session.
TEST_F(Cli, MergeJoinsRanksIntoOneSession)
{
    const auto rank1 = m_dir.file("rank1.ridge");
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(rank1).ok());
    ridgeline::testing::execSql(rank1, "UPDATE processes SET rank = 1, host = 'node-b';");
    const auto out = m_dir.file("merged.ridge");
    const auto r = run({ "merge", m_fixture, rank1, "-o", out });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err, "merged 2 sessions into " + out + "\n");

    const auto check = run({ "check", "--json", out });
    ASSERT_EQ(check.exitCode, 0) << check.err;
    const auto doc = nlohmann::json::parse(check.out);
    EXPECT_EQ(doc["counts"]["kernels"], 16);
    EXPECT_EQ(doc["counts"]["devices"], 4);
    EXPECT_EQ(doc["counts"]["processes"], 2);
    EXPECT_EQ(doc["status"], "complete");
    const auto report = run({ "report", out, "--format", "json" });
    ASSERT_EQ(report.exitCode, 0) << report.err;
    EXPECT_EQ(nlohmann::json::parse(report.out)["kernels"].size(), 10u);

    // Exists without --force: usage error; --force replaces it; into itself: refused.
    EXPECT_EQ(run({ "merge", m_fixture, rank1, "-o", out }).exitCode, 1);
    EXPECT_EQ(run({ "merge", m_fixture, rank1, "-o", out, "--force" }).exitCode, 0);
    const auto self = run({ "merge", m_fixture, rank1, "-o", m_fixture, "--force" });
    EXPECT_EQ(self.exitCode, 1) << self.err;
    EXPECT_NE(self.err.find("merged into itself"), std::string::npos) << self.err;
    EXPECT_EQ(run({ "merge", m_fixture, "-o", m_dir.file("one.ridge") }).exitCode, 1);
    EXPECT_EQ(run({ "merge", "--help" }).exitCode, 0);
    const auto missing = m_dir.file("missing.ridge");
    expectBadInput({ "merge", m_fixture, missing, "-o", m_dir.file("never.ridge") }, missing, "no such file");
}
