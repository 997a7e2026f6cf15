// SPDX-License-Identifier: MIT
// NCCL's NVTX ranges in an Nsight Systems export and their payloads. NCCL >= 2.16.2 pushes one
// range per API call in the domain "NCCL", named after the API function, with a payload whose
// schemas are in github.com/NVIDIA/nccl @5067397 src/include/nvtx_payload_schemas.h
// ("NCCL communicator ID", "Message size [bytes]", "Root", "No. of ranks", ...).
//
// The payload is read from NVTX_EVENTS.binaryData (nsyspayload.h), or, when the export was made
// with `nsys export --dynamic-tables=all`, from the table DYNAMIC_NVTXPAYLOAD_DATATYPE_<globalPid>_
// <domainId>_<schemaId> that NVTX_EVENTS_PAYLOAD_SCHEMAS names for the event, one column per
// entry under the sanitized name NVTX_EXPORT_TRANSLATION gives (Nsight Systems documentation,
// "Common SQLite Examples: Read NVTX Binary Payload Fields"; SQLite schema reference 3.28.1).
#include "nsysinternal.h"
#include "nsyspayload.h"

#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ridgeline::collectors::nsys {

namespace {

// The entries the importer uses, by NCCL's names.
constexpr std::array<std::string_view, 4> kNcclEntries {
    "NCCL communicator ID",
    "Message size [bytes]",
    "Root",
    "No. of ranks",
};

std::string idList(const std::set<std::int64_t>& ids)
{
    return fmt::format("{}", fmt::join(ids, ", "));
}

// Payload values by NVTX_EVENTS.eventId from the dynamic payload tables of NCCL's domains.
core::Result<std::map<std::int64_t, PayloadValues>> readDynamicPayloads(
    core::sqlite::Database& db, const Schema& schema, const std::set<std::int64_t>& domains)
{
    std::map<std::int64_t, PayloadValues> values;
    constexpr const char* kLinks = "NVTX_EVENTS_PAYLOAD_SCHEMAS";
    if (!schema.has(kLinks, "globalPid") || !schema.has(kLinks, "domainId") || !schema.has(kLinks, "payloadSchemaID"))
        return values;
    std::map<std::string, std::string, std::less<>> sanitized; // original entry name -> column
    constexpr const char* kTranslation = "NVTX_EXPORT_TRANSLATION";
    if (schema.has(kTranslation, "originalName") && schema.has(kTranslation, "sanitizedName")) {
        RIDGELINE_TRY(
            forEachRow(db, fmt::format("SELECT originalName, sanitizedName FROM {}", kTranslation), kTranslation,
                [&](const core::sqlite::Statement& row) { sanitized[row.columnText(0)] = row.columnText(1); }));
    }
    std::vector<std::string> tables;
    RIDGELINE_TRY(forEachRow(db,
        fmt::format("SELECT DISTINCT globalPid, domainId, payloadSchemaID FROM {} WHERE domainId IN ({})", kLinks,
            idList(domains)),
        kLinks, [&](const core::sqlite::Statement& row) {
            tables.push_back(fmt::format(
                "DYNAMIC_NVTXPAYLOAD_DATATYPE_{}_{}_{}", row.columnInt(0), row.columnInt(1), row.columnInt(2)));
        }));
    for (const auto& table : tables) {
        if (!schema.has(table, "eventId"))
            continue;
        std::vector<std::string_view> names;
        std::string columns;
        for (auto name : kNcclEntries) {
            const auto found = sanitized.find(name);
            const std::string column = found != sanitized.end() ? found->second : std::string(name);
            if (!isPlainIdentifier(column) || !schema.has(table, column))
                continue;
            names.push_back(name);
            columns += fmt::format(", \"{}\"", column);
        }
        if (names.empty())
            continue;
        RIDGELINE_TRY(forEachRow(db, fmt::format("SELECT eventId{} FROM {}", columns, table), table,
            [&](const core::sqlite::Statement& row) {
                auto& event = values[row.columnInt(0)];
                for (std::size_t i = 0; i < names.size(); ++i) {
                    if (!row.columnIsNull(static_cast<int>(i) + 1))
                        event.emplace(std::string(names[i]), row.columnInt(static_cast<int>(i) + 1));
                }
            }));
    }
    return values;
}

} // namespace

core::Status readNcclCalls(core::sqlite::Database& db, const Schema& schema, Activity& activity)
{
    constexpr const char* kTable = "NVTX_EVENTS";
    if (!schema.has(kTable, "start") || !schema.has(kTable, "eventType") || !schema.has(kTable, "domainId"))
        return {};
    auto col = [&](std::string_view name, std::string_view fallback = "NULL") {
        return schema.column(kTable, name, fallback);
    };
    const auto text = fmt::format("COALESCE({}, {})", col("text"), stringOf(schema, col("textId")));
    std::set<std::int64_t> domains;
    RIDGELINE_TRY(forEachRow(db,
        fmt::format(
            "SELECT DISTINCT domainId FROM {} WHERE eventType = {} AND {} = 'NCCL'", kTable, kNvtxDomainCreate, text),
        kTable, [&](const core::sqlite::Statement& row) { domains.insert(row.columnInt(0)); }));
    if (domains.empty()) {
        // An export cut to a time window (or a capture started late) can lack the record that
        // created the domain: a domain without one whose ranges are NCCL API names ("ncclSend",
        // "ncclGroupStart") is taken for NCCL's.
        RIDGELINE_TRY(forEachRow(db,
            fmt::format("SELECT DISTINCT domainId FROM {0} WHERE eventType IN ({1}, {2}) AND domainId <> 0 AND "
                        "{3} GLOB 'nccl[A-Z]*' AND domainId NOT IN (SELECT domainId FROM {0} WHERE eventType = {4})",
                kTable, kNvtxPushPopRange, kNvtxStartEndRange, text, kNvtxDomainCreate),
            kTable, [&](const core::sqlite::Statement& row) { domains.insert(row.columnInt(0)); }));
    }
    if (domains.empty())
        return {};
    auto schemas = readPayloadSchemas(db, schema);
    if (schemas.hasError())
        return schemas.error();
    auto dynamic = readDynamicPayloads(db, schema, domains);
    if (dynamic.hasError())
        return dynamic.error();
    std::map<BlobVerdict, std::int64_t> refused;
    const auto sql = fmt::format("SELECT start, {}, {}, {}, domainId, {}, {} FROM {} WHERE eventType IN ({}, {}) AND "
                                 "domainId IN ({}) ORDER BY start",
        col("end"), text, col("globalTid", "0"), col("binaryData"), col("eventId"), kTable, kNvtxPushPopRange,
        kNvtxStartEndRange, idList(domains));
    RIDGELINE_TRY(forEachRow(db, sql, kTable, [&](const core::sqlite::Statement& row) {
        NcclCall call;
        call.startNs = timeOf(row.columnInt(0));
        call.endNs = row.columnIsNull(1) ? call.startNs : std::max(call.startNs, timeOf(row.columnInt(1)));
        call.name = row.columnText(2);
        const std::int64_t globalTid = row.columnInt(3);
        call.processId = pidOf(globalTid);
        call.threadId = tidOf(globalTid);
        auto decoded = decodeBinaryPayload(row.columnBlob(5), row.columnInt(4), schemas.value());
        if (decoded.verdict == BlobVerdict::Decoded) {
            call.values = std::move(decoded.values);
        } else {
            if (decoded.verdict != BlobVerdict::NoBlob)
                refused[decoded.verdict] += 1;
            if (!row.columnIsNull(6)) {
                if (auto it = dynamic.value().find(row.columnInt(6)); it != dynamic.value().end())
                    call.values = it->second;
            }
        }
        activity.ncclCallsWithPayload += call.values.empty() ? 0 : 1;
        activity.ncclCalls.push_back(std::move(call));
    }));
    std::int64_t total = 0;
    for (const auto& [verdict, count] : refused)
        total += count;
    if (total > 0)
        activity.warnings.push_back(fmt::format("{} NCCL NVTX payloads were not read: {} shorter than their header, "
                                                "{} of an unknown schema, {} whose sizes disagree with their schema",
            total, refused[BlobVerdict::TooShort], refused[BlobVerdict::UnknownSchema],
            refused[BlobVerdict::SizeMismatch]));
    return {};
}

} // namespace ridgeline::collectors::nsys
