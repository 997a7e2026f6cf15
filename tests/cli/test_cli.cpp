// SPDX-License-Identifier: MIT
// Runs the built `ridgeline` binary as a user would: help, check, report, ceilings, export.
#include "clitest.h"
#include "ridgeline/core/store/sessionformat.h"

#include <algorithm>
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

TEST_F(Cli, HelpListsWorkingCommandsAndExitCodes)
{
    const auto r = run({ "--help" });
    EXPECT_EQ(r.exitCode, 0);
    for (const char* words : { "check", "report", "capture", "devices", "Exit codes", "2  bad input file", "diff" })
        EXPECT_NE(r.out.find(words), std::string::npos) << words;
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
    for (const char* words :
        { "TFLOP/s", "TB/s", "GB/s", "source: NVIDIA H100 Tensor Core GPU datasheet", "per direction" })
        EXPECT_NE(r.out.find(words), std::string::npos) << words;

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
