// SPDX-License-Identifier: MIT
// `ridgeline report --by op|module` and `diff --by op`, run as a user runs them on sessions
// imported from real PyTorch traces (tests/data/kineto/). Totals are checked against the trace read
// here with zlib + nlohmann::json; per-operator figures are in tests/unit/test_operators.cpp.
#include "clirun.h"
#include "gunzip.h"
#include "tempdir.h"
#include "testutil.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

using ridgeline::testing::runCli;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

struct TraceTotals {
    std::int64_t gpuTimeNs = 0, gpuOps = 0;
    std::set<std::string> operatorNames;
};

// trace_filter's times are whole µs: ns = µs * 1000 exactly.
TraceTotals totalsOf(const std::string& path)
{
    TraceTotals t;
    const auto doc = nlohmann::json::parse(ridgeline::testing::gunzipFile(path));
    for (const auto& ev : doc["traceEvents"]) {
        if (ev.value("ph", "") != "X" || !ev.contains("cat"))
            continue;
        const auto cat = ev["cat"].get<std::string>();
        if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
            t.gpuTimeNs += std::llround(ev["dur"].get<double>() * 1000.0);
            ++t.gpuOps;
        } else if (cat == "cpu_op") {
            t.operatorNames.insert(ev["name"].get<std::string>());
        }
    }
    return t;
}

class CliOps : public ::testing::Test {
protected:
    void SetUp() override
    {
        for (int rank = 0; rank < 2; ++rank) {
            m_trace[rank] = testDataPath("kineto/trace_filter/sampled_rank-" + std::to_string(rank) + ".json.gz");
            m_session[rank] = m_dir.file("rank" + std::to_string(rank) + ".ridge");
            const auto r = runCli({ "import", m_trace[rank], "-o", m_session[rank] });
            ASSERT_EQ(r.exitCode, 0) << r.err;
        }
    }

    TempDir m_dir;
    std::string m_trace[2];
    std::string m_session[2];
};

} // namespace

TEST_F(CliOps, JsonByOpAddsUpToTheTracesGpuTime)
{
    const auto r = runCli({ "report", m_session[0], "--by", "op", "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    const TraceTotals t = totalsOf(m_trace[0]);
    EXPECT_EQ(json["by"], "op");
    EXPECT_EQ(json["gpu_time_ns"].get<std::int64_t>(), t.gpuTimeNs);
    EXPECT_EQ(json["gpu_ops"].get<std::int64_t>(), t.gpuOps);
    std::int64_t sum = json["unattributed_gpu_time_ns"].get<std::int64_t>();
    std::set<std::string> names;
    for (const auto& op : json["ops"]) {
        sum += op["gpu_time_ns"].get<std::int64_t>();
        names.insert(op["name"].get<std::string>());
        std::int64_t byVerdict = 0;
        for (const auto& [verdict, ns] : op["time_by_verdict_ns"].items())
            byVerdict += ns.get<std::int64_t>();
        EXPECT_EQ(byVerdict, op["gpu_time_ns"].get<std::int64_t>()) << op["name"];
        for (const char* key : { "gpu_ops", "calls", "cpu_time_ns", "kernels", "self_cpu_time_ns" })
            EXPECT_TRUE(op.contains(key)) << key;
    }
    EXPECT_EQ(sum, t.gpuTimeNs); // innermost attribution: every GPU op counted once
    EXPECT_EQ(names, t.operatorNames);
}

TEST_F(CliOps, CsvAndTableByOp)
{
    const auto csv = runCli({ "report", m_session[0], "--by", "op", "--format", "csv" });
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("name,gpu_time_ns,", 0), 0u) << line;
    std::int64_t rows = 0;
    bool unattributed = false;
    while (std::getline(lines, line)) {
        ++rows;
        unattributed = unattributed || line.rfind("(unattributed),", 0) == 0;
    }
    EXPECT_TRUE(unattributed);
    EXPECT_EQ(rows, static_cast<std::int64_t>(totalsOf(m_trace[0]).operatorNames.size()) + 1);

    const auto table = runCli({ "report", m_session[0], "--by", "op", "--top", "5" });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("Operator"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("Showing the top 5"), std::string::npos) << table.out;

    const auto modules = runCli({ "report", m_session[0], "--by", "module", "--format", "json" });
    ASSERT_EQ(modules.exitCode, 0) << modules.err;
    EXPECT_TRUE(nlohmann::json::parse(modules.out).contains("modules"));
}

// diff --by op: before, now and change per operator; the operators gone listed after.
TEST_F(CliOps, DiffByOpComparesEachOperator)
{
    const auto before = nlohmann::json::parse(runCli({ "report", m_session[1], "--by", "op", "-f", "json" }).out);
    const auto diff = runCli({ "diff", m_session[1], m_session[0], "--by", "op", "--format", "json" });
    ASSERT_EQ(diff.exitCode, 0) << diff.err;
    const auto json = nlohmann::json::parse(diff.out);
    std::map<std::string, std::int64_t> beforeTime;
    for (const auto& op : before["ops"])
        beforeTime[op["name"].get<std::string>()] = op["gpu_time_ns"].get<std::int64_t>();
    std::set<std::string> now;
    for (const auto& op : json["ops"]) {
        const auto name = op["name"].get<std::string>();
        now.insert(name);
        const std::int64_t was = beforeTime.contains(name) ? beforeTime[name] : 0;
        EXPECT_EQ(op["delta_gpu_time_ns"].get<std::int64_t>(), op["gpu_time_ns"].get<std::int64_t>() - was) << name;
        EXPECT_EQ(op["baseline"].is_null(), !beforeTime.contains(name)) << name;
    }
    std::set<std::string> gone;
    for (const auto& [name, ns] : beforeTime) {
        if (!now.contains(name))
            gone.insert(name);
    }
    std::set<std::string> listed;
    for (const auto& op : json["baseline"]["gone"])
        listed.insert(op["name"].get<std::string>());
    EXPECT_EQ(listed, gone);

    const auto table = runCli({ "report", m_session[0], "--baseline", m_session[1], "--by", "op" });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("Before"), std::string::npos) << table.out;
}

TEST_F(CliOps, UsageErrors)
{
    EXPECT_EQ(runCli({ "report", m_session[0], "--by", "layer" }).exitCode, 1);
    const auto window = runCli({ "report", m_session[0], "--by", "op", "--window", "0:1ms" });
    EXPECT_EQ(window.exitCode, 1);
    EXPECT_NE(window.err.find("--by kernel only"), std::string::npos) << window.err;
    EXPECT_EQ(runCli({ "report", m_dir.file("missing.ridge"), "--by", "op" }).exitCode, 2);
}
