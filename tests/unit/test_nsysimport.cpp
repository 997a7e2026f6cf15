// SPDX-License-Identifier: MIT
// Importing the real Nsight Systems SQLite exports of tests/data/nsys/ (two schema generations,
// see the README there). Every expected count is computed here with plain SQL on the export
// itself, independently of the importer.
#include "gpuidentity.h"
#include "nsysimporttest.h"
#include "nsysncclfixture.h"
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <tuple>

using namespace ridgeline;
using ridgeline::testing::readBytes;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

using ridgeline::testing::sqlCount;

// The value of a Result as a prvalue: a range-for over `reader.x().value()` would dangle.
template <typename T> T valueOf(core::Result<T> result)
{
    return std::move(result).value();
}

std::set<std::string> sqlStrings(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    std::set<std::string> values;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
            while (sqlite3_step(stmt) == SQLITE_ROW)
                values.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return values;
}

struct ExpectedExport {
    std::int64_t kernels, memcpys, memsets, apiCalls, nvtx;
};

ExpectedExport countedBySql(const std::string& path)
{
    return {
        sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
        sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"),
        sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"),
        sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"),
        // Marks (34), push/pop ranges (59), start/end ranges (60); not domain or category records.
        sqlCount(path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)"),
    };
}

using NsysImport = ridgeline::testing::NsysImportTest;

} // namespace

TEST_F(NsysImport, CountsPerTableMatchPlainSqlAndTheExportIsUntouched)
{
    for (const char* name : { "concurrent-kernels.sqlite", "concurrent-profile1.sqlite", "ex-gpu.s100.sqlite" }) {
        SCOPED_TRACE(name);
        const auto path = testDataPath(std::string("nsys/") + name);
        const auto before = readBytes(path);
        const ExpectedExport expected = countedBySql(path);
        auto reader = import(path);
        const auto counts = reader.counts().value();
        EXPECT_EQ(counts.kernels, expected.kernels);
        EXPECT_EQ(counts.memcpys, expected.memcpys);
        EXPECT_EQ(counts.memsets, expected.memsets);
        EXPECT_EQ(counts.apiCalls, expected.apiCalls);
        EXPECT_EQ(counts.nvtxRanges, expected.nvtx);
        EXPECT_EQ(counts.verdicts, expected.kernels);
        EXPECT_EQ(m_summary.kernels, expected.kernels);
        EXPECT_EQ(m_summary.memcpys, expected.memcpys);
        EXPECT_EQ(m_summary.memsets, expected.memsets);
        EXPECT_EQ(m_summary.apiCalls, expected.apiCalls);
        EXPECT_EQ(m_summary.nvtxRanges, expected.nvtx);
        // Kernel names: the demangled names of the export, each stored once.
        std::set<std::string> names;
        for (const auto& n : valueOf(reader.kernelNames()))
            names.insert(n.demangled);
        EXPECT_EQ(names,
            sqlStrings(
                path, "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName"));
        // Times are kept as the export has them (ns since the session start).
        EXPECT_EQ(reader.gpuTimeSpan().value().endNs,
            std::max(sqlCount(path, "SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
                sqlCount(path,
                    "SELECT max(end) FROM (SELECT end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT end "
                    "FROM CUPTI_ACTIVITY_KIND_MEMSET)")));
        // No counters in an nsys export: every verdict is unknown.
        for (const auto& v : valueOf(reader.verdicts()))
            EXPECT_EQ(v.verdict, core::VerdictClass::Unknown);
        const auto meta = reader.meta().value();
        EXPECT_EQ(meta.at("source"), "import:nsys-sqlite");
        EXPECT_EQ(meta.at("origin"), name);
        EXPECT_EQ(meta.at("status"), "complete");
        EXPECT_TRUE(reader.integrityProblems().value().empty());
        EXPECT_EQ(readBytes(path), before) << "importing must not modify the export";
    }
}

TEST_F(NsysImport, ConKernelReferenceCountsDevicesAndCopies)
{
    const auto path = testDataPath("nsys/concurrent-kernels.sqlite");
    auto reader = import(path);
    const auto counts = reader.counts().value();
    // trace-formats.md §3: 9 kernels, 11 memcpy, 1 memset, 71 runtime calls.
    EXPECT_EQ(counts.kernels, 9);
    EXPECT_EQ(counts.memcpys, 11);
    EXPECT_EQ(counts.memsets, 1);
    EXPECT_EQ(counts.apiCalls, 71);
    EXPECT_EQ(counts.nvtxRanges, 0);
    EXPECT_EQ(m_summary.productVersion, "2022.1.1.61");
    EXPECT_EQ(reader.meta().value().at("nsys_version"), "2022.1.1.61");

    // The export lists three adapters; only the CUDA GPU becomes a device.
    const auto devices = reader.devices().value();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(ridgeline::testing::gpuIdentity(devices[0]),
        std::make_tuple(0, "GeForce GTX 1060 with Max-Q Design", 6, 1, 10));
    EXPECT_EQ(devices[0].coreClockKhz, 1'341'500);
    EXPECT_EQ(devices[0].memoryBytes, 6'442'450'944);

    // copyKind=1, srcKind=1, dstKind=2: host to device, pinned -> device.
    const auto pinnedToDevice = sqlCount(
        path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 1 AND dstKind = 2");
    const auto deviceToPinned = sqlCount(
        path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 2 AND srcKind = 2 AND dstKind = 1");
    ASSERT_GT(pinnedToDevice, 0);
    std::int64_t htod = 0, dtoh = 0, memsets = 0;
    for (const auto& m : valueOf(reader.memOps())) {
        if (m.kind == core::MemOpKind::MemcpyHtoD && m.srcMemory == "pinned" && m.dstMemory == "device")
            ++htod;
        if (m.kind == core::MemOpKind::MemcpyDtoH && m.srcMemory == "device" && m.dstMemory == "pinned")
            ++dtoh;
        if (m.kind == core::MemOpKind::Memset) {
            ++memsets;
            EXPECT_GT(m.bytes, 0);
        }
        EXPECT_EQ(m.deviceId, 0);
        EXPECT_GE(m.endNs, m.startNs);
    }
    EXPECT_EQ(htod, pinnedToDevice);
    EXPECT_EQ(dtoh, deviceToPinned);
    EXPECT_EQ(memsets, 1);

    // Names: mangled as raw, demangled as the export gives it.
    bool found = false;
    for (const auto& n : valueOf(reader.kernelNames())) {
        if (n.raw == "_Z5test0Pdyy") {
            found = true;
            EXPECT_EQ(n.demangled, "test0(double *, unsigned long long, unsigned long long)");
        }
    }
    EXPECT_TRUE(found);

    // The profiled process and its threads, pid from globalPid / globalTid.
    const auto processes = reader.processes().value();
    const auto pids = sqlStrings(path, "SELECT DISTINCT (globalPid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL");
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_EQ(std::to_string(processes[0].pid), *pids.begin());
    const auto threads = reader.threads().value();
    EXPECT_EQ(static_cast<std::int64_t>(threads.size()),
        sqlCount(path, "SELECT count(DISTINCT globalTid) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    for (const auto& call : valueOf(reader.apiCalls()))
        EXPECT_EQ(call.domain, "runtime");
}

TEST_F(NsysImport, ProfileWithNvtxRangesDomainsAndMarks)
{
    const auto path = testDataPath("nsys/concurrent-profile1.sqlite");
    auto reader = import(path);
    const auto ranges = reader.nvtxRanges().value();
    ASSERT_EQ(static_cast<std::int64_t>(ranges.size()),
        sqlCount(path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)"));
    const auto domainName = *sqlStrings(path, "SELECT text FROM NVTX_EVENTS WHERE eventType = 75").begin();
    bool sawMain = false;
    for (const auto& r : ranges) {
        EXPECT_GE(r.endNs, r.startNs);
        EXPECT_EQ(r.domain, domainName);
        if (r.name == "main") {
            sawMain = true;
            EXPECT_EQ(r.startNs, sqlCount(path, "SELECT start FROM NVTX_EVENTS WHERE text = 'main'"));
            EXPECT_EQ(r.endNs, sqlCount(path, "SELECT end FROM NVTX_EVENTS WHERE text = 'main'"));
        }
    }
    EXPECT_TRUE(sawMain);
}

TEST_F(NsysImport, OlderExportWithoutMangledNamesCopiesOrNvtx)
{
    const auto path = testDataPath("nsys/ex-gpu.s100.sqlite");
    auto reader = import(path);
    const auto devices = reader.devices().value();
    ASSERT_EQ(static_cast<std::int64_t>(devices.size()), sqlCount(path, "SELECT count(*) FROM TARGET_INFO_GPU"));
    for (const auto& d : devices) {
        EXPECT_EQ(d.name, "A100-PCIE-40GB");
        EXPECT_EQ(d.ccMajor, 8); // from TARGET_INFO_CUDA_GPU
        EXPECT_EQ(d.smCount, 108);
        EXPECT_EQ(d.coreClockKhz, 1'410'000);
        EXPECT_FALSE(valueOf(reader.ceilings(d.id)).empty()) << "the A100 PCIe 40GB is catalogued";
    }
    EXPECT_TRUE(m_summary.warnings.empty());
    for (const auto& n : valueOf(reader.kernelNames()))
        EXPECT_EQ(n.raw, n.demangled);
    const auto counts = reader.counts().value();
    EXPECT_EQ(counts.memcpys + counts.memsets + counts.nvtxRanges, 0);
    EXPECT_EQ(counts.kernels, 6);
}

TEST_F(NsysImport, EnumTablesWhenPresentAndNonUtf8Text)
{
    // A crafted variant of a real export: newer exports carry ENUM tables (here with deliberately
    // different ids, to show that they win over the built-in table), and text is bytes.
    const auto path = copyOf("concurrent-kernels.sqlite");
    ridgeline::testing::execSql(path,
        "CREATE TABLE ENUM_CUDA_MEM_KIND(id INTEGER, name TEXT, label TEXT);"
        "INSERT INTO ENUM_CUDA_MEM_KIND VALUES(1, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed'),"
        "(2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC', 'Device Static');"
        "CREATE TABLE ENUM_CUDA_MEMCPY_OPER(id INTEGER, name TEXT, label TEXT);"
        "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES(1, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device');"
        "UPDATE StringIds SET value = CAST(X'6B65726E656CE1' AS TEXT) WHERE id = "
        "(SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1);");
    auto reader = import(path);
    std::int64_t relabelled = 0;
    for (const auto& m : valueOf(reader.memOps())) {
        if (m.kind == core::MemOpKind::MemcpyDtoD && m.srcMemory == "managed" && m.dstMemory == "device-static")
            ++relabelled;
    }
    EXPECT_EQ(relabelled,
        sqlCount(path,
            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 1 AND "
            "dstKind = 2"));
    std::set<std::string> demangled;
    for (const auto& n : valueOf(reader.kernelNames()))
        demangled.insert(n.demangled);
    EXPECT_TRUE(demangled.contains(std::string("kernel\xE1"))) << "non-UTF-8 bytes are stored as they are";
}

TEST_F(NsysImport, AbsentTablesExtraTablesAndNoGpuActivity)
{
    const auto path = copyOf("concurrent-profile1.sqlite");
    ridgeline::testing::execSql(path,
        "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;"
        "DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET; DROP TABLE StringIds; CREATE TABLE MY_OWN_TABLE(x);");
    auto reader = import(path);
    const auto counts = reader.counts().value();
    EXPECT_EQ(counts.kernels, 0);
    EXPECT_EQ(counts.memcpys + counts.memsets, 0);
    EXPECT_EQ(counts.apiCalls, sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    const bool warned = std::any_of(m_summary.warnings.begin(), m_summary.warnings.end(),
        [](const auto& w) { return w.text.find("no GPU activity") != std::string::npos; });
    EXPECT_TRUE(warned);
    EXPECT_NE(reader.meta().value().at("warning").find("no GPU activity"), std::string::npos);
}

// Asking for a virtual table's columns runs its module's code (and fails for a module this build
// lacks): schema discovery leaves virtual tables out, in the same one statement that reads the
// columns of every other table.
TEST_F(NsysImport, VirtualTablesAreNeverConnected)
{
    const auto path = copyOf("concurrent-kernels.sqlite");
    ridgeline::testing::execSql(path,
        "CREATE TABLE MY_SEARCH_INDEX(a, b); PRAGMA writable_schema = ON;"
        "UPDATE sqlite_schema SET sql = 'CREATE VIRTUAL TABLE MY_SEARCH_INDEX USING no_such_module(a, b)', "
        "rootpage = 0 WHERE name = 'MY_SEARCH_INDEX';");
    auto reader = import(path);
    EXPECT_EQ(reader.counts().value().kernels, sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST_F(NsysImport, HostileValuesDoNotBreakTheImport)
{
    const auto path = copyOf("concurrent-kernels.sqlite");
    ridgeline::testing::execSql(path,
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridX = -5, blockY = 'lots', end = start - 100, "
        "registersPerThread = 99999999999;"
        "CREATE VIEW NVTX_EVENTS AS SELECT 1 AS start, 59 AS eventType;");
    auto reader = import(path);
    for (const auto& k : valueOf(reader.kernels())) {
        EXPECT_EQ(k.durationNs(), 0);
        EXPECT_EQ(k.grid.x, 1u);
        EXPECT_GE(k.registersPerThread, 0);
    }
    EXPECT_EQ(reader.counts().value().nvtxRanges, 0) << "views are never read";
}

TEST_F(NsysImport, TruncatedAndForeignFilesGetOneClearError)
{
    const auto whole = readBytes(testDataPath("nsys/concurrent-profile1.sqlite"));
    const auto truncated = m_dir.file("truncated.sqlite");
    ridgeline::testing::writeBytes(truncated, whole.substr(0, whole.size() / 3));
    auto result = collectors::importNsysSqlite(truncated, m_session, false);
    ASSERT_TRUE(result.hasError());
    EXPECT_EQ(result.error().code, core::ErrorCode::BadFile);
    EXPECT_EQ(result.error().message.rfind(truncated, 0), 0u) << result.error().message;
    EXPECT_EQ(result.error().message.find('\n'), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(m_session));

    const auto foreign = m_dir.file("foreign.sqlite");
    ridgeline::testing::execSql(foreign, "CREATE TABLE notes(text); INSERT INTO notes VALUES('hello');");
    result = collectors::importNsysSqlite(foreign, m_session, false);
    ASSERT_TRUE(result.hasError());
    EXPECT_EQ(result.error().code, core::ErrorCode::BadFile);
    EXPECT_NE(result.error().message.find("not an Nsight Systems export"), std::string::npos) << result.error().message;
    EXPECT_FALSE(std::filesystem::exists(m_session));

    // Through the dispatcher too (it recognises the export by content).
    collectors::ImportRequest request;
    request.inputs = { truncated };
    request.output = m_session;
    auto dispatched = collectors::importFiles(request);
    ASSERT_TRUE(dispatched.hasError());
    EXPECT_EQ(dispatched.error().code, core::ErrorCode::BadFile);
    request.inputs = { testDataPath("nsys/concurrent-kernels.sqlite") };
    auto imported = collectors::importFiles(request);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    EXPECT_EQ(imported.value().format, collectors::FileFormat::NsightSystemsSqlite);
    EXPECT_NE(
        imported.value().summary.find("imported 9 kernels, 11 memcpys, 1 memset, 71 API calls"), std::string::npos)
        << imported.value().summary;
}

TEST(NsysEncodings, GlobalIdsAndEnumerations)
{
    // globalPid of the profiled process in concurrent-kernels.sqlite: pid 5360.
    EXPECT_EQ(collectors::nsys::pidOf(72057683963805696), 5360);
    EXPECT_EQ(collectors::nsys::tidOf(72057683963809776), 72057683963809776 & 0xFFFFFF);
    EXPECT_EQ(collectors::nsys::memOpKindOf(1), core::MemOpKind::MemcpyHtoD);
    EXPECT_EQ(collectors::nsys::memOpKindOf(2), core::MemOpKind::MemcpyDtoH);
    EXPECT_EQ(collectors::nsys::memOpKindOf(8), core::MemOpKind::MemcpyDtoD);
    EXPECT_EQ(collectors::nsys::memOpKindOf(10), core::MemOpKind::MemcpyPtoP);
    EXPECT_EQ(collectors::nsys::memOpKindOf(42), core::MemOpKind::Other);
    EXPECT_EQ(collectors::nsys::memOpKindOfLabel("Host-to-Device"), core::MemOpKind::MemcpyHtoD);
    EXPECT_EQ(collectors::nsys::memOpKindOfLabel("CUDA_MEMCPY_KIND_DTOH"), core::MemOpKind::MemcpyDtoH);
    EXPECT_EQ(collectors::nsys::memOpKindOfLabel("Peer-to-Peer"), core::MemOpKind::MemcpyPtoP);
    EXPECT_EQ(collectors::nsys::memOpKindOfLabel("Array-to-Host"), core::MemOpKind::MemcpyDtoH);
    EXPECT_FALSE(collectors::nsys::memOpKindOfLabel("Unknown").has_value());
    EXPECT_EQ(collectors::nsys::memoryKindOf(0), "pageable");
    EXPECT_EQ(collectors::nsys::memoryKindOf(1), "pinned");
    EXPECT_EQ(collectors::nsys::memoryKindOf(2), "device");
    EXPECT_EQ(collectors::nsys::memoryKindOf(5), "device-static");
    EXPECT_EQ(collectors::nsys::memoryKindOf(99), "unknown");
    EXPECT_EQ(collectors::nsys::memoryKindOfLabel("CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC"), "managed-static");
    EXPECT_EQ(collectors::nsys::memoryKindOfLabel("Pinned"), "pinned");
}
