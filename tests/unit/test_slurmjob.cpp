// SPDX-License-Identifier: MIT
// Slurm's variables in a session (issue 37): read from the environment, kept in the meta, and
// SLURM_PROCID as the rank of the processes a file names none for.
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/core/base/slurmjob.h"
#include "ridgeline/core/cluster/clusterreport.h"
#include "ridgeline/core/cluster/ranksummary.h"
#include "ridgeline/core/store/sessionamend.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "testutil.h"

#include <algorithm>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

core::EnvLookup slurmEnvOf(const std::map<std::string, std::string>& vars)
{
    return [vars](const char* name) -> const char* {
        auto it = vars.find(name);
        return it != vars.end() ? it->second.c_str() : nullptr;
    };
}

std::set<int> slurmRanksIn(const std::string& session)
{
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    std::set<int> ranks;
    for (const auto& p : reader.value().processes().value())
        ranks.insert(p.rank);
    return ranks;
}

std::map<std::string, std::string> slurmMetaIn(const std::string& session)
{
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok()) << reader.error().message;
    return reader.value().meta().value();
}

// A trace without distributedInfo (no rank) and one of rank 1 of a real job.
const std::string kUnrankedTrace = "kineto/distributed_info_unavailable/distributed_info_not_found.json.gz";
const std::string kRankOneTrace = "kineto/trace_filter/sampled_rank-1.json.gz";

core::SlurmJob slurmTask(int procId)
{
    return core::SlurmJob { .procId = procId, .nodeId = 0, .jobId = "4242", .stepId = "3" };
}

} // namespace

TEST(SlurmJob, ReadsTheFourVariables)
{
    auto job = core::slurmJobFromEnvironment(slurmEnvOf(
        { { "SLURM_PROCID", "17" }, { "SLURM_NODEID", "2" }, { "SLURM_JOB_ID", "4242" }, { "SLURM_STEP_ID", "3" } }));
    ASSERT_TRUE(job.ok()) << job.error().message;
    EXPECT_EQ(job.value(), (core::SlurmJob { .procId = 17, .nodeId = 2, .jobId = "4242", .stepId = "3" }));
    const auto meta = core::slurmJobMeta(job.value());
    const std::map<std::string, std::string> expected { { "slurm.procid", "17" }, { "slurm.nodeid", "2" },
        { "slurm.job_id", "4242" }, { "slurm.step_id", "3" } };
    EXPECT_EQ(meta, expected);
}

TEST(SlurmJob, OutsideSlurmIsEmptyAndAddsNoMeta)
{
    auto job = core::slurmJobFromEnvironment(slurmEnvOf({}));
    ASSERT_TRUE(job.ok());
    EXPECT_TRUE(job.value().empty());
    EXPECT_TRUE(core::slurmJobMeta(job.value()).empty());
    // A batch script has a job but no task rank.
    auto batch = core::slurmJobFromEnvironment(slurmEnvOf({ { "SLURM_JOB_ID", "9" }, { "SLURM_STEP_ID", "batch" } }));
    ASSERT_TRUE(batch.ok());
    EXPECT_FALSE(batch.value().procId);
    EXPECT_EQ(core::slurmJobMeta(batch.value()).size(), 2u);
}

TEST(SlurmJob, ARankThatIsNotANumberIsAnErrorNamingTheVariable)
{
    for (const char* bad : { "", "abc", "-1", "1x", " 1", "99999999999" }) {
        auto job = core::slurmJobFromEnvironment(slurmEnvOf({ { "SLURM_PROCID", bad } }));
        ASSERT_TRUE(job.hasError()) << bad;
        EXPECT_EQ(job.error().code, core::ErrorCode::InvalidArgument);
        EXPECT_NE(job.error().message.find("SLURM_PROCID"), std::string::npos) << job.error().message;
    }
    auto node = core::slurmJobFromEnvironment(slurmEnvOf({ { "SLURM_PROCID", "0" }, { "SLURM_NODEID", "x" } }));
    ASSERT_TRUE(node.hasError());
    EXPECT_NE(node.error().message.find("SLURM_NODEID=\"x\""), std::string::npos) << node.error().message;
}

TEST(SlurmJob, DefaultRankFillsOnlyProcessesWithoutOne)
{
    TempDir dir;
    const auto path = dir.file("ranks.ridge");
    {
        auto writer = core::SessionWriter::create(path);
        ASSERT_TRUE(writer.ok()) << writer.error().message;
        for (int rank : { -1, 5, -1 }) {
            core::Process p;
            p.pid = 100 + rank;
            p.host = "node1";
            p.rank = rank;
            ASSERT_TRUE(writer.value().addProcess(p).ok());
        }
        ASSERT_TRUE(writer.value().finish(core::SessionStatus::Complete).ok());
    }
    core::SessionAmendment amendment;
    amendment.defaultRank = 3;
    ASSERT_TRUE(core::amendSession(path, amendment).ok());
    EXPECT_EQ(slurmRanksIn(path), (std::set<int> { 3, 5 }));
}

TEST(SlurmJob, ImportOfOneFileTakesTheTaskRankWhereTheTraceNamesNone)
{
    TempDir dir;
    collectors::ImportRequest plain;
    plain.inputs = { testDataPath(kUnrankedTrace) };
    plain.output = dir.file("plain.ridge");
    ASSERT_TRUE(collectors::importFiles(plain).ok());
    ASSERT_EQ(slurmRanksIn(plain.output), std::set<int> { -1 }); // the trace names no rank
    EXPECT_EQ(slurmMetaIn(plain.output).count("slurm.procid"), 0u);

    collectors::ImportRequest task = plain;
    task.output = dir.file("task.ridge");
    task.job = slurmTask(6);
    task.rankFromJob = true;
    auto imported = collectors::importFiles(task);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    EXPECT_EQ(slurmRanksIn(task.output), std::set<int> { 6 });
    auto meta = slurmMetaIn(task.output);
    EXPECT_EQ(meta["slurm.procid"], "6");
    EXPECT_EQ(meta["slurm.nodeid"], "0");
    EXPECT_EQ(meta["slurm.job_id"], "4242");
    EXPECT_EQ(meta["slurm.step_id"], "3");
    // `ridgeline check` says which task of which job made it.
    auto check = core::checkSession(task.output);
    ASSERT_TRUE(check.ok()) << check.error().message;
    std::ostringstream text;
    core::writeSessionCheck(text, check.value(), false);
    EXPECT_NE(text.str().find("\n  slurm job:     4242, step 3, task 6 on node 0\n"), std::string::npos) << text.str();
}

TEST(SlurmJob, ARankTheTraceNamesIsKept)
{
    TempDir dir;
    collectors::ImportRequest task;
    task.inputs = { testDataPath(kRankOneTrace) };
    task.output = dir.file("one.ridge");
    task.job = slurmTask(0);
    task.rankFromJob = true;
    ASSERT_TRUE(collectors::importFiles(task).ok());
    EXPECT_EQ(slurmRanksIn(task.output), std::set<int> { 1 });
    EXPECT_EQ(slurmMetaIn(task.output)["slurm.procid"], "0"); // the task that imported it
}

TEST(SlurmJob, ImportOfSeveralFilesIntoAFolderTakesNoTaskRank)
{
    // One task importing many files (a batch script): its rank is not theirs.
    TempDir dir;
    collectors::EachImportRequest many;
    many.inputs = { testDataPath(kUnrankedTrace), testDataPath(kRankOneTrace) };
    many.directory = dir.file("runs");
    many.job = slurmTask(0);
    auto imported = collectors::importEach(many);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    ASSERT_EQ(imported.value().size(), 2u);
    for (const auto& each : imported.value())
        ASSERT_TRUE(each.result) << each.error;
    EXPECT_EQ(slurmRanksIn(imported.value()[0].output), std::set<int> { -1 });
    EXPECT_EQ(slurmRanksIn(imported.value()[1].output), std::set<int> { 1 });
    EXPECT_EQ(slurmMetaIn(imported.value()[0].output)["slurm.job_id"], "4242");

    // The same with one file: the task's rank.
    collectors::EachImportRequest one = many;
    one.inputs = { testDataPath(kUnrankedTrace) };
    one.directory = dir.file("one");
    auto single = collectors::importEach(one);
    ASSERT_TRUE(single.ok()) << single.error().message;
    ASSERT_TRUE(single.value()[0].result) << single.value()[0].error;
    EXPECT_EQ(slurmRanksIn(single.value()[0].output), std::set<int> { 0 });
}

TEST(SlurmJob, TheRankReportNamesEachRanksJobAndWarnsAboutMixedJobs)
{
    TempDir dir;
    std::vector<std::string> sessions;
    for (int rank : { 0, 1 }) {
        collectors::ImportRequest task;
        task.inputs = { testDataPath(fmt::format("kineto/trace_filter/sampled_rank-{}.json.gz", rank)) };
        task.output = dir.file(fmt::format("rank-{}.ridge", rank));
        task.job = slurmTask(rank);
        task.rankFromJob = true;
        ASSERT_TRUE(collectors::importFiles(task).ok());
        sessions.push_back(task.output);
    }
    auto gathered = core::gatherRankSummaries(sessions);
    ASSERT_EQ(gathered.ranks.size(), 2u);
    EXPECT_EQ(gathered.ranks[0].job, "4242");
    EXPECT_EQ(gathered.ranks[1].job, "4242");
    auto report = core::buildClusterReport(gathered.ranks);
    for (const auto& w : report.warnings)
        EXPECT_EQ(w.find("Slurm jobs"), std::string::npos) << w;

    // A folder holding two runs: the report still compares them, and says so.
    core::SessionAmendment otherJob;
    otherJob.meta = { { "slurm.job_id", "4243" } };
    ASSERT_TRUE(core::amendSession(sessions[1], otherJob).ok());
    auto mixed = core::gatherRankSummaries(sessions);
    ASSERT_EQ(mixed.ranks.size(), 2u);
    EXPECT_EQ(mixed.ranks[1].job, "4243");
    auto warned = core::buildClusterReport(mixed.ranks);
    const auto said = std::find(warned.warnings.begin(), warned.warnings.end(),
        "the sessions come from 2 Slurm jobs (4242, 4243); their ranks are compared as if of one job");
    EXPECT_NE(said, warned.warnings.end());
}
