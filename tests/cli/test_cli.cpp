// SPDX-License-Identifier: MIT
// Runs the built `ridgeline` binary as a user would: exit codes, messages, outputs.
#include "fixtures.h"
#include "ridgeline/core/sessionformat.h"
#include "testutil.h"

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

using ridgeline::testing::readBytes;
using ridgeline::testing::TempDir;
using ridgeline::testing::writeBytes;

namespace {

struct RunResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string quote(const std::string& arg)
{
    std::string quoted = "'";
    for (char c : arg) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_fixture = m_dir.file("small.ridge");
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_fixture).ok());
    }

    RunResult run(const std::vector<std::string>& args, const std::string& stdoutTarget = {})
    {
        std::string command = quote(RIDGELINE_CLI);
        for (const auto& arg : args)
            command += " " + quote(arg);
        const auto outFile = m_dir.file("stdout.txt");
        const auto errFile = m_dir.file("stderr.txt");
        command += " >" + quote(stdoutTarget.empty() ? outFile : stdoutTarget) + " 2>" + quote(errFile) + " </dev/null";
        const int status = std::system(command.c_str());
        RunResult result;
        result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        result.out = stdoutTarget.empty() ? readBytes(outFile) : std::string();
        result.err = readBytes(errFile);
        return result;
    }

    // Bad input: exit 2, nothing on stdout, exactly one line on stderr that names the file.
    void expectBadInput(const std::vector<std::string>& args, const std::string& path, const std::string& words)
    {
        const auto r = run(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        ASSERT_FALSE(r.err.empty());
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    }

    TempDir m_dir;
    std::string m_fixture;
};

} // namespace

TEST_F(Cli, HelpListsWorkingCommandsAndExitCodes)
{
    const auto r = run({ "--help" });
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("check"), std::string::npos);
    EXPECT_NE(r.out.find("report"), std::string::npos);
    EXPECT_NE(r.out.find("capture"), std::string::npos);
    EXPECT_NE(r.out.find("devices"), std::string::npos);
    EXPECT_NE(r.out.find("Exit codes"), std::string::npos);
    EXPECT_NE(r.out.find("2  bad input file"), std::string::npos);
    EXPECT_NE(r.out.find("diff"), std::string::npos);
    const auto diff = run({ "diff", "--help" });
    EXPECT_EQ(diff.exitCode, 0);
    EXPECT_NE(diff.out.find("BASE"), std::string::npos);
    EXPECT_NE(diff.out.find("NEW"), std::string::npos);
    for (const char* sub : { "check", "report" }) {
        const auto help = run({ sub, "--help" });
        EXPECT_EQ(help.exitCode, 0) << sub;
        EXPECT_NE(help.out.find("FILE"), std::string::npos) << sub;
    }
}

TEST_F(Cli, Version)
{
    const auto r = run({ "--version" });
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_EQ(r.out.rfind("ridgeline ", 0), 0u) << r.out;
}

TEST_F(Cli, UsageErrorsExitWithOne)
{
    for (const auto& args : std::vector<std::vector<std::string>> { {}, { "frobnicate" }, { "check" }, { "report" },
             { "report", m_fixture, "--format", "xml" }, { "report", m_fixture, "--sort", "colour" },
             { "report", m_fixture, "--top", "-3" }, { "report", m_fixture, "--top", "many" },
             { "check", m_fixture, "--bogus" } }) {
        const auto r = run(args);
        EXPECT_EQ(r.exitCode, 1) << (args.empty() ? "<no args>" : args[0]) << ": " << r.err;
        EXPECT_FALSE(r.err.empty());
    }
}

TEST_F(Cli, CheckSummarisesAFixture)
{
    const auto r = run({ "check", m_fixture });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_NE(r.out.find(fmt::format("schema:        v{} (current)", ridgeline::core::kSchemaVersion)), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("status:        complete"), std::string::npos);
    EXPECT_NE(r.out.find("devices:       2"), std::string::npos);
    EXPECT_NE(r.out.find("NVIDIA H100 80GB HBM3 (CC 9.0, 132 SMs"), std::string::npos);
    EXPECT_NE(r.out.find("kernels:       8 launches of 4 kernels"), std::string::npos);
    EXPECT_NE(r.out.find("time span:     42.500 µs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("integrity:     ok"), std::string::npos);

    const auto json = run({ "check", "--json", m_fixture });
    ASSERT_EQ(json.exitCode, 0);
    const auto doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["status"], "complete");
    EXPECT_EQ(doc["valid"], true);
    EXPECT_EQ(doc["counts"]["kernels"], 8);
    EXPECT_EQ(doc["span_ns"], 42'500);
}

TEST_F(Cli, CheckMarksPartialSessions)
{
    const auto partial = m_dir.file("partial.ridge");
    std::filesystem::copy_file(m_fixture, partial);
    ridgeline::testing::execSql(partial, "UPDATE meta SET value = 'partial' WHERE key = 'status';");
    const auto r = run({ "check", partial });
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("status:        partial"), std::string::npos) << r.out;
}

TEST_F(Cli, ReportInEveryFormat)
{
    const auto table = run({ "report", m_fixture });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("ampere_sgemm_128x64_nn"), std::string::npos);
    EXPECT_LT(table.out.find("ampere_sgemm"), table.out.find("vectorAdd")) << "sorted by total time";

    const auto csv = run({ "report", m_fixture, "--format", "csv", "--sort", "launches", "--top", "1" });
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 2) << csv.out;
    EXPECT_NE(csv.out.find("\"vectorAdd(float const*, float const*, float*, int)\""), std::string::npos);

    const auto json = run({ "report", m_fixture, "--format=json" });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    ASSERT_EQ(doc["kernels"].size(), 5u);
    EXPECT_EQ(doc["kernels"][0]["name"], "ampere_sgemm_128x64_nn");
    EXPECT_EQ(doc["kernels"][0]["device"], 0);
    EXPECT_EQ(doc["kernels"][0]["launches"], 2);
    EXPECT_EQ(doc["kernels"][0]["total_time_ns"], 24'000);
}

TEST_F(Cli, ReportByCollective)
{
    // The fixture's one AllReduce (tests/support/fixtures.cpp): S = 4096 x 4 = 16,384 bytes in
    // 5,000 ns on 2 ranks, so algbw = 16,384 / 5e-6 = 3.2768 GB/s and busbw = algbw x 2(2-1)/2, the
    // same; its device record gives NVLink 450 GB/s: 3.2768 / 450 = 0.728 %.
    const auto json = run({ "report", m_fixture, "--by", "collective", "--format", "json" });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    ASSERT_EQ(doc["collectives"].size(), 1u);
    const auto& row = doc["collectives"][0];
    EXPECT_EQ(row["collective"], "AllReduce");
    EXPECT_EQ(row["process_group"], "default_pg");
    EXPECT_EQ(row["bytes"], 16'384);
    EXPECT_EQ(row["calls"], 1);
    EXPECT_EQ(row["time_ns"], 5'000);
    EXPECT_DOUBLE_EQ(row["algbw_Bps"].get<double>(), 3.2768e9);
    EXPECT_DOUBLE_EQ(row["busbw_Bps"].get<double>(), 3.2768e9);
    EXPECT_EQ(row["link"], "NVLink");
    EXPECT_DOUBLE_EQ(row["link_Bps"].get<double>(), 450e9);
    EXPECT_NEAR(row["pct_of_link"].get<double>(), 3.2768 / 450 * 100, 1e-9);
    EXPECT_EQ(row["verdict"], "communication-bound");
    // One rank: it waits for nobody, and no instance is matched across ranks.
    ASSERT_EQ(doc["ranks"].size(), 1u);
    EXPECT_EQ(doc["ranks"][0]["wait_ns"], 0);
    EXPECT_EQ(doc["instances"].size(), 0u);

    const auto table = run({ "report", m_fixture, "--by", "collective" });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("busbw 3.28 GB/s = 0.7 % of NVLink 450 GB/s"), std::string::npos) << table.out;
    const auto csv = run({ "report", m_fixture, "--by=collective", "-f", "csv" });
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 2) << csv.out;
    EXPECT_EQ(run({ "report", m_fixture, "--by", "nothing" }).exitCode, 1);
}

TEST_F(Cli, BadFilesGetOneClearErrorAndExitTwo)
{
    const auto empty = m_dir.file("empty.ridge");
    writeBytes(empty, "");
    const auto random = m_dir.file("random.ridge");
    std::mt19937 rng(1);
    std::string noise(8192, '\0');
    for (auto& c : noise)
        c = static_cast<char>(rng());
    writeBytes(random, noise);
    const auto truncated = m_dir.file("truncated.ridge");
    const auto bytes = readBytes(m_fixture);
    writeBytes(truncated, bytes.substr(0, bytes.size() / 2));
    const auto foreign = m_dir.file("foreign.sqlite");
    ridgeline::testing::execSql(foreign, "CREATE TABLE notes(text);");
    const auto newer = m_dir.file("newer.ridge");
    std::filesystem::copy_file(m_fixture, newer);
    ridgeline::testing::execSql(newer, "PRAGMA user_version = 99;");
    const auto nsys = ridgeline::testing::testDataPath("nsys/concurrent-kernels.sqlite");

    const std::vector<std::pair<std::string, std::string>> cases {
        { m_dir.file("missing.ridge"), "no such file" },
        { empty, "empty" },
        { random, "not an SQLite database" },
        { truncated, "truncated" },
        { foreign, "not a Ridgeline session" },
        { newer, "newer Ridgeline" },
        { nsys, "not a Ridgeline session" },
        { m_dir.path(), "directory" },
    };
    for (const auto& [path, words] : cases) {
        SCOPED_TRACE(path);
        expectBadInput({ "check", path }, path, words);
        expectBadInput({ "report", path }, path, words);
        expectBadInput({ "report", "--format", "json", path }, path, words);
    }
}

TEST_F(Cli, UnwritableOutputExitsWithThree)
{
    if (!std::filesystem::exists("/dev/full"))
        GTEST_SKIP() << "no /dev/full on this system";
    const auto r = run({ "report", m_fixture, "--format", "json" }, "/dev/full");
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

TEST_F(Cli, CeilingsListsEveryCataloguedGpu)
{
    const auto r = run({ "ceilings" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    for (const char* gpu : { "NVIDIA H100 SXM5 80GB", "NVIDIA H100 PCIe 80GB", "NVIDIA H200 SXM 141GB", "NVIDIA GH200",
             "NVIDIA A100 SXM4 40GB", "NVIDIA A100 SXM4 80GB", "NVIDIA A100 PCIe 40GB", "NVIDIA A100 PCIe 80GB",
             "NVIDIA L40S", "NVIDIA L4 ", "NVIDIA A10 ", "NVIDIA V100 SXM2", "NVIDIA V100 PCIe",
             "NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090", "NVIDIA B200" })
        EXPECT_NE(r.out.find(gpu), std::string::npos) << gpu;
    EXPECT_NE(r.out.find("TFLOP/s"), std::string::npos);
    EXPECT_NE(r.out.find("TB/s"), std::string::npos);
    EXPECT_NE(r.out.find("GB/s"), std::string::npos);
    EXPECT_NE(r.out.find("source: NVIDIA H100 Tensor Core GPU datasheet"), std::string::npos);
    EXPECT_NE(r.out.find("per direction"), std::string::npos);

    const auto help = run({ "ceilings", "--help" });
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("--device"), std::string::npos);
}

TEST_F(Cli, CeilingsForOneDevice)
{
    const auto r = run({ "ceilings", "--device", "NVIDIA A100-SXM4-80GB" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("NVIDIA A100 SXM4 80GB  (CC 8.0, 108 SMs, boost 1410 MHz)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2.039 TB/s"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("19.5 TFLOP/s"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("NVIDIA A100 SXM4 40GB"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FP8_tensor"), std::string::npos) << "A100 has no FP8";

    // "A10" is not an A100; a generic name prints every GPU it fits.
    const auto a10 = run({ "ceilings", "-d", "NVIDIA A10" });
    ASSERT_EQ(a10.exitCode, 0) << a10.err;
    EXPECT_EQ(a10.out.find("A100"), std::string::npos) << a10.out;
    const auto h100 = run({ "ceilings", "--device", "H100" });
    ASSERT_EQ(h100.exitCode, 0) << h100.err;
    EXPECT_NE(h100.out.find("NVIDIA H100 SXM5 80GB"), std::string::npos);
    EXPECT_NE(h100.out.find("NVIDIA H100 PCIe 80GB"), std::string::npos);
}

TEST_F(Cli, CeilingsForAnUnknownDeviceExitsWithTwo)
{
    const auto r = run({ "ceilings", "--device", "Voodoo 5 6000" });
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("unknown GPU 'Voodoo 5 6000'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("known GPUs are"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("NVIDIA B200"), std::string::npos) << r.err;

    const auto badFormat = run({ "ceilings", "--format", "csv" });
    EXPECT_EQ(badFormat.exitCode, 1) << badFormat.err;
}

TEST_F(Cli, CeilingsAsJson)
{
    const auto r = run({ "ceilings", "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["conventions"]["tensor"], "dense");
    EXPECT_EQ(doc["conventions"]["links"], "per direction");
    ASSERT_GE(doc["gpus"].size(), 15u);
    for (const auto& gpu : doc["gpus"]) {
        EXPECT_FALSE(gpu["source"].get<std::string>().empty()) << gpu["name"];
        EXPECT_GT(gpu["sm_count"].get<int>(), 0) << gpu["name"];
        EXPECT_FALSE(gpu["ceilings"].empty()) << gpu["name"];
    }

    const auto one = run({ "ceilings", "--device", "NVIDIA H100 80GB HBM3", "--format=json" });
    ASSERT_EQ(one.exitCode, 0) << one.err;
    const auto h100 = nlohmann::json::parse(one.out)["gpus"];
    ASSERT_EQ(h100.size(), 1u);
    EXPECT_EQ(h100[0]["name"], "NVIDIA H100 SXM5 80GB");
    EXPECT_EQ(h100[0]["compute_capability"], "9.0");
    EXPECT_EQ(h100[0]["sm_count"], 132);
    EXPECT_EQ(h100[0]["ceilings"][0]["resource"], "FP64");
    EXPECT_DOUBLE_EQ(h100[0]["ceilings"][0]["value"].get<double>(), 34e12);
    EXPECT_EQ(h100[0]["ceilings"][0]["unit"], "FLOP/s");
}

TEST_F(Cli, ImportNcuCsvThenCheckTheSession)
{
    const auto csv = ridgeline::testing::testDataPath("ncu/raw-roofline.csv");
    const auto out = m_dir.file("imported.ridge");
    const auto r = run({ "import", csv, "-o", out });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err, "imported 3 kernels with 78 metrics from " + csv + " into " + out + "\n");

    const auto check = run({ "check", out });
    ASSERT_EQ(check.exitCode, 0) << check.err;
    EXPECT_NE(check.out.find("source:        import:ncu-csv"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("kernels:       3 launches of 3 kernels"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("integrity:     ok"), std::string::npos) << check.out;

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
    for (const char* format : { "PyTorch profiler (Kineto) JSON", "Nsight Systems SQLite export",
             "Nsight Compute CSV", "Nsight Compute report (.ncu-rep" })
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
    const auto r = run({ "import", trace, "-o", out });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("imported 2700 kernels"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("21 NCCL collectives"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << "no progress line when stderr is not a terminal";
    const auto report = run({ "report", out });
    ASSERT_EQ(report.exitCode, 0) << report.err;
    EXPECT_NE(report.out.find("communication-bound"), std::string::npos) << report.out;
    const auto check = run({ "check", out });
    EXPECT_EQ(check.exitCode, 0) << check.err;
    EXPECT_NE(check.out.find("import:kineto"), std::string::npos) << check.out;

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
    const auto r = run({ "import", nsys, "-o", out });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("imported 9 kernels, 11 memcpys, 1 memset, 71 API calls and 0 NVTX ranges from " + nsys),
        std::string::npos)
        << r.err;
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
    const auto table = run({ "report", out });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("test0"), std::string::npos) << table.out;
    const auto check = run({ "check", out });
    ASSERT_EQ(check.exitCode, 0) << check.err;
    EXPECT_NE(check.out.find("import:nsys-sqlite"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("integrity:     ok"), std::string::npos) << check.out;

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

TEST_F(Cli, ExportWritesEachFormat)
{
    const auto trace = m_dir.file("trace.json");
    const auto csv = m_dir.file("tables");
    const auto html = m_dir.file("report.html");
    const auto one = run({ "export", m_fixture, "--perfetto", trace });
    EXPECT_EQ(one.exitCode, 0) << one.err;
    EXPECT_FALSE(nlohmann::json::parse(readBytes(trace))["traceEvents"].empty());
    const auto all = run({ "export", m_fixture, "--csv", csv, "--html", html, "--perfetto", trace });
    EXPECT_EQ(all.exitCode, 0) << all.err;
    for (const char* table : { "meta", "devices", "kernels", "kernel_metrics", "memops", "api_calls", "verdicts" })
        EXPECT_TRUE(std::filesystem::is_regular_file(csv + "/" + table + ".csv")) << table;
    EXPECT_NE(readBytes(html).find("<svg"), std::string::npos);
    // No temporary files are left next to the outputs.
    for (const auto& entry : std::filesystem::directory_iterator(m_dir.path()))
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
    const auto help = run({ "export", "--help" });
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("--perfetto"), std::string::npos);
}

TEST_F(Cli, ExportFailuresHaveTheirExitCodes)
{
    const auto noOutput = run({ "export", m_fixture });
    EXPECT_EQ(noOutput.exitCode, 1) << noOutput.err;
    EXPECT_NE(noOutput.err.find("--perfetto"), std::string::npos) << noOutput.err;

    const auto html = m_dir.file("r.html");
    const auto missing = m_dir.file("missing.ridge");
    expectBadInput({ "export", missing, "--html", html }, missing, "");
    const auto garbage = m_dir.file("garbage.ridge");
    writeBytes(garbage, "this is not a session");
    EXPECT_EQ(run({ "export", garbage, "--html", html }).exitCode, 2);
    EXPECT_FALSE(std::filesystem::exists(html));

    const auto nowhere = m_dir.file("no/such/dir/out.json");
    const auto unwritable = run({ "export", m_fixture, "--perfetto", nowhere });
    EXPECT_EQ(unwritable.exitCode, 3) << unwritable.err;
    EXPECT_FALSE(std::filesystem::exists(nowhere));
    // A CSV directory under a regular file cannot be created.
    const auto underFile = run({ "export", m_fixture, "--csv", m_fixture + "/tables" });
    EXPECT_EQ(underFile.exitCode, 3) << underFile.err;
    const auto html2 = run({ "export", m_fixture, "--html", m_dir.file("no/such/dir/r.html") });
    EXPECT_EQ(html2.exitCode, 3) << html2.err;
}

TEST_F(Cli, ReportTimelineWindowAndStep)
{
    // [0, 10 µs) of the small fixture: device 0 runs the copy [0,900) and three vectorAdds
    // [1000,2000) [3000,5000) [6000,9000) -> span 9,000, idle 2,100; device 1 has nothing there.
    const auto json = run({ "report", m_fixture, "--format", "json", "--window", "0:10us" });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["timeline_window"]["start_ns"], 0);
    EXPECT_EQ(doc["timeline_window"]["end_ns"], 10'000);
    ASSERT_EQ(doc["timeline"].size(), 1u);
    EXPECT_EQ(doc["timeline"][0]["device"], 0);
    EXPECT_EQ(doc["timeline"][0]["kernels"], 3);
    EXPECT_EQ(doc["timeline"][0]["span_ns"], 9'000);
    EXPECT_EQ(doc["timeline"][0]["idle_ns"], 2'100);
    EXPECT_EQ(doc["kernels"].size(), 5u) << "the kernel table stays whole-session";

    const auto table = run({ "report", m_fixture, "--window", "0:10us" });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("Timeline of 0 .. 10000 ns:"), std::string::npos) << table.out;

    for (const std::vector<std::string>& bad :
        { std::vector<std::string> { "--window", "5ms:5ms" }, std::vector<std::string> { "--window", "10:2" },
            std::vector<std::string> { "--window", "soon" }, std::vector<std::string> { "--step", "3" } }) {
        std::vector<std::string> args { "report", m_fixture };
        args.insert(args.end(), bad.begin(), bad.end());
        const auto r = run(args);
        EXPECT_EQ(r.exitCode, 1) << bad[1] << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_FALSE(r.err.empty());
    }
    const auto step = run({ "report", m_fixture, "--step", "3" });
    EXPECT_NE(step.err.find("ProfilerStep#3"), std::string::npos) << step.err;
}
