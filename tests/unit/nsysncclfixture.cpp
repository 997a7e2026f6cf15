// SPDX-License-Identifier: MIT
// An nsys export with NCCL's NVTX payloads, built by construction (sources in nsysncclfixture.h).
#include "nsysncclfixture.h"

#include "testutil.h"

#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>

namespace ridgeline::testing {

core::SessionReader importNsysExport(
    const std::string& exportPath, const std::string& sessionPath, collectors::NsysImportSummary& summary)
{
    std::filesystem::remove(sessionPath);
    auto imported = collectors::importNsysSqlite(exportPath, sessionPath, false);
    if (imported.hasError())
        throw std::runtime_error(imported.error().message);
    summary = imported.value();
    auto reader = core::SessionReader::open(sessionPath);
    if (reader.hasError())
        throw std::runtime_error(reader.error().message);
    return std::move(reader).value();
}

} // namespace ridgeline::testing

namespace ridgeline::testing::nccl {

namespace {

void appendLittleEndian(std::string& out, std::uint64_t value, int width)
{
    for (int i = 0; i < width; ++i)
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

std::string hexOf(const std::string& bytes)
{
    std::string hex;
    for (char c : bytes)
        hex += fmt::format("{:02X}", static_cast<unsigned char>(c));
    return hex;
}

std::string quoted(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

} // namespace

std::vector<PayloadSchema> ncclSchemas()
{
    const std::string comm = "NCCL communicator ID";
    const std::string message = "Message size [bytes]";
    const std::string redop = "Reduction operation";
    return {
        { kCommInitRankSchema, "NcclNvtxParamsCommInitRank", sizeof(CommInitRank),
            { { comm, kTypeUint64, offsetof(CommInitRank, newcomm) },
                { "No. of ranks", kTypeInt, offsetof(CommInitRank, nranks) },
                { "Rank", kTypeInt, offsetof(CommInitRank, myrank) },
                { "CUDA device", kTypeInt, offsetof(CommInitRank, cudaDev) } } },
        { kAllGatherSchema, "NcclNvtxParamsAllGather", sizeof(AllGather),
            { { comm, kTypeUint64, offsetof(AllGather, comm) }, { message, kTypeSize, offsetof(AllGather, bytes) } } },
        { kAllReduceSchema, "NcclNvtxParamsAllReduce", sizeof(AllReduce),
            { { comm, kTypeUint64, offsetof(AllReduce, comm) }, { message, kTypeSize, offsetof(AllReduce, bytes) },
                { redop, kRedOpType, offsetof(AllReduce, op) } } },
        { kBroadcastSchema, "NcclNvtxParamsBroadcast", sizeof(Broadcast),
            { { comm, kTypeUint64, offsetof(Broadcast, comm) }, { message, kTypeSize, offsetof(Broadcast, bytes) },
                { "Root", kTypeInt, offsetof(Broadcast, root) } } },
        { kReduceScatterSchema, "NcclNvtxParamsReduceScatter", sizeof(ReduceScatter),
            { { comm, kTypeUint64, offsetof(ReduceScatter, comm) },
                { message, kTypeSize, offsetof(ReduceScatter, bytes) },
                { redop, kRedOpType, offsetof(ReduceScatter, op) } } },
    };
}

std::string header(std::int64_t domainId, std::int64_t schemaId, std::uint64_t payloadSize, std::uint64_t totalSize)
{
    std::string bytes;
    appendLittleEndian(bytes, static_cast<std::uint64_t>(domainId), 4);
    appendLittleEndian(bytes, 0, 4);
    appendLittleEndian(bytes, static_cast<std::uint64_t>(schemaId), 4);
    appendLittleEndian(bytes, 0, 4);
    appendLittleEndian(bytes, payloadSize, 8);
    appendLittleEndian(bytes, totalSize, 8);
    return bytes;
}

ExportBuilder::ExportBuilder(std::string path)
    : m_path(std::move(path))
{
    // Columns as the schema reference lists them (the subset of each table this export needs).
    sql("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,"
        " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
        " domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,"
        " int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData BLOB,"
        " eventId INTEGER NOT NULL PRIMARY KEY);"
        "CREATE TABLE NVTX_PAYLOAD_SCHEMAS (domainId INTEGER, schemaId INTEGER, name TEXT, type INTEGER,"
        " flags INTEGER, numEntries INTEGER, payloadSize INTEGER, alignTo INTEGER);"
        "CREATE TABLE NVTX_PAYLOAD_SCHEMA_ENTRIES (domainId INTEGER NOT NULL, schemaId INTEGER NOT NULL,"
        " idx INTEGER NOT NULL, flags INTEGER, type INTEGER, name TEXT, description TEXT,"
        " arrayOrUnionDetail INTEGER, offset INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,"
        " eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,"
        " returnValue INTEGER NOT NULL, callchainId INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
        " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,"
        " globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,"
        " registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL,"
        " gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,"
        " staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL);");
    // NVTX domain creation (eventType 75) names NCCL's domain.
    sql(fmt::format("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId, eventId) VALUES (0, 75, "
                    "'NCCL', {}, {}, {});",
        globalTid(), kDomain, m_nextEvent++));
    for (const auto& schema : ncclSchemas()) {
        sql(fmt::format("INSERT INTO NVTX_PAYLOAD_SCHEMAS VALUES ({}, {}, {}, 1, 0, {}, {}, 0);", kDomain,
            schema.schemaId, quoted(schema.name), schema.entries.size(), schema.payloadSize));
        for (std::size_t i = 0; i < schema.entries.size(); ++i) {
            const auto& e = schema.entries[i];
            sql(fmt::format("INSERT INTO NVTX_PAYLOAD_SCHEMA_ENTRIES VALUES ({}, {}, {}, 0, {}, {}, NULL, NULL, {});",
                kDomain, schema.schemaId, i, e.type, quoted(e.name), e.offset));
        }
    }
}

std::int64_t ExportBuilder::range(
    const std::string& name, std::int64_t start, std::int64_t end, const std::optional<std::string>& blob)
{
    const std::int64_t id = m_nextEvent++;
    // NCCL registers its API names as NVTX strings: textId into StringIds.
    sql(fmt::format("INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, textId, domainId, binaryData, "
                    "eventId) VALUES ({}, {}, 59, {}, {}, {}, {}, {});",
        start, end, globalTid(), stringId(name), kDomain, blob ? "X'" + hexOf(*blob) + "'" : std::string("NULL"), id));
    return id;
}

void ExportBuilder::launch(std::int64_t start, std::int64_t end, std::int64_t correlationId, const std::string& kernel,
    std::int64_t kernelStart, std::int64_t kernelEnd)
{
    sql(fmt::format("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES ({}, {}, 1, {}, {}, {}, 0, NULL);", start, end,
        globalTid(), correlationId, stringId("cudaLaunchKernel_v7000")));
    const auto name = stringId(kernel);
    sql(fmt::format("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ({}, {}, 0, 1, 7, {}, {}, {}, {}, {}, 32, 2, 1, 1, "
                    "640, 1, 1, 0, 0);",
        kernelStart, kernelEnd, correlationId, kPid << 24, name, name, name));
}

void ExportBuilder::sql(const std::string& statement)
{
    m_pending += statement;
    m_pending += ";\n"; // an empty statement after one that has its own ';' is harmless
}

const std::string& ExportBuilder::finish()
{
    execSql(m_path, "BEGIN;\n" + m_pending + "COMMIT;");
    m_pending.clear();
    return m_path;
}

std::int64_t ExportBuilder::stringId(const std::string& text)
{
    for (std::size_t i = 0; i < m_strings.size(); ++i) {
        if (m_strings[i] == text)
            return static_cast<std::int64_t>(i) + 1;
    }
    m_strings.push_back(text);
    const auto id = static_cast<std::int64_t>(m_strings.size());
    sql(fmt::format("INSERT INTO StringIds VALUES ({}, {});", id, quoted(text)));
    return id;
}

} // namespace ridgeline::testing::nccl
