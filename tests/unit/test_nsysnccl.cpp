// SPDX-License-Identifier: MIT
// Message sizes of NCCL collectives from an Nsight Systems export's NVTX payloads. The exports
// here are BUILT BY CONSTRUCTION from the documentation (nsysncclfixture.h names the sources): no
// real export with NCCL payloads is available. Every expected number is worked out here from the
// payloads the test writes.
#include "nsysncclfixture.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/output/collectivereport.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>
#include <stdexcept>

using namespace ridgeline;
using namespace ridgeline::testing::nccl;
using ridgeline::testing::TempDir;

namespace {

constexpr std::uint64_t kComm = 0xABCDEF0123456789ull; // above 2^63: kept as its bits
constexpr int kRanks = 2;
const std::string kAllReduceKernel = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string kAllGatherKernel = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string kBroadcastKernel = "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

class NsysNccl : public ::testing::Test {
protected:
    // Rank 0 of a 2-rank communicator: init, then an AllReduce and an AllGather each launching its
    // kernel, a group of an AllReduce and a Broadcast launched at ncclGroupEnd, and a
    // ReduceScatter whose range launches nothing.
    void writeScenario(ExportBuilder& b)
    {
        const auto d = ExportBuilder::kDomain;
        m_events[1'000] = b.range(
            "ncclCommInitRank", 1'000, 2'000, blobOf(d, kCommInitRankSchema, CommInitRank { kComm, kRanks, 0, 0 }));
        m_events[10'000] = b.range(
            "ncclAllReduce", 10'000, 20'000, blobOf(d, kAllReduceSchema, AllReduce { kComm, m_allReduceBytes, 0 }));
        b.launch(12'000, 13'000, 101, kAllReduceKernel, 30'000, 130'000);
        b.range("ncclAllGather", 40'000, 50'000, blobOf(d, kAllGatherSchema, AllGather { kComm, m_allGatherBytes }));
        b.launch(42'000, 43'000, 102, kAllGatherKernel, 140'000, 190'000);
        b.range("ncclGroupStart", 60'000, 60'100);
        m_events[60'200]
            = b.range("ncclAllReduce", 60'200, 60'300, blobOf(d, kAllReduceSchema, AllReduce { kComm, 4096, 0 }));
        b.range("ncclBroadcast", 60'400, 60'500, blobOf(d, kBroadcastSchema, Broadcast { kComm, 8192, 1 }));
        b.range("ncclGroupEnd", 60'600, 70'000);
        b.launch(61'000, 61'500, 103, kAllReduceKernel, 200'000, 210'000);
        b.launch(62'000, 62'500, 104, kBroadcastKernel, 211'000, 215'000);
        b.range("ncclReduceScatter", 80'000, 81'000, blobOf(d, kReduceScatterSchema, ReduceScatter { kComm, 1024, 0 }));
    }

    // The session's comm ops by the start of their kernel.
    std::map<std::int64_t, core::CommOp> import(const std::string& path)
    {
        auto reader = ridgeline::testing::importNsysExport(path, m_session, m_summary);
        std::map<std::int64_t, core::CommOp> ops;
        for (const auto& op : reader.commOps().value())
            ops[op.startNs] = op;
        return ops;
    }

    bool warned(std::string_view text) const
    {
        return std::any_of(m_summary.warnings.begin(), m_summary.warnings.end(),
            [&](const auto& w) { return w.text.find(text) != std::string::npos; });
    }

    TempDir m_dir;
    std::string m_export = m_dir.file("nccl.sqlite");
    std::string m_session = m_dir.file("nccl.ridge");
    collectors::NsysImportSummary m_summary;
    std::map<std::int64_t, std::int64_t> m_events; // eventId by start, of the ranges tests refer to
    std::size_t m_allReduceBytes = 262'144 * 4; // 262144 floats
    std::size_t m_allGatherBytes = 131'072 * 2; // sendcount 131072 halves
};

} // namespace

TEST_F(NsysNccl, BinaryPayloadsGiveSizesGroupSizeAndCommunicator)
{
    ExportBuilder b(m_export);
    writeScenario(b);
    auto ops = import(b.finish());
    ASSERT_EQ(ops.size(), 4u);
    const auto hex = fmt::format("{:#018x}", kComm);

    const auto& allReduce = ops.at(30'000);
    EXPECT_EQ(allReduce.collective, "AllReduce");
    EXPECT_EQ(allReduce.bytes, static_cast<std::int64_t>(m_allReduceBytes)); // S = count x type size
    EXPECT_EQ(allReduce.groupSize, kRanks);
    EXPECT_EQ(allReduce.processGroup, hex);
    EXPECT_EQ(allReduce.dataType, "f32"); // still from the kernel's symbol
    EXPECT_EQ(allReduce.root, -1);

    // NCCL's message size is per rank (sendcount x type size); S is the whole output, n times that.
    const auto& allGather = ops.at(140'000);
    EXPECT_EQ(allGather.collective, "AllGather");
    EXPECT_EQ(allGather.bytes, static_cast<std::int64_t>(m_allGatherBytes) * kRanks);
    EXPECT_EQ(allGather.groupSize, kRanks);

    // The group: two calls, two kernels launched inside ncclGroupEnd, paired in order.
    EXPECT_EQ(ops.at(200'000).bytes, 4096);
    EXPECT_EQ(ops.at(211'000).collective, "Broadcast");
    EXPECT_EQ(ops.at(211'000).bytes, 8192);
    EXPECT_EQ(ops.at(211'000).root, 1);

    EXPECT_EQ(m_summary.commOps, 4);
    EXPECT_EQ(m_summary.sizedCommOps, 4);
    // The ReduceScatter's range launched no kernel: said, not guessed.
    EXPECT_TRUE(warned("1 NCCL operations could not be paired"));
}

TEST_F(NsysNccl, CollectiveReportGetsBandwidthFromTheSizes)
{
    ExportBuilder b(m_export);
    writeScenario(b);
    import(b.finish());
    auto reader = core::SessionReader::open(m_session).value();
    core::SessionReader* readers[] = { &reader };
    auto report = core::buildCollectiveReport(readers);
    ASSERT_FALSE(report.hasError()) << report.error().message;
    const auto row = std::find_if(report.value().rows.begin(), report.value().rows.end(), [&](const auto& r) {
        return r.collective == "AllReduce" && r.bytes == static_cast<std::int64_t>(m_allReduceBytes);
    });
    ASSERT_NE(row, report.value().rows.end());
    ASSERT_TRUE(row->algBytesPerS && row->busBytesPerS);
    const double seconds = (130'000 - 30'000) * 1e-9; // the kernel's time
    EXPECT_DOUBLE_EQ(*row->algBytesPerS, static_cast<double>(m_allReduceBytes) / seconds);
    EXPECT_DOUBLE_EQ(*row->busBytesPerS, *row->algBytesPerS * 2.0 * (kRanks - 1) / kRanks);
}

TEST_F(NsysNccl, HostileBlobsAreRefusedNotMisread)
{
    ExportBuilder b(m_export);
    const auto d = ExportBuilder::kDomain;
    b.range("ncclCommInitRank", 1'000, 2'000, blobOf(d, kCommInitRankSchema, CommInitRank { kComm, kRanks, 0, 0 }));
    const std::string good = blobOf(d, kAllReduceSchema, AllReduce { kComm, 1 << 20, 0 });
    const std::vector<std::optional<std::string>> blobs {
        good.substr(0, 10), // shorter than the header
        good.substr(0, good.size() - 4), // header promises more than the blob holds
        header(d, kAllReduceSchema, 16, 48) + good.substr(32, 16), // payloadSize not the schema's
        header(d, kAllReduceSchema, sizeof(AllReduce), 99) + good.substr(32), // totalSize wrong
        header(d, kStatic + 99, sizeof(AllReduce), 32 + sizeof(AllReduce)) + good.substr(32), // unknown schema
        header(d + 7, kAllReduceSchema, sizeof(AllReduce), 32 + sizeof(AllReduce)) + good.substr(32), // ok header
        std::nullopt, // NULL blob
        std::string(), // empty blob
    };
    std::int64_t t = 10'000;
    for (std::size_t i = 0; i < blobs.size(); ++i, t += 10'000) {
        b.range("ncclAllReduce", t, t + 5'000, blobs[i]);
        b.launch(t + 1'000, t + 2'000, 200 + static_cast<std::int64_t>(i), kAllReduceKernel, t + 100'000, t + 105'000);
    }
    auto ops = import(b.finish());
    ASSERT_EQ(ops.size(), blobs.size());
    // The header's domain word is not compared with the event's domain (whether nsys numbers them
    // alike is undocumented): the sixth blob, its schema found through the event's domain, decodes.
    const std::int64_t decodes = 10'000 + 5 * 10'000 + 100'000;
    for (const auto& [start, op] : ops) {
        EXPECT_EQ(op.bytes, start == decodes ? 1 << 20 : 0) << "kernel at " << start;
        EXPECT_EQ(op.collective, "AllReduce");
    }
    EXPECT_EQ(m_summary.sizedCommOps, 1);
    EXPECT_TRUE(warned("5 NCCL NVTX payloads were not read: 1 shorter than their header, 1 of an unknown schema, 3 "
                       "whose sizes disagree with their schema"));
}

TEST_F(NsysNccl, EntriesOutsideThePayloadOrOfUnknownTypeAreSkipped)
{
    for (const char* change : {
             "UPDATE NVTX_PAYLOAD_SCHEMA_ENTRIES SET offset = 20 WHERE name = 'Message size [bytes]'",
             "UPDATE NVTX_PAYLOAD_SCHEMA_ENTRIES SET offset = 1000000 WHERE name = 'Message size [bytes]'",
             "UPDATE NVTX_PAYLOAD_SCHEMA_ENTRIES SET offset = -8 WHERE name = 'Message size [bytes]'",
             "UPDATE NVTX_PAYLOAD_SCHEMA_ENTRIES SET offset = NULL WHERE name = 'Message size [bytes]'",
             "UPDATE NVTX_PAYLOAD_SCHEMA_ENTRIES SET type = 99 WHERE name = 'Message size [bytes]'",
             "UPDATE NVTX_PAYLOAD_SCHEMA_ENTRIES SET type = 19 WHERE name = 'Message size [bytes]'", // float
         }) {
        std::filesystem::remove(m_export);
        ExportBuilder b(m_export);
        writeScenario(b);
        b.sql(change);
        auto ops = import(b.finish());
        ASSERT_EQ(ops.size(), 4u) << change;
        for (const auto& [start, op] : ops) {
            EXPECT_EQ(op.bytes, 0) << change;
            EXPECT_EQ(op.groupSize, kRanks) << change << ": the other entries still read";
        }
    }
}

TEST_F(NsysNccl, GroupsThatDoNotPairOneToOneStayWithoutSizes)
{
    ExportBuilder b(m_export);
    const auto d = ExportBuilder::kDomain;
    b.range("ncclCommInitRank", 1'000, 2'000, blobOf(d, kCommInitRankSchema, CommInitRank { kComm, kRanks, 0, 0 }));
    // Two operations, one kernel (NCCL fused them): which size belongs to it cannot be told.
    b.range("ncclGroupStart", 10'000, 10'100);
    b.range("ncclAllReduce", 10'200, 10'300, blobOf(d, kAllReduceSchema, AllReduce { kComm, 4096, 0 }));
    b.range("ncclAllReduce", 10'400, 10'500, blobOf(d, kAllReduceSchema, AllReduce { kComm, 8192, 0 }));
    b.range("ncclGroupEnd", 10'600, 20'000);
    b.launch(11'000, 11'500, 301, kAllReduceKernel, 30'000, 40'000);
    // Two operations, two kernels of other collectives than the calls.
    b.range("ncclGroupStart", 50'000, 50'100);
    b.range("ncclAllGather", 50'200, 50'300, blobOf(d, kAllGatherSchema, AllGather { kComm, 4096 }));
    b.range("ncclAllGather", 50'400, 50'500, blobOf(d, kAllGatherSchema, AllGather { kComm, 4096 }));
    b.range("ncclGroupEnd", 50'600, 60'000);
    b.launch(51'000, 51'500, 302, kAllReduceKernel, 70'000, 80'000);
    b.launch(52'000, 52'500, 303, kBroadcastKernel, 81'000, 90'000);
    // Nested groups launch at the outermost ncclGroupEnd.
    b.range("ncclGroupStart", 100'000, 100'100);
    b.range("ncclGroupStart", 100'200, 100'300);
    b.range("ncclBroadcast", 100'400, 100'500, blobOf(d, kBroadcastSchema, Broadcast { kComm, 512, 0 }));
    b.range("ncclGroupEnd", 100'600, 100'700);
    b.range("ncclGroupEnd", 100'800, 110'000);
    b.launch(101'000, 101'500, 304, kBroadcastKernel, 120'000, 130'000);
    auto ops = import(b.finish());
    ASSERT_EQ(ops.size(), 4u);
    EXPECT_EQ(ops.at(30'000).bytes, 0);
    EXPECT_EQ(ops.at(70'000).bytes, 0);
    EXPECT_EQ(ops.at(81'000).bytes, 0);
    EXPECT_EQ(ops.at(120'000).bytes, 512);
    EXPECT_TRUE(warned("4 NCCL operations could not be paired"));
}

TEST_F(NsysNccl, DynamicPayloadTablesWhenThereIsNoBlob)
{
    ExportBuilder b(m_export);
    writeScenario(b);
    // `nsys export --dynamic-tables=all`: one table per schema, joined on eventId; column names
    // from NVTX_EXPORT_TRANSLATION (the sanitized spellings here are ours: the documentation gives
    // none). The AllReduce and init events' values move from binaryData to the tables.
    const auto gpid = ExportBuilder::kPid << 24;
    const auto table = [&](std::int64_t schema) {
        return fmt::format("DYNAMIC_NVTXPAYLOAD_DATATYPE_{}_{}_{}", gpid, ExportBuilder::kDomain, schema);
    };
    b.sql(fmt::format(
        "CREATE TABLE NVTX_EVENTS_PAYLOAD_SCHEMAS (eventId INTEGER NOT NULL, globalPid INTEGER NOT NULL,"
        " domainId INTEGER NOT NULL, payloadSchemaID INTEGER NOT NULL);"
        "CREATE TABLE NVTX_EXPORT_TRANSLATION (originalName TEXT NOT NULL, sanitizedName TEXT NOT NULL);"
        "INSERT INTO NVTX_EXPORT_TRANSLATION VALUES ('NCCL communicator ID', 'NCCL_communicator_ID'),"
        " ('Message size [bytes]', 'Message_size_bytes'), ('No. of ranks', 'No_of_ranks');"
        "CREATE TABLE {0} (eventId INTEGER, NCCL_communicator_ID INTEGER, Message_size_bytes INTEGER,"
        " Reduction_operation INTEGER);"
        "CREATE TABLE {1} (eventId INTEGER, NCCL_communicator_ID INTEGER, No_of_ranks INTEGER, Rank INTEGER,"
        " CUDA_device INTEGER);"
        "INSERT INTO NVTX_EVENTS_PAYLOAD_SCHEMAS SELECT e.eventId, {2}, e.domainId, {3} FROM NVTX_EVENTS e"
        " JOIN StringIds s ON s.id = e.textId WHERE s.value = 'ncclAllReduce';"
        "INSERT INTO NVTX_EVENTS_PAYLOAD_SCHEMAS SELECT e.eventId, {2}, e.domainId, {4} FROM NVTX_EVENTS e"
        " JOIN StringIds s ON s.id = e.textId WHERE s.value = 'ncclCommInitRank';"
        "INSERT INTO {0} SELECT l.eventId, {5}, 3000 * l.eventId, 0 FROM NVTX_EVENTS_PAYLOAD_SCHEMAS l"
        " WHERE l.payloadSchemaID = {3};"
        "INSERT INTO {1} SELECT l.eventId, {5}, 8, 0, 0 FROM NVTX_EVENTS_PAYLOAD_SCHEMAS l"
        " WHERE l.payloadSchemaID = {4};"
        "UPDATE NVTX_EVENTS SET binaryData = NULL WHERE eventId IN (SELECT eventId FROM NVTX_EVENTS_PAYLOAD_SCHEMAS);",
        table(kAllReduceSchema), table(kCommInitRankSchema), gpid, kAllReduceSchema, kCommInitRankSchema,
        static_cast<std::int64_t>(kComm)));
    auto ops = import(b.finish());
    ASSERT_EQ(ops.size(), 4u);
    EXPECT_EQ(ops.at(30'000).bytes, 3000 * m_events.at(10'000));
    EXPECT_EQ(ops.at(30'000).groupSize, 8);
    EXPECT_EQ(ops.at(200'000).bytes, 3000 * m_events.at(60'200));
    // The AllGather still has its blob; its S uses the communicator's 8 ranks from the table.
    EXPECT_EQ(ops.at(140'000).bytes, static_cast<std::int64_t>(m_allGatherBytes) * 8);
}

TEST_F(NsysNccl, ALaunchSeenByTheRuntimeAndTheDriverCountsOnce)
{
    ExportBuilder b(m_export);
    writeScenario(b);
    // The driver call under the runtime's cudaLaunchKernel, reported with the kernel's correlationId.
    b.sql("CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER "
          "NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, "
          "callchainId INTEGER)");
    b.sql(fmt::format("INSERT INTO CUPTI_ACTIVITY_KIND_DRIVER VALUES (12100, 12900, 2, {}, 101, 1, 0, NULL)",
        ExportBuilder::globalTid()));
    auto ops = import(b.finish());
    EXPECT_EQ(ops.at(30'000).bytes, static_cast<std::int64_t>(m_allReduceBytes));
    EXPECT_EQ(m_summary.sizedCommOps, 4);
}
