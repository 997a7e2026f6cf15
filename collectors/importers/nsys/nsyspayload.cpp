// SPDX-License-Identifier: MIT
// NVTX extended payloads of an Nsight Systems export (sources in nsyspayload.h).
#include "nsyspayload.h"

#include <fmt/format.h>
#include <set>

namespace ridgeline::collectors::nsys {

namespace {

constexpr std::size_t kHeaderBytes = 32;

std::uint64_t littleEndian(std::string_view bytes, std::size_t at, int width)
{
    std::uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
    return value;
}

// NVTX_PAYLOAD_ENTRY_TYPE_* values whose C type is signed.
bool isSigned(std::int64_t type)
{
    switch (type) {
    case 1: // CHAR (signed on the x86-64 and aarch64 Linux ABIs NCCL builds for)
    case 3: // SHORT
    case 5: // INT
    case 7: // LONG
    case 9: // LONGLONG
    case 11: // INT8
    case 13: // INT16
    case 15: // INT32
    case 17: // INT64
        return true;
    default:
        return false;
    }
}

std::int64_t asSigned(std::uint64_t bits, int width, bool isSignedType)
{
    if (width < 8 && isSignedType && (bits >> (width * 8 - 1)) & 1)
        bits |= ~std::uint64_t { 0 } << (width * 8);
    return static_cast<std::int64_t>(bits); // two's complement: the bits as they are
}

} // namespace

int integerWidth(std::int64_t type)
{
    switch (type) {
    case 1: // CHAR
    case 2: // UCHAR
    case 11: // INT8
    case 12: // UINT8
        return 1;
    case 3: // SHORT
    case 4: // USHORT
    case 13: // INT16
    case 14: // UINT16
        return 2;
    case 5: // INT
    case 6: // UINT
    case 15: // INT32
    case 16: // UINT32
        return 4;
    case 7: // LONG (LP64)
    case 8: // ULONG
    case 9: // LONGLONG
    case 10: // ULONGLONG
    case 17: // INT64
    case 18: // UINT64
    case 22: // SIZE (size_t, 64-bit)
    case 23: // ADDRESS
        return 8;
    default:
        return 0;
    }
}

core::Result<PayloadSchemas> readPayloadSchemas(core::sqlite::Database& db, const Schema& schema)
{
    PayloadSchemas schemas;
    constexpr const char* kSchemas = "NVTX_PAYLOAD_SCHEMAS";
    constexpr const char* kEntries = "NVTX_PAYLOAD_SCHEMA_ENTRIES";
    if (!schema.has(kSchemas, "schemaId") || !schema.has(kSchemas, "payloadSize") || !schema.has(kEntries, "schemaId")
        || !schema.has(kEntries, "name") || !schema.has(kEntries, "type"))
        return schemas;
    std::set<std::pair<std::int64_t, std::int64_t>> conflicting;
    RIDGELINE_TRY(forEachRow(db,
        fmt::format("SELECT {}, schemaId, payloadSize FROM {} WHERE schemaId IS NOT NULL AND payloadSize IS NOT NULL",
            schema.column(kSchemas, "domainId", "0"), kSchemas),
        kSchemas, [&](const core::sqlite::Statement& row) {
            const std::pair key { row.columnInt(0), row.columnInt(1) };
            const auto size = row.columnInt(2);
            auto [it, added] = schemas.try_emplace(key);
            if (added)
                it->second.payloadSize = size;
            else if (it->second.payloadSize != size)
                conflicting.insert(key);
        }));
    for (const auto& key : conflicting)
        schemas.erase(key);
    const auto sql = fmt::format("SELECT {}, schemaId, name, type, {} FROM {} ORDER BY {}",
        schema.column(kEntries, "domainId", "0"), schema.column(kEntries, "offset", "NULL"), kEntries,
        schema.column(kEntries, "idx", "rowid"));
    RIDGELINE_TRY(forEachRow(db, sql, kEntries, [&](const core::sqlite::Statement& row) {
        auto it = schemas.find({ row.columnInt(0), row.columnInt(1) });
        if (it == schemas.end() || row.columnIsNull(2) || row.columnIsNull(3))
            return;
        PayloadEntry entry;
        entry.name = row.columnText(2);
        entry.type = row.columnInt(3);
        entry.offset = row.columnOptionalInt(4);
        it->second.entries.push_back(std::move(entry));
    }));
    return schemas;
}

DecodedBlob decodeBinaryPayload(std::string_view blob, std::int64_t domainId, const PayloadSchemas& schemas)
{
    DecodedBlob out;
    if (blob.empty())
        return out;
    if (blob.size() < kHeaderBytes) {
        out.verdict = BlobVerdict::TooShort;
        return out;
    }
    const auto schemaId = static_cast<std::int64_t>(littleEndian(blob, 8, 4));
    const std::uint64_t payloadSize = littleEndian(blob, 16, 8);
    const std::uint64_t totalSize = littleEndian(blob, 24, 8);
    const auto found = schemas.find({ domainId, schemaId });
    if (found == schemas.end()) {
        out.verdict = BlobVerdict::UnknownSchema;
        return out;
    }
    const PayloadSchema& schema = found->second;
    if (schema.payloadSize < 0 || payloadSize != static_cast<std::uint64_t>(schema.payloadSize)
        || payloadSize > blob.size() - kHeaderBytes || totalSize != kHeaderBytes + payloadSize) {
        out.verdict = BlobVerdict::SizeMismatch;
        return out;
    }
    const std::string_view payload = blob.substr(kHeaderBytes, payloadSize);
    for (std::size_t i = 0; i < schema.entries.size(); ++i) {
        const auto& entry = schema.entries[i];
        const int width = integerWidth(entry.type);
        // A NULL offset is 0 for the first entry only; any other is not guessed.
        const std::int64_t offset = entry.offset.value_or(i == 0 ? 0 : -1);
        if (width == 0 || offset < 0 || static_cast<std::uint64_t>(offset) > payload.size()
            || payload.size() - static_cast<std::size_t>(offset) < static_cast<std::size_t>(width))
            continue;
        out.values.emplace(entry.name,
            asSigned(littleEndian(payload, static_cast<std::size_t>(offset), width), width, isSigned(entry.type)));
    }
    out.verdict = BlobVerdict::Decoded;
    return out;
}

} // namespace ridgeline::collectors::nsys
