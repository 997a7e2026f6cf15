// SPDX-License-Identifier: MIT
// Many ranks from the command line (issue 19): `import FILE... -o DIR/`, `summarize`, and
// `report S... --by rank` over sessions, folders and a merged session, on the real two-rank pair.
#include "clitest.h"

#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

using ridgeline::testing::testDataPath;

namespace {

class CliRanks : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        m_traces = { testDataPath("kineto/trace_filter/sampled_rank-0.json.gz"),
            testDataPath("kineto/trace_filter/sampled_rank-1.json.gz") };
    }
    std::vector<std::string> m_traces;
};

} // namespace

TEST_F(CliRanks, ImportIntoAFolderMakesOneSessionPerFile)
{
    const auto folder = m_dir.file("runs") + "/";
    const auto r = run({ "import", m_traces[0], m_traces[1], "-o", folder, "-j", "2" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("imported 2 of 2 files"), std::string::npos) << r.err;
    EXPECT_TRUE(std::filesystem::is_regular_file(folder + "sampled_rank-0.ridge"));
    EXPECT_TRUE(std::filesystem::is_regular_file(folder + "sampled_rank-1.ridge"));
    // Again without --force: refused before anything is written.
    const auto again = run({ "import", m_traces[0], "-o", folder });
    EXPECT_EQ(again.exitCode, 1) << again.err;
    EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
    // Two inputs that would write one session.
    const auto copy = m_dir.file("other/sampled_rank-0.json.gz");
    std::filesystem::create_directories(m_dir.file("other"));
    std::filesystem::copy_file(m_traces[0], copy);
    const auto clash = run({ "import", m_traces[0], copy, "-o", m_dir.file("clash") + "/" });
    EXPECT_EQ(clash.exitCode, 1) << clash.err;
    EXPECT_NE(clash.err.find("would both be imported"), std::string::npos) << clash.err;
    // A file that is not a trace fails on its own; the others are imported.
    const auto mixed = run({ "import", m_traces[1], m_fixture, "-o", m_dir.file("mixed") + "/" });
    EXPECT_EQ(mixed.exitCode, 2) << mixed.err;
    EXPECT_TRUE(std::filesystem::is_regular_file(m_dir.file("mixed/sampled_rank-1.ridge")));
    EXPECT_NE(mixed.err.find("imported 1 of 2 files"), std::string::npos) << mixed.err;
}

TEST_F(CliRanks, ReportByRankOverFilesFoldersAndAMergedSession)
{
    const auto folder = m_dir.file("runs") + "/";
    ASSERT_EQ(run({ "import", m_traces[0], m_traces[1], "-o", folder }).exitCode, 0);
    const auto a = folder + "sampled_rank-0.ridge", b = folder + "sampled_rank-1.ridge";
    const auto json = run({ "report", a, b, "--by", "rank", "--format", "json" });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    ASSERT_EQ(doc["ranks"].size(), 2u);
    for (const char* key : { "rank", "host", "span_ns", "busy_ns", "idle_ns", "compute_ns", "communication_ns",
             "comm_wait_ns", "top_kernels" }) {
        EXPECT_TRUE(doc["ranks"][0].contains(key)) << key;
    }
    EXPECT_EQ(doc["ranks"][0]["rank"], 0);
    EXPECT_EQ(doc["ranks"][1]["rank"], 1);
    EXPECT_TRUE(doc.contains("slow_ranks"));
    EXPECT_EQ(doc["cluster"]["ranks"], 2);
    EXPECT_GT(doc["cluster"]["instances"].get<int>(), 0);
    // The folder gives the same rows; so does the merged session (apart from the file names).
    const auto byFolder = nlohmann::json::parse(run({ "report", folder, "--by", "rank", "--format", "json" }).out);
    EXPECT_EQ(byFolder["ranks"], doc["ranks"]);
    const auto merged = m_dir.file("merged.ridge");
    ASSERT_EQ(run({ "merge", a, b, "-o", merged }).exitCode, 0);
    auto one = nlohmann::json::parse(run({ "report", merged, "--by", "rank", "--format", "json" }).out);
    auto two = doc;
    for (auto* d : { &one, &two })
        for (auto& row : (*d)["ranks"])
            row.erase("session");
    EXPECT_EQ(one["ranks"], two["ranks"]);
    EXPECT_EQ(one["slow_ranks"], two["slow_ranks"]);
    // Table within 120 columns; CSV one row per rank.
    const auto table = run({ "report", a, b, "--by", "rank" });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    std::size_t widest = 0, start = 0;
    for (std::size_t end; (end = table.out.find('\n', start)) != std::string::npos; start = end + 1)
        widest = std::max(widest, end - start);
    EXPECT_LE(widest, 120u) << table.out;
    const auto csv = run({ "report", a, b, "--by", "rank", "--format", "csv" });
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 3) << csv.out;
}

TEST_F(CliRanks, SummarizeStoresWhatTheReportThenReads)
{
    const auto folder = m_dir.file("runs") + "/";
    ASSERT_EQ(run({ "import", m_traces[0], m_traces[1], "-o", folder }).exitCode, 0);
    const auto fresh = run({ "report", folder, "--by", "rank", "--format", "json", "--fresh" });
    const auto s = run({ "summarize", folder });
    ASSERT_EQ(s.exitCode, 0) << s.err;
    EXPECT_NE(s.out.find("sampled_rank-0.ridge: 1 rank summarised (0)"), std::string::npos) << s.out;
    const auto stored = run({ "report", folder, "--by", "rank", "--format", "json" });
    EXPECT_EQ(nlohmann::json::parse(stored.out), nlohmann::json::parse(fresh.out));
    // The session itself is still whole.
    EXPECT_EQ(run({ "check", folder + "sampled_rank-0.ridge" }).exitCode, 0);
}

// summarize also stores the session's timeline analysis: `report` of the session then reads it and
// says the same; `check` compares it with the ops and warns (--strict: exit 2) when it differs.
TEST_F(CliRanks, SummarizeStoresTheTimelineThatReportAndCheckRead)
{
    const auto session = m_dir.file("rank0.ridge");
    ASSERT_EQ(run({ "import", m_traces[0], "-o", session }).exitCode, 0);
    const auto scanned = run({ "report", session, "--format", "json" });
    ASSERT_EQ(scanned.exitCode, 0) << scanned.err;
    ASSERT_EQ(run({ "summarize", session }).exitCode, 0);
    const auto stored = run({ "report", session, "--format", "json" });
    ASSERT_EQ(stored.exitCode, 0) << stored.err;
    const auto timeline = nlohmann::json::parse(stored.out).at("timeline");
    ASSERT_FALSE(timeline.empty());
    EXPECT_EQ(timeline, nlohmann::json::parse(scanned.out).at("timeline"));
    EXPECT_EQ(run({ "check", "--strict", session }).exitCode, 0);

    ridgeline::testing::execSql(session,
        "UPDATE timeline_summaries SET data = json_set(data, '$.compute_ns', json_extract(data, '$.compute_ns') + 1)");
    const auto doctored = run({ "report", session, "--format", "json" });
    EXPECT_NE(nlohmann::json::parse(doctored.out).at("timeline"), timeline) << "the stored rows are what it reads";
    const auto check = run({ "check", "--strict", session });
    EXPECT_EQ(check.exitCode, 2);
    EXPECT_NE(check.err.find("a stored timeline analysis that differs from the GPU ops"), std::string::npos)
        << check.err;
}

TEST_F(CliRanks, BadSessionsAmongGoodOnesAreLeftOutAndNamed)
{
    const auto folder = m_dir.file("runs") + "/";
    ASSERT_EQ(run({ "import", m_traces[0], "-o", folder }).exitCode, 0);
    const auto missing = m_dir.file("missing.ridge");
    const auto r = run({ "report", folder + "sampled_rank-0.ridge", missing, "--by", "rank" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("left out"), std::string::npos) << r.out;
    const auto none = run({ "report", missing, m_dir.file("also-missing.ridge"), "--by", "rank" });
    EXPECT_EQ(none.exitCode, 2) << none.err;
    EXPECT_TRUE(none.out.empty()) << none.out;
    EXPECT_NE(none.err.find("no session could be read"), std::string::npos) << none.err;
    // One session only for the other groupings.
    const auto usage = run({ "report", m_fixture, m_fixture, "--by", "kernel" });
    EXPECT_EQ(usage.exitCode, 1);
    EXPECT_NE(usage.err.find("--by rank"), std::string::npos) << usage.err;
}

// What each task of `srun -n 2` runs (issue 37): file names with the task's SLURM_PROCID in them,
// the task's rank where a trace names none, and the job in the meta.
TEST_F(CliRanks, EachSlurmTaskImportsAndSummarisesItsOwnFile)
{
    using ridgeline::testing::runCli;
    using ridgeline::testing::RunOptions;
    const auto pattern = ridgeline::testing::testDataPath("kineto/trace_filter/sampled_rank-%q{SLURM_PROCID}.json.gz");
    const auto folder = m_dir.file("runs2") + "/";
    for (int task : { 0, 1 }) {
        RunOptions slurm;
        slurm.env = { "SLURM_PROCID=" + std::to_string(task), "SLURM_NODEID=0", "SLURM_JOB_ID=55", "SLURM_STEP_ID=2" };
        const auto imported = runCli({ "import", pattern, "-o", folder }, slurm);
        ASSERT_EQ(imported.exitCode, 0) << imported.err;
        const auto summarised = runCli({ "summarize", folder + "sampled_rank-%q{SLURM_PROCID}.ridge" }, slurm);
        ASSERT_EQ(summarised.exitCode, 0) << summarised.err;
        EXPECT_NE(summarised.out.find(fmt::format("sampled_rank-{}.ridge: 1 rank summarised ({})", task, task)),
            std::string::npos)
            << summarised.out;
    }
    const auto doc = nlohmann::json::parse(run({ "report", folder, "--by", "rank", "--format", "json" }).out);
    ASSERT_EQ(doc["ranks"].size(), 2u);
    EXPECT_EQ(doc["ranks"][1]["rank"], 1);
    // Outside a job the variable is missing: one clear error, nothing imported.
    const auto outside = run({ "import", pattern, "-o", m_dir.file("none") + "/" });
    EXPECT_EQ(outside.exitCode, 1) << outside.err;
    EXPECT_NE(outside.err.find("environment variable SLURM_PROCID is not set"), std::string::npos) << outside.err;
    EXPECT_FALSE(std::filesystem::exists(m_dir.file("none")));
    const auto badOutput = run({ "import", m_traces[0], "-o", m_dir.file("x-%z.ridge") });
    EXPECT_EQ(badOutput.exitCode, 1) << badOutput.err;
    EXPECT_NE(badOutput.err.find("-o "), std::string::npos) << badOutput.err;
    EXPECT_NE(badOutput.err.find("unknown escape %z"), std::string::npos) << badOutput.err;
}
