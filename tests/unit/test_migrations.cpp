// SPDX-License-Identifier: MIT
// Every released schema version must open in today's code. tests/data/sessions/v1-small.ridge
// was written by the v1 writer (make_fixture small) and is never regenerated: when the schema
// moves on, this test proves the migration from v1 still works.
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"
#include "testutil.h"

#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <sqlite3.h>
#include <string>

using namespace ridgeline::core;
using ridgeline::testing::testDataPath;

namespace {

// A released session (tests/data/sessions) opened in this version: the schema it was written with
// is `version`; what the file held before the open, to show that opening never writes to it.
struct Released {
    std::string path;
    std::string bytesBefore;
    std::optional<SessionReader> reader;
};

Released openReleased(const std::string& relative, int version)
{
    Released out { testDataPath(relative), {}, {} };
    out.bytesBefore = ridgeline::testing::readBytes(out.path);
    auto reader = SessionReader::open(out.path);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    if (reader.ok()) {
        EXPECT_EQ(reader.value().fileSchemaVersion(), version);
        out.reader.emplace(std::move(reader).value());
    }
    return out;
}

// The session's `count` kernels, from before the CUDA-graph columns (v4): none a graph node (0),
// none a graph range.
void expectKernelsWithoutGraphs(SessionReader& r, std::size_t count)
{
    auto kernels = r.kernels();
    ASSERT_TRUE(kernels.ok());
    ASSERT_EQ(kernels.value().size(), count);
    for (const auto& k : kernels.value()) {
        EXPECT_EQ(k.graphNodeId, 0);
        EXPECT_EQ(k.graphRangeKernels, 0);
    }
}

} // namespace

TEST(Migrations, V1SessionOpensInThisVersion)
{
    auto released = openReleased("sessions/v1-small.ridge", 1);
    ASSERT_TRUE(released.reader);
    auto& r = *released.reader;

    auto counts = r.counts();
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts.value().devices, 2);
    EXPECT_EQ(counts.value().kernels, 8);
    EXPECT_EQ(counts.value().kernelNames, 4);
    EXPECT_EQ(counts.value().memcpys, 1);
    EXPECT_EQ(counts.value().memsets, 1);
    EXPECT_EQ(counts.value().commOps, 1);
    EXPECT_EQ(counts.value().metrics, 3);
    EXPECT_EQ(counts.value().verdicts, 1);

    auto rows = summarizeKernels(r);
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(rows.value().size(), 5u);
    EXPECT_EQ(rows.value()[0].name, "ampere_sgemm_128x64_nn");
    EXPECT_EQ(rows.value()[0].totalNs, 24'000);
    // v2 added comm_ops.seq: unrecorded (-1) in a migrated v1 file.
    auto comms = r.commOps();
    ASSERT_TRUE(comms.ok());
    ASSERT_EQ(comms.value().size(), 1u);
    EXPECT_EQ(comms.value()[0].seq, -1);
    // v3 packed the metric values of kernel 1 into one row: the same three values.
    auto metrics = r.metrics(1);
    ASSERT_TRUE(metrics.ok());
    const std::vector<MetricValue> expected { { 1, "dram__bytes.sum", 2'097'152.0, "byte" },
        { 1, "gpu__time_duration.sum", 1000.0, "ns" },
        { 1, "sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 262'144.0, "inst" } };
    EXPECT_EQ(metrics.value(), expected);
    // v4 added kernels.graph_node_id and graph_range_kernels: 0 (none) in a migrated file.
    expectKernelsWithoutGraphs(r, 8);
    // Opening never writes to the file, not even to migrate it.
    EXPECT_EQ(ridgeline::testing::readBytes(released.path), released.bytesBefore);
}

namespace {

// kernel id -> metric name -> value, read from the file's own rows with plain SQL.
std::map<std::int64_t, std::map<std::string, double>> rowsOf(const std::string& path)
{
    std::map<std::int64_t, std::map<std::string, double>> out;
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db,
                  "SELECT m.kernel_id, n.name, m.value FROM kernel_metrics m JOIN metric_names n ON n.id = m.metric_id",
                  -1, &stmt, nullptr),
        SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW)
        out[sqlite3_column_int64(stmt, 0)][reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1))]
            = sqlite3_column_double(stmt, 2);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
}

} // namespace

TEST(Migrations, V2SessionsMetricRowsArePackedOnOpen)
{
    const auto path = testDataPath("sessions/v2-a100-40.ridge");
    const auto rows = rowsOf(path);
    std::size_t rowCount = 0;
    for (const auto& [kernel, values] : rows)
        rowCount += values.size();
    ASSERT_EQ(rows.size(), 40u);
    ASSERT_EQ(rowCount, 840u);

    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto& r = reader.value();
    EXPECT_EQ(r.fileSchemaVersion(), 2);
    EXPECT_EQ(r.counts().value().metrics, 840);
    std::map<std::int64_t, std::map<std::string, double>> read;
    ASSERT_TRUE(r.forEachMetric([&](std::int64_t kernel, const std::string& name, double value) {
                     read[kernel][name] = value;
                 }).ok());
    EXPECT_EQ(read, rows);
    for (const auto& [kernel, values] : rows) {
        auto one = r.metrics(kernel);
        ASSERT_TRUE(one.ok());
        ASSERT_EQ(one.value().size(), values.size());
        for (const auto& m : one.value())
            EXPECT_EQ(m.value, values.at(m.name)) << kernel << " " << m.name;
    }
    // Units come along: the A100 file's DRAM bytes are in bytes.
    auto first = r.metrics(1).value();
    for (const auto& m : first) {
        if (m.name == "dram__bytes.sum") {
            EXPECT_EQ(m.unit, "byte");
        }
    }
}

// A v3 session (the metric store, no CUDA-graph columns) opens as v4: the columns read 0 and the
// packed values are the ones its own rows hold.
TEST(Migrations, V3SessionsGainGraphColumnsOnOpen)
{
    auto released = openReleased("sessions/v3-ncu-raw.ridge", 3);
    ASSERT_TRUE(released.reader);
    auto& r = *released.reader;
    expectKernelsWithoutGraphs(r, 3);
    // raw-roofline.csv has 78 metric values over its 3 kernels (the CLI import test counts them too).
    EXPECT_EQ(r.counts().value().metrics, 78);
    std::size_t read = 0;
    ASSERT_TRUE(r.forEachMetric([&](std::int64_t, const std::string&, double) { ++read; }).ok());
    EXPECT_EQ(read, 78u);
    EXPECT_EQ(ridgeline::testing::readBytes(released.path), released.bytesBefore);
}

// A v5 session with operators (before their Concrete Inputs) opens as v6: each chunk is re-packed
// with the new column empty, and every other column reads as a new import of the same trace does.
TEST(Migrations, V5OperatorsGainConcreteInputsOnOpen)
{
    const std::string trace = "kineto/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz";
    auto released = openReleased("sessions/v5-kineto-operators.ridge", 5);
    ASSERT_TRUE(released.reader);
    auto old = released.reader->operators();
    ASSERT_TRUE(old.ok()) << old.error().message;

    ridgeline::testing::TempDir dir;
    ASSERT_TRUE(ridgeline::collectors::importKineto({ testDataPath(trace) }, dir.file("s.ridge"), false).ok());
    auto reader = SessionReader::open(dir.file("s.ridge"));
    ASSERT_TRUE(reader.ok());
    auto fresh = reader.value().operators();
    ASSERT_TRUE(fresh.ok());
    ASSERT_EQ(old.value().size(), 4u);
    ASSERT_EQ(fresh.value().size(), old.value().size());
    int withConcreteInputs = 0;
    for (std::size_t i = 0; i < fresh.value().size(); ++i) {
        EXPECT_EQ(old.value()[i].concreteInputs, "");
        auto now = fresh.value()[i];
        withConcreteInputs += now.concreteInputs.empty() ? 0 : 1;
        now.concreteInputs.clear();
        EXPECT_EQ(old.value()[i], now) << i;
    }
    // The trace records Concrete Inputs for its cpu_ops; the new import keeps them.
    EXPECT_GT(withConcreteInputs, 0);
    EXPECT_EQ(ridgeline::testing::readBytes(released.path), released.bytesBefore);
}

TEST(Migrations, V6GainsAnEmptyNcuRulesTable)
{
    // output0.ncu-rep imported by the v6 writer: its two kernels, no rule results.
    auto released = openReleased("sessions/v6-ncurep.ridge", 6);
    ASSERT_TRUE(released.reader);
    auto rules = released.reader->ncuRules();
    ASSERT_TRUE(rules.ok()) << rules.error().message;
    EXPECT_TRUE(rules.value().empty());
    EXPECT_EQ(released.reader->counts().value().ncuRules, 0);
    auto old = released.reader->kernels();
    ASSERT_TRUE(old.ok());

    // The same report imported now: the same kernels, and the report's two rule results.
    ridgeline::testing::TempDir dir;
    ASSERT_TRUE(ridgeline::collectors::importNcuRep(
        { testDataPath("ncu/nersc-gpp/output0.ncu-rep") }, dir.file("s.ridge"), false)
                    .ok());
    auto reader = SessionReader::open(dir.file("s.ridge"));
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(reader.value().fileSchemaVersion(), kSchemaVersion);
    EXPECT_EQ(reader.value().kernels().value(), old.value());
    EXPECT_EQ(reader.value().ncuRules().value().size(), 2U);
    auto check = checkSession(released.path);
    ASSERT_TRUE(check.ok());
    EXPECT_TRUE(check.value().problems.empty());
    EXPECT_TRUE(check.value().warnings.empty());
    EXPECT_EQ(ridgeline::testing::readBytes(released.path), released.bytesBefore);
}
