// SPDX-License-Identifier: MIT
// Nsight Systems exports of current versions (issue 35): real exports of nsys 2024.6 to 2026.2
// (export schemas 3.16 to 3.25, tests/data/README.md), detected by their tables, imported with
// the version and schema that made them, and the cases those schemas bring: a CPU-only run, whole
// CUDA graph launches, NCCL kernels whose NVTX ranges carry no payload. Every expected number is
// worked out here with plain SQL on the export, never taken from the importer.
#include "nsysimporttest.h"
#include "nsysncclfixture.h"
#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sqlite3.h>
#include <stdexcept>
#include <string>

using namespace ridgeline;
using ridgeline::testing::readBytes;
using ridgeline::testing::sqlCount;
using ridgeline::testing::sqlText;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

bool hasTable(const std::string& path, const std::string& table)
{
    return sqlCount(path, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'") > 0;
}

// Rows of a table, 0 when the export has no such table (tables are created lazily).
std::int64_t rowsOf(const std::string& path, const std::string& table, const std::string& where = "")
{
    if (!hasTable(path, table))
        return 0;
    return sqlCount(path, "SELECT count(*) FROM " + table + (where.empty() ? "" : " WHERE " + where));
}

std::string metaOf(const std::string& path, const std::string& name)
{
    return sqlText(path, "SELECT value FROM META_DATA_EXPORT WHERE name = '" + name + "'");
}

// The value of a Result as a prvalue: a range-for over `reader.x().value()` would dangle.
template <typename T> T takeValue(core::Result<T> result)
{
    return std::move(result).value();
}

bool mentions(const collectors::ImportWarnings& warnings, const std::string& words)
{
    return std::any_of(
        warnings.begin(), warnings.end(), [&](const auto& w) { return w.text.find(words) != std::string::npos; });
}

// The real exports of current versions (tests/data/README.md).
const char* const kCurrentExports[] = {
    "nsys2024.6-fuser-h200.sqlite",
    "nsys2025.1-gemm-no-kernels.sqlite",
    "nsys2025.5-weatherbench2.sqlite",
    "nsys2026.1-mock.sqlite",
    "nsys2026.2-mfu-2gpu-window.sqlite",
};

using NsysCurrent = ridgeline::testing::NsysImportTest;

} // namespace

// nsys 2026.2 writes the schema's pages after others: the first 16 KiB name none of its tables, and
// only reading the tables finds the export.
TEST_F(NsysCurrent, DetectedByTheirTablesWhereverTheSchemaLies)
{
    for (const char* name : kCurrentExports) {
        SCOPED_TRACE(name);
        EXPECT_EQ(collectors::detectFileFormat(testDataPath(std::string("nsys/") + name)).value(),
            collectors::FileFormat::NsightSystemsSqlite);
    }
    const auto late = testDataPath("nsys/nsys2026.2-mfu-2gpu-window.sqlite");
    const auto head = readBytes(late).substr(0, 16384);
    ASSERT_EQ(head.find("CUPTI_ACTIVITY_KIND"), std::string::npos) << "the file's schema moved: pick another file";
    EXPECT_EQ(collectors::detectFormat(head), collectors::FileFormat::OtherSqlite) << "bytes alone cannot tell";

    // A database of another application stays one; one with only the 3.x metadata table is an export.
    const auto other = m_dir.file("other.db");
    ridgeline::testing::execSql(other, "CREATE TABLE notes(text);");
    EXPECT_EQ(collectors::detectFileFormat(other).value(), collectors::FileFormat::OtherSqlite);
    const auto metaOnly = m_dir.file("meta-only.sqlite");
    ridgeline::testing::execSql(metaOnly, "CREATE TABLE META_DATA_EXPORT(name TEXT, value TEXT);");
    EXPECT_EQ(collectors::detectFileFormat(metaOnly).value(), collectors::FileFormat::NsightSystemsSqlite);
}

TEST_F(NsysCurrent, CorruptSqliteGetsOneClearErrorNotACrash)
{
    const auto whole = readBytes(testDataPath("nsys/nsys2026.2-mfu-2gpu-window.sqlite"));
    for (std::size_t keep : { std::size_t { 100 }, std::size_t { 4096 }, whole.size() / 3 }) {
        SCOPED_TRACE(keep);
        const auto path = m_dir.file("cut-" + std::to_string(keep) + ".sqlite");
        ridgeline::testing::writeBytes(path, whole.substr(0, keep));
        collectors::ImportRequest request;
        request.inputs = { path };
        request.output = m_dir.file("cut-" + std::to_string(keep) + ".ridge");
        auto result = collectors::importFiles(request);
        ASSERT_TRUE(result.hasError());
        EXPECT_EQ(result.error().code, core::ErrorCode::BadFile);
        EXPECT_EQ(result.error().message.rfind(path, 0), 0u) << result.error().message;
        EXPECT_EQ(result.error().message.find('\n'), std::string::npos) << result.error().message;
        EXPECT_FALSE(std::filesystem::exists(request.output));
    }
    // Garbage pages behind a valid header: the schema cannot be read.
    std::string garbage = whole.substr(0, 100);
    for (std::size_t i = 0; i < 8192; ++i)
        garbage.push_back(static_cast<char>((i * 131 + 7) & 0xFF));
    const auto path = m_dir.file("garbage.sqlite");
    ridgeline::testing::writeBytes(path, garbage);
    auto detected = collectors::detectFileFormat(path);
    ASSERT_TRUE(detected.hasError());
    EXPECT_EQ(detected.error().code, core::ErrorCode::BadFile);
    EXPECT_NE(detected.error().message.find("cannot be read"), std::string::npos) << detected.error().message;
}

TEST_F(NsysCurrent, CountsVersionAndSchemaOfEveryCurrentExport)
{
    for (const char* name : kCurrentExports) {
        SCOPED_TRACE(name);
        const auto path = testDataPath(std::string("nsys/") + name);
        const auto before = readBytes(path);
        collectors::ImportRequest request;
        request.inputs = { path };
        request.output = m_dir.file(std::string(name) + ".ridge");
        auto imported = collectors::importFiles(request);
        ASSERT_TRUE(imported.ok()) << imported.error().message;
        const auto version = metaOf(path, "EXPORT_PRODUCT_VERSION");
        const auto schema = metaOf(path, "EXPORT_SCHEMA_VERSION");
        ASSERT_FALSE(version.empty());
        EXPECT_NE(imported.value().summary.find("(Nsight Systems " + version + ", export schema " + schema + ")"),
            std::string::npos)
            << imported.value().summary;

        auto reader = takeValue(core::SessionReader::open(request.output));
        const auto counts = reader.counts().value();
        EXPECT_EQ(counts.kernels, rowsOf(path, "CUPTI_ACTIVITY_KIND_KERNEL"));
        EXPECT_EQ(counts.memcpys, rowsOf(path, "CUPTI_ACTIVITY_KIND_MEMCPY"));
        EXPECT_EQ(counts.memsets, rowsOf(path, "CUPTI_ACTIVITY_KIND_MEMSET"));
        EXPECT_EQ(
            counts.apiCalls, rowsOf(path, "CUPTI_ACTIVITY_KIND_RUNTIME") + rowsOf(path, "CUPTI_ACTIVITY_KIND_DRIVER"));
        EXPECT_EQ(counts.nvtxRanges, rowsOf(path, "NVTX_EVENTS", "eventType IN (34, 59, 60)"));
        const auto meta = reader.meta().value();
        EXPECT_EQ(meta.at("nsys_version"), version);
        EXPECT_EQ(meta.at("nsys_export_schema"), schema);
        EXPECT_EQ(readBytes(path), before) << "importing must not modify the export";
    }
}

TEST_F(NsysCurrent, DevicesOfSchema316And324)
{
    for (const char* name : { "nsys2024.6-fuser-h200.sqlite", "nsys2026.1-mock.sqlite" }) {
        SCOPED_TRACE(name);
        const auto path = testDataPath(std::string("nsys/") + name);
        auto reader = import(path);
        const auto devices = takeValue(reader.devices());
        ASSERT_EQ(devices.size(), 1u);
        EXPECT_EQ(devices[0].name, sqlText(path, "SELECT name FROM TARGET_INFO_GPU"));
        EXPECT_EQ(devices[0].ccMajor, sqlCount(path, "SELECT computeMajor FROM TARGET_INFO_GPU"));
        EXPECT_EQ(devices[0].smCount, sqlCount(path, "SELECT smCount FROM TARGET_INFO_GPU"));
        std::set<std::string> names;
        for (const auto& n : takeValue(reader.kernelNames()))
            names.insert(n.raw);
        EXPECT_EQ(static_cast<std::int64_t>(names.size()),
            sqlCount(path,
                "SELECT count(DISTINCT coalesce((SELECT value FROM StringIds WHERE id = mangledName), (SELECT value "
                "FROM StringIds WHERE id = demangledName))) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    }
}

// Derived from a real 3.24 export: TARGET_INFO_GPU without the SM count, which
// TARGET_INFO_CUDA_DEVICE.numMultiprocessors (3.24+) then gives.
TEST_F(NsysCurrent, SmCountFromTheCudaDeviceTable)
{
    const auto path = copyOf("nsys2026.1-mock.sqlite");
    ridgeline::testing::execSql(path, "UPDATE TARGET_INFO_GPU SET smCount = 0;");
    const auto expected = sqlCount(path, "SELECT numMultiprocessors FROM TARGET_INFO_CUDA_DEVICE");
    ASSERT_GT(expected, 0);
    auto reader = import(path);
    const auto devices = takeValue(reader.devices());
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].smCount, expected);
}

// A CUDA run whose export has CUDA tables but no kernel, copy or memset table (tables are made
// lazily), and one of a CPU-only run: both import, and say there is no GPU activity.
TEST_F(NsysCurrent, NoGpuActivityIsAStatementNotAnError)
{
    {
        const auto path = testDataPath("nsys/nsys2025.1-gemm-no-kernels.sqlite");
        ASSERT_FALSE(hasTable(path, "CUPTI_ACTIVITY_KIND_KERNEL"));
        auto reader = import(path);
        EXPECT_FALSE(m_summary.gpuActivity);
        EXPECT_TRUE(mentions(m_summary.warnings, "no GPU activity: the export's CUDA tables hold no kernels"));
        EXPECT_EQ(reader.counts().value().apiCalls, rowsOf(path, "CUPTI_ACTIVITY_KIND_RUNTIME"));
    }
    // Synthetic: a CPU-only run (`nsys profile -t nvtx,osrt`) as the 3.x schema lays it out: no
    // CUPTI_ACTIVITY_KIND_* table at all, no GPU in TARGET_INFO.
    const auto cpu = m_dir.file("cpu-only.sqlite");
    ridgeline::testing::execSql(cpu,
        "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO StringIds VALUES(1, 'load'), (2, 'train');"
        "CREATE TABLE META_DATA_EXPORT(name TEXT, value TEXT);"
        "INSERT INTO META_DATA_EXPORT VALUES('EXPORT_PRODUCT_VERSION', '2025.5.1.121'), "
        "('EXPORT_SCHEMA_VERSION', '3.23.3');"
        "CREATE TABLE TARGET_INFO_SYSTEM_ENV(globalVid INTEGER, devStateName TEXT, name TEXT, nameEnum INTEGER, "
        "value TEXT);"
        "CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);"
        "INSERT INTO PROCESSES VALUES(72057594054705152, 1000, 'python');"
        "CREATE TABLE OSRT_API(start INTEGER NOT NULL, end INTEGER, eventClass INTEGER NOT NULL, "
        "globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
        "INSERT INTO OSRT_API VALUES(10, 20, 27, 72057594054706152, 0, 1, 0);"
        "CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId "
        "INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId "
        "INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value "
        "INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData BLOB);"
        "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, textId, domainId) VALUES"
        "(100, 900, 59, NULL, 72057594054706152, 1, 0), (1000, 5000, 59, 'train', 72057594054706152, NULL, 0);");
    collectors::ImportRequest request;
    request.inputs = { cpu };
    request.output = m_dir.file("cpu-only.ridge");
    auto imported = collectors::importFiles(request);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    EXPECT_TRUE(mentions(imported.value().warnings, "no GPU activity: the export has no CUDA tables"));
    auto reader = takeValue(core::SessionReader::open(request.output));
    EXPECT_EQ(reader.counts().value().kernels, 0);
    EXPECT_EQ(reader.counts().value().nvtxRanges, rowsOf(cpu, "NVTX_EVENTS", "eventType = 59"));
}

// Synthetic rows in a real 3.24 export: `--cuda-graph-trace=graph` records each graph launch in
// CUPTI_ACTIVITY_KIND_GRAPH_TRACE (columns as CUpti_ActivityGraphTrace2 and nsys lay them out) and
// none of its kernels; kernels of graphs traced node by node carry graphId (3.24+) and graphNodeId.
TEST_F(NsysCurrent, WholeGraphLaunchesAreGraphLaunches)
{
    const auto path = copyOf("nsys2026.1-mock.sqlite");
    ridgeline::testing::execSql(path,
        "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId "
        "INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, "
        "correlationId INTEGER, globalPid INTEGER, graphId INTEGER NOT NULL, graphExecId INTEGER NOT NULL);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT start + 1000, start + 5000, deviceId, contextId, NULL, "
        "streamId, 900001, globalPid, 7, 1 FROM CUPTI_ACTIVITY_KIND_KERNEL;"
        "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT start + 9000, start + 9500, deviceId, contextId, NULL, "
        "streamId, 900002, globalPid, 9, 2 FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1;"
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET graphId = 5, graphNodeId = 77 WHERE rowid = "
        "(SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);"
        // CUPTI's two rows that are no time on a GPU: no timestamps; a graph whose first node ran on the host.
        "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT 0, 0, deviceId, contextId, NULL, streamId, 900003, "
        "globalPid, 9, 2 FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1;"
        "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT start + 20000, start + 21000, 2147483647, 2147483647, "
        "NULL, streamId, 900004, globalPid, 9, 2 FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1;");
    const auto kernelRows = rowsOf(path, "CUPTI_ACTIVITY_KIND_KERNEL");
    const auto leftOut
        = rowsOf(path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "(start = 0 AND end = 0) OR deviceId = 2147483647");
    const auto graphRows = rowsOf(path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE") - leftOut;
    auto reader = import(path);
    EXPECT_EQ(m_summary.kernels, kernelRows);
    EXPECT_EQ(m_summary.graphLaunches, graphRows);
    EXPECT_EQ(reader.counts().value().kernels, kernelRows + graphRows);
    const auto untimed = rowsOf(path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "start = 0 AND end = 0");
    EXPECT_TRUE(mentions(m_summary.warnings,
        std::to_string(leftOut) + " CUDA graph launches were left out: " + std::to_string(untimed) + " without times, "
            + std::to_string(leftOut - untimed) + " that started on the host"));
    EXPECT_EQ(takeValue(reader.devices()).size(), 1u) << "no device for the launch that started on the host";
    std::map<std::int64_t, std::string> names;
    for (const auto& n : takeValue(reader.kernelNames()))
        names[n.id] = n.demangled;
    std::int64_t wholeLaunches = 0, ofGraph7 = 0, nodes = 0;
    std::int64_t previousStart = -1;
    for (const auto& k : takeValue(reader.kernels())) {
        EXPECT_GE(k.startNs, previousStart) << "kernels and graph launches in the order they started";
        previousStart = k.startNs;
        if (names[k.nameId].find("(whole launch)") != std::string::npos) {
            ++wholeLaunches;
            EXPECT_EQ(k.graphNodeId, 0);
            EXPECT_EQ(names[k.nameId], "CUDA graph " + std::to_string(k.graphId) + " (whole launch)");
            ofGraph7 += k.graphId == 7 ? 1 : 0;
        }
        if (k.graphNodeId != 0) {
            ++nodes;
            EXPECT_EQ(k.graphId, 5);
            EXPECT_EQ(k.graphNodeId, 77);
        }
    }
    EXPECT_EQ(wholeLaunches, graphRows);
    EXPECT_EQ(ofGraph7, rowsOf(path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "graphId = 7"));
    EXPECT_EQ(nodes, rowsOf(path, "CUPTI_ACTIVITY_KIND_KERNEL", "graphNodeId = 77"));

    collectors::ImportRequest request;
    request.inputs = { path };
    request.output = m_dir.file("graphs.ridge");
    auto imported = collectors::importFiles(request);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    EXPECT_NE(imported.value().summary.find("imported " + std::to_string(kernelRows) + " kernels, "), std::string::npos)
        << imported.value().summary;
    EXPECT_NE(imported.value().summary.find(std::to_string(graphRows) + " CUDA graph launches traced as a whole"),
        std::string::npos)
        << imported.value().summary;
}

// nsys 2026.2, two GPUs, PyTorch all-to-all: NCCL's NVTX ranges (ncclSend, ncclRecv, ncclGroupStart)
// carry no payload, and the window the file was cut to lost the record that named NCCL's domain.
TEST_F(NsysCurrent, NcclKernelsWithoutPayloadsAreCommunicationOfUnknownSize)
{
    const auto path = testDataPath("nsys/nsys2026.2-mfu-2gpu-window.sqlite");
    const auto ncclKernels = sqlCount(path,
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
        "WHERE s.value GLOB 'ncclDevKernel_*' OR s.value GLOB 'ncclKernel_*'");
    ASSERT_GT(ncclKernels, 0);
    ASSERT_EQ(rowsOf(path, "NVTX_EVENTS", "binaryData IS NOT NULL"), 0);
    ASSERT_GT(rowsOf(path, "NVTX_EVENTS",
                  "text GLOB 'nccl[A-Z]*' OR textId IN (SELECT id FROM StringIds WHERE "
                  "value GLOB 'nccl[A-Z]*')"),
        0);
    auto reader = import(path);
    EXPECT_EQ(m_summary.commOps, ncclKernels);
    EXPECT_EQ(m_summary.sizedCommOps, 0);
    EXPECT_TRUE(mentions(m_summary.warnings,
        std::to_string(ncclKernels)
            + " NCCL kernels count as communication, with message sizes unknown: NCCL's NVTX "
              "ranges in the export (ncclSend, ncclGroupStart, ...) carry no payload"));
    const auto ops = takeValue(reader.commOps());
    ASSERT_EQ(static_cast<std::int64_t>(ops.size()), ncclKernels);
    for (const auto& op : ops)
        EXPECT_EQ(op.bytes, 0);
    // No GPU table in this cut-down file: two unnamed devices, as many as the kernels name.
    EXPECT_EQ(static_cast<std::int64_t>(takeValue(reader.devices()).size()),
        sqlCount(path, "SELECT count(DISTINCT deviceId) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}
