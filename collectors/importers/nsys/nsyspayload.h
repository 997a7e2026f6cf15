// SPDX-License-Identifier: MIT
// NVTX extended (schema-based binary) payloads in an Nsight Systems export: the schemas an
// application registered (NVTX_PAYLOAD_SCHEMAS, NVTX_PAYLOAD_SCHEMA_ENTRIES; Nsight Systems SQLite
// schema reference, schema 3.28.1) and the decoding of one event's NVTX_EVENTS.binaryData blob.
//
// The blob's 32-byte header is documented only by a third party: nsys_ai
// (github.com/GindaChen/nsys-ai @138f431, src/nsys_ai/skills/builtins/nccl_payload_breakdown.py,
// "verified against Nsight 2026.x profiles"): little-endian u32 domainId, u32 reserved, u32 schemaId, u32 reserved, u64
// payloadSize, u64 totalSize = 32 + payloadSize, then the payload with each entry at its schema
// offset. A blob is decoded only when its header agrees with a known schema (same schema id in
// the event's domain, payloadSize equal to the schema's, totalSize = 32 + payloadSize and no
// longer than the blob), so that a different layout is refused rather than misread.
//
// Entry types are the numeric NVTX_PAYLOAD_ENTRY_TYPE_* values of nvtx3/nvToolsExtPayload.h
// (CUDA 13 toolkit); only integer types are read, at their LP64 widths.
#pragma once

#include "nsysinternal.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::collectors::nsys {

struct PayloadEntry {
    std::string name; // e.g. "Message size [bytes]"
    std::int64_t type = 0; // NVTX_PAYLOAD_ENTRY_TYPE_*
    std::optional<std::int64_t> offset; // bytes into the payload; NULL in the table = not given
};

struct PayloadSchema {
    std::int64_t payloadSize = 0;
    std::vector<PayloadEntry> entries; // by idx
};

// By (domainId, schemaId). A schema listed twice with different sizes is left out: which one an
// event used cannot be told.
using PayloadSchemas = std::map<std::pair<std::int64_t, std::int64_t>, PayloadSchema>;

core::Result<PayloadSchemas> readPayloadSchemas(core::sqlite::Database& db, const Schema& schema);

// Width in bytes of an integer entry type (NVTX_PAYLOAD_ENTRY_TYPE_CHAR 1 ... _SIZE 22, _ADDRESS
// 23), 0 for any other type (floating point, strings, enums and nested schemas).
int integerWidth(std::int64_t type);

enum class BlobVerdict { Decoded, NoBlob, TooShort, UnknownSchema, SizeMismatch };

struct DecodedBlob {
    BlobVerdict verdict = BlobVerdict::NoBlob;
    // The integer entries that lie wholly inside the payload. Unsigned 64-bit values keep their
    // bits (a communicator id above 2^63 reads as negative); signed types are sign-extended.
    PayloadValues values;
};

// Decodes one NVTX_EVENTS.binaryData blob of an event in `domainId`.
DecodedBlob decodeBinaryPayload(std::string_view blob, std::int64_t domainId, const PayloadSchemas& schemas);

} // namespace ridgeline::collectors::nsys
