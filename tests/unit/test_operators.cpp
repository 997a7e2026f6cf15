// SPDX-License-Identifier: MIT
// PyTorch operators (issue 17): import of cpu_op events with their nesting, the link of each GPU op
// to the operator that launched it, and `report --by op|module`. Every expected figure is worked
// out here from the same real trace with zlib + nlohmann::json, by brute force (for each GPU op:
// its launching call by correlation id, then the smallest cpu_op of the call's thread whose time
// holds the call), not by the importer's stack or the report's index.
#include "kinetobrute.h"
#include "operatortrace.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/operatorlinks.h"
#include "ridgeline/core/output/operatorreport.h"
#include "ridgeline/core/store/sessionmerge.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

using namespace ridgeline::testing::kineto;

struct ExpectedOperators {
    std::map<std::string, std::int64_t> gpuTime, gpuOps, calls, cpuTime;
    std::int64_t total = 0, unattributed = 0, unattributedOps = 0;
    std::int64_t linked = 0, disagrees = 0, unmatched = 0;
};

// GPU time per innermost operator; where a call's External id (other than its correlation id) names
// an operator of its thread that holds it, that operator.
ExpectedOperators expectedByOp(const Trace& t)
{
    ExpectedOperators x;
    for (const auto& op : t.ops) {
        x.calls[op.name] += 1;
        x.cpuTime[op.name] += op.duration();
    }
    const Links links = linkGpuOps(t);
    x.linked = links.linked;
    x.disagrees = links.disagrees;
    x.unmatched = links.unmatched;
    for (std::size_t i = 0; i < t.gpuOps.size(); ++i) {
        const Event& g = t.gpuOps[i];
        x.total += g.duration();
        const auto& op = links.opOfGpuOp[i];
        if (!op) {
            x.unattributed += g.duration();
            ++x.unattributedOps;
            continue;
        }
        x.gpuTime[t.ops[*op].name] += g.duration();
        x.gpuOps[t.ops[*op].name] += 1;
    }
    return x;
}

core::OperatorReport reportOf(const std::string& trace, core::ReportGrouping by, TempDir& dir)
{
    const auto session = dir.file("s.ridge");
    auto imported = collectors::importKineto({ trace }, session, true);
    EXPECT_TRUE(imported.ok()) << imported.error().message;
    auto reader = core::SessionReader::open(session);
    EXPECT_TRUE(reader.ok());
    auto report = core::buildOperatorReport(reader.value(), by);
    EXPECT_TRUE(report.ok()) << report.error().message;
    return std::move(report).value();
}

void expectReportMatches(const std::string& relative)
{
    SCOPED_TRACE(relative);
    const auto path = testDataPath(relative);
    const Trace trace = readTrace(path);
    const ExpectedOperators x = expectedByOp(trace);
    TempDir dir;
    const auto r = reportOf(path, core::ReportGrouping::Op, dir);
    EXPECT_EQ(r.operators, static_cast<std::int64_t>(trace.ops.size()));
    EXPECT_EQ(r.gpuOps, static_cast<std::int64_t>(trace.gpuOps.size())); // none dropped
    EXPECT_EQ(r.gpuTimeNs, x.total);
    EXPECT_EQ(r.unattributedGpuTimeNs, x.unattributed);
    EXPECT_EQ(r.unattributedGpuOps, x.unattributedOps);
    EXPECT_EQ(r.byExternalId, x.linked);
    EXPECT_EQ(r.externalIdDisagrees, x.disagrees);
    EXPECT_EQ(r.externalIdUnmatched, x.unmatched);
    ASSERT_EQ(r.rows.size(), x.calls.size()); // one row per operator name
    std::int64_t attributed = 0;
    for (const auto& row : r.rows) {
        SCOPED_TRACE(row.name);
        EXPECT_EQ(row.gpuTimeNs, x.gpuTime.contains(row.name) ? x.gpuTime.at(row.name) : 0);
        EXPECT_EQ(row.gpuOps, x.gpuOps.contains(row.name) ? x.gpuOps.at(row.name) : 0);
        EXPECT_EQ(row.calls, x.calls.at(row.name));
        EXPECT_EQ(row.cpuTimeNs, x.cpuTime.at(row.name));
        attributed += row.gpuTimeNs;
    }
    EXPECT_EQ(attributed + r.unattributedGpuTimeNs, r.gpuTimeNs);
}

} // namespace

TEST(Operators, GpuTimePerOperatorMatchesABruteForceLinkOfTraceFilterRank0)
{
    expectReportMatches("kineto/trace_filter/sampled_rank-0.json.gz");
}

TEST(Operators, GpuTimePerOperatorMatchesABruteForceLinkOfCriticalPath)
{
    expectReportMatches("kineto/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
}

// These two traces carry the External id on runtime calls: it is used, and checked against time.
TEST(Operators, ExternalIdAgainstCorrelationOnNsResolutionTrace)
{
    const auto path = testDataPath("kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    const ExpectedOperators x = expectedByOp(readTrace(path));
    ASSERT_GT(x.linked, 0); // the trace does link by External id
    expectReportMatches("kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
}

TEST(Operators, ExternalIdAgainstCorrelationOnNcclData)
{
    expectReportMatches("kineto/nccl_parser_config/nccl_data.json.gz");
}

// trace_filter rank 0 has GPU ops launched outside any operator: unattributed, not dropped.
TEST(Operators, TraceFilterHasUnattributedGpuTime)
{
    const ExpectedOperators x = expectedByOp(readTrace(testDataPath("kineto/trace_filter/sampled_rank-0.json.gz")));
    EXPECT_GT(x.unattributed, 0);
    EXPECT_GT(x.total, x.unattributed);
}

// Parent ids against brute force: the smallest other operator of the thread that holds it (of two
// identical ones, the earlier in the file is the parent). ns_resolution_trace lists some parents
// after a child that starts at the same time.
TEST(Operators, NestingMatchesBruteForce)
{
    for (const auto* relative : { "kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
             "kineto/trace_filter/sampled_rank-0.json.gz", "kineto/rank_non_gpu/rank_non_gpu.json.gz" }) {
        SCOPED_TRACE(relative);
        const auto path = testDataPath(relative);
        const Trace t = readTrace(path);
        TempDir dir;
        ASSERT_TRUE(collectors::importKineto({ path }, dir.file("s.ridge"), false).ok());
        auto reader = core::SessionReader::open(dir.file("s.ridge"));
        ASSERT_TRUE(reader.ok());
        auto ops = reader.value().operators();
        ASSERT_TRUE(ops.ok());
        ASSERT_EQ(ops.value().size(), t.ops.size());
        std::int64_t nested = 0;
        std::int64_t mismatches = 0;
        for (std::size_t i = 0; i < t.ops.size(); ++i) {
            const Event& op = t.ops[i];
            const auto& stored = ops.value()[i]; // ids follow the file order
            ASSERT_EQ(stored.name, op.name);
            ASSERT_EQ(stored.startNs, op.start);
            ASSERT_EQ(stored.endNs, op.end);
            std::optional<std::size_t> parent;
            for (std::size_t j : t.opsOfThread.at({ op.pid, op.tid })) {
                const Event& other = t.ops[j];
                if (j == i || !other.holds(op.start, op.end))
                    continue;
                if (other.start == op.start && other.end == op.end && j > i)
                    continue; // identical, listed after: its child
                if (!parent
                    || std::tuple(other.duration(), -other.start, -static_cast<std::int64_t>(j)) < std::tuple(
                           t.ops[*parent].duration(), -t.ops[*parent].start, -static_cast<std::int64_t>(*parent)))
                    parent = j;
            }
            const std::int64_t expected = parent ? static_cast<std::int64_t>(*parent) + 1 : 0;
            mismatches += stored.parentId != expected ? 1 : 0;
            nested += parent ? 1 : 0;
        }
        EXPECT_EQ(mismatches, 0);
        EXPECT_GT(nested, 0);
    }
}

// The synthetic trace of operatortrace.h, with what the real ones lack: python_function modules,
// Module Hierarchy, input shapes, a call stack, and an NCCL kernel launched from a thread without
// operators. ExpectedOperators values by hand, in the comments and in operatortrace.h.
TEST(Operators, ModulesShapesAndUnattributedOnASyntheticTrace)
{
    TempDir dir;
    const auto path = dir.file("synthetic.json");
    std::ofstream(path) << ridgeline::testing::kSyntheticOperatorTrace;
    auto imported = collectors::importKineto({ path }, dir.file("s.ridge"), false);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    EXPECT_EQ(imported.value().operators, 5);
    auto reader = core::SessionReader::open(dir.file("s.ridge"));
    ASSERT_TRUE(reader.ok());
    auto ops = reader.value().operators();
    ASSERT_TRUE(ops.ok());
    ASSERT_EQ(ops.value().size(), 5u);
    const auto& linear = ops.value()[2];
    EXPECT_EQ(linear.domain, "cpu_op");
    EXPECT_EQ(linear.parentId, 2); // inside nn.Module: Linear_0
    EXPECT_EQ(linear.inputDims, "[[8, 4], [2, 4]]");
    EXPECT_EQ(linear.inputTypes, "[\"float\", \"float\"]");
    EXPECT_EQ(linear.callStack, "model.py(3): forward;train.py(9): step");
    EXPECT_EQ(linear.externalId, 11);
    EXPECT_EQ(ops.value()[3].sequenceNumber, 5);
    EXPECT_EQ(ops.value()[3].parentId, 3); // aten::addmm inside aten::linear
    EXPECT_EQ(ops.value()[0].domain, "python_function");

    auto byOp = core::buildOperatorReport(reader.value(), core::ReportGrouping::Op);
    ASSERT_TRUE(byOp.ok());
    std::map<std::string, core::OperatorReportRow> rows;
    for (const auto& row : byOp.value().rows)
        rows[row.name] = row;
    EXPECT_EQ(rows["aten::addmm"].gpuTimeNs, 10'000); // gemm, innermost
    EXPECT_EQ(rows["aten::linear"].gpuTimeNs, 0);
    EXPECT_EQ(rows["aten::linear"].topLevelGpuTimeNs, 10'000); // the top-level cpu_op above aten::addmm
    EXPECT_EQ(rows["aten::linear"].selfCpuTimeNs, 10'000); // 30 µs less aten::addmm's 20 µs
    EXPECT_EQ(rows["aten::mm"].gpuTimeNs, 20'000);
    EXPECT_EQ(byOp.value().unattributedGpuTimeNs, 5'000); // the NCCL kernel of thread 2
    EXPECT_EQ(byOp.value().byExternalId, 2);
    EXPECT_EQ(byOp.value().externalIdDisagrees, 0);

    auto byModule = core::buildOperatorReport(reader.value(), core::ReportGrouping::Module);
    ASSERT_TRUE(byModule.ok());
    std::map<std::string, std::int64_t> gpu;
    for (const auto& row : byModule.value().rows)
        gpu[row.name] = row.gpuTimeNs;
    EXPECT_EQ(gpu["Net_0.Linear_0"], 10'000); // python_function modules, outer to inner
    EXPECT_EQ(gpu["top.Net.fc2"], 20'000); // Module Hierarchy
}

// A session of schema v1 (before operators) opens migrated: no operators, all GPU time unattributed.
TEST(Operators, V1SessionHasNoOperators)
{
    auto reader = core::SessionReader::open(testDataPath("sessions/v1-small.ridge"));
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto counts = reader.value().counts();
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts.value().operators, 0);
    auto report = core::buildOperatorReport(reader.value(), core::ReportGrouping::Op);
    ASSERT_TRUE(report.ok()) << report.error().message;
    EXPECT_TRUE(report.value().rows.empty());
    EXPECT_GT(report.value().gpuTimeNs, 0);
    EXPECT_EQ(report.value().unattributedGpuTimeNs, report.value().gpuTimeNs);
}

// A corrupt chunk of operators (here cut short) is one clear error, not a crash or a wrong answer.
TEST(Operators, ACorruptChunkIsAnError)
{
    TempDir dir;
    const auto session = dir.file("s.ridge");
    ASSERT_TRUE(collectors::importKineto(
        { testDataPath("kineto/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz") }, session,
        false)
                    .ok());
    ridgeline::testing::execSql(session, "UPDATE operator_chunks SET data = substr(data, 1, length(data) - 3)");
    auto reader = core::SessionReader::open(session);
    ASSERT_TRUE(reader.ok());
    auto report = core::buildOperatorReport(reader.value(), core::ReportGrouping::Op);
    ASSERT_FALSE(report.ok());
    EXPECT_EQ(report.error().code, core::ErrorCode::BadFile);
    EXPECT_NE(report.error().message.find("operators are corrupt"), std::string::npos) << report.error().message;
}

// `ridgeline merge` keeps the operators of every input: the merged report by operator is the sum
// of the inputs' reports.
TEST(Operators, MergedSessionsKeepTheirOperators)
{
    TempDir dir;
    std::vector<std::string> sessions;
    std::map<std::string, std::int64_t> expected;
    std::int64_t operators = 0;
    for (int rank = 0; rank < 2; ++rank) {
        const auto trace = testDataPath("kineto/trace_filter/sampled_rank-" + std::to_string(rank) + ".json.gz");
        sessions.push_back(dir.file("rank" + std::to_string(rank) + ".ridge"));
        ASSERT_TRUE(collectors::importKineto({ trace }, sessions.back(), false).ok());
        auto reader = core::SessionReader::open(sessions.back());
        ASSERT_TRUE(reader.ok());
        auto report = core::buildOperatorReport(reader.value(), core::ReportGrouping::Op);
        ASSERT_TRUE(report.ok());
        operators += report.value().operators;
        for (const auto& row : report.value().rows)
            expected[row.name] += row.gpuTimeNs;
    }
    ASSERT_TRUE(core::mergeSessions(sessions, dir.file("merged.ridge"), false).ok());
    auto reader = core::SessionReader::open(dir.file("merged.ridge"));
    ASSERT_TRUE(reader.ok());
    auto merged = core::buildOperatorReport(reader.value(), core::ReportGrouping::Op);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    EXPECT_EQ(merged.value().operators, operators);
    std::map<std::string, std::int64_t> actual;
    for (const auto& row : merged.value().rows)
        actual[row.name] = row.gpuTimeNs;
    EXPECT_EQ(actual, expected);
}

// Found by fuzz_session_rows (regressions/session_rows/opreport-attributed-share-overflow): ops that
// end before they start make unattributed GPU time negative, and a total near INT64_MAX less it
// overflowed. Every difference the writers print saturates, in every format, with a baseline.
TEST(Operators, ReportWritersSaturateHostileTotals)
{
    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    core::OperatorReport now;
    now.path = "now.ridge";
    now.gpuTimeNs = kMax - 1000;
    now.unattributedGpuTimeNs = -999999973399;
    now.rows.push_back(core::OperatorReportRow { .name = "aten::mm", .gpuTimeNs = -5 });
    core::OperatorReport before = now;
    before.path = "before.ridge";
    before.rows.front().gpuTimeNs = kMax;
    for (const auto format : { core::ReportFormat::Table, core::ReportFormat::Csv, core::ReportFormat::Json }) {
        std::ostringstream out;
        core::writeOperatorReport(out, now, { format, 0, &before });
        if (format == core::ReportFormat::Json) {
            const auto json = nlohmann::json::parse(out.str());
            EXPECT_EQ(json["ops"][0]["delta_gpu_time_ns"].get<std::int64_t>(), kMin) << out.str();
        } else if (format == core::ReportFormat::Csv) {
            EXPECT_NE(out.str().find(std::to_string(kMin)), std::string::npos) << out.str();
        } else {
            EXPECT_NE(out.str().find("% of the GPU time attributed"), std::string::npos) << out.str();
        }
    }
}
