// SPDX-License-Identifier: MIT
// An Nsight Systems SQLite export with NCCL's NVTX payloads, BUILT BY CONSTRUCTION from the
// documentation: no public export with NCCL payloads exists (../shared/data/SOURCES.md). Sources:
// - tables and columns: Nsight Systems 2026.4 SQLite schema reference (schema 3.28.1):
//   NVTX_EVENTS, NVTX_PAYLOAD_SCHEMAS, NVTX_PAYLOAD_SCHEMA_ENTRIES, NVTX_EVENTS_PAYLOAD_SCHEMAS,
//   NVTX_EXPORT_TRANSLATION, DYNAMIC_NVTXPAYLOAD_DATATYPE_<globalPid>_<domainId>_<schemaId>;
// - binaryData: a 32-byte header (u32 domainId, u32 0, u32 schemaId, u32 0, u64 payloadSize, u64
//   32 + payloadSize) and the payload, as documented by nsys_ai (github.com/GindaChen/nsys-ai
//   @138f431, src/nsys_ai/skills/builtins/nccl_payload_breakdown.py);
// - the payloads: NCCL's own structs and schema entries (github.com/NVIDIA/nccl @5067397,
//   src/include/nvtx_payload_schemas.h; schema ids 2^24 + NVTX_SID_* of src/include/nvtx.h),
//   mirrored below so that offsets and sizes are the compiler's, as in NCCL;
// - entry types: NVTX_PAYLOAD_ENTRY_TYPE_* of nvtx3/nvToolsExtPayload.h.
#pragma once

#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/store/sessionreader.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::testing {

// Imports an export into a new session at `sessionPath` (replacing one there) and opens it;
// throws when either goes wrong. Shared by the nsys import tests.
core::SessionReader importNsysExport(
    const std::string& exportPath, const std::string& sessionPath, collectors::NsysImportSummary& summary);

} // namespace ridgeline::testing

namespace ridgeline::testing::nccl {

constexpr std::int64_t kStatic = std::int64_t { 1 } << 24; // NVTX_PAYLOAD_SCHEMA_ID_STATIC_START
constexpr std::int64_t kCommInitRankSchema = kStatic + 0;
constexpr std::int64_t kAllGatherSchema = kStatic + 4;
constexpr std::int64_t kAllReduceSchema = kStatic + 5;
constexpr std::int64_t kBroadcastSchema = kStatic + 6;
constexpr std::int64_t kReduceScatterSchema = kStatic + 7;
constexpr std::int64_t kRedOpType = kStatic + 24; // NVTX_PAYLOAD_ENTRY_NCCL_REDOP, an enum schema
constexpr std::int64_t kTypeInt = 5, kTypeUint64 = 18, kTypeSize = 22;

// NCCL's payload structs (NcclNvtxParams*), field for field.
struct CommInitRank {
    std::uint64_t newcomm;
    int nranks;
    int myrank;
    int cudaDev;
};
struct AllReduce {
    std::uint64_t comm;
    std::size_t bytes;
    int op; // ncclRedOp_t
};
struct AllGather {
    std::uint64_t comm;
    std::size_t bytes;
};
struct Broadcast {
    std::uint64_t comm;
    std::size_t bytes;
    int root;
};
using ReduceScatter = AllReduce;

struct Entry {
    std::string name;
    std::int64_t type;
    std::int64_t offset;
};
struct PayloadSchema {
    std::int64_t schemaId;
    std::string name;
    std::int64_t payloadSize;
    std::vector<Entry> entries;
};
// NCCL's schemas for the structs above.
std::vector<PayloadSchema> ncclSchemas();

// binaryData for a payload: the header, then the struct's bytes (little-endian, as NCCL writes them).
template <typename T> std::string blobOf(std::int64_t domainId, std::int64_t schemaId, const T& payload);
std::string header(std::int64_t domainId, std::int64_t schemaId, std::uint64_t payloadSize, std::uint64_t totalSize);

class ExportBuilder {
public:
    static constexpr std::int64_t kPid = 4242;
    static constexpr std::int64_t kTid = 4243;
    static constexpr std::int64_t kDomain = 1; // NCCL's NVTX domain in this export
    static std::int64_t globalTid() { return (kPid << 24) | kTid; }

    explicit ExportBuilder(std::string path);
    // An NVTX push/pop range of NCCL's domain; returns its eventId.
    std::int64_t range(const std::string& name, std::int64_t start, std::int64_t end,
        const std::optional<std::string>& blob = std::nullopt);
    // A cudaLaunchKernel on the same thread and the kernel it launched (on device 0).
    void launch(std::int64_t start, std::int64_t end, std::int64_t correlationId, const std::string& kernel,
        std::int64_t kernelStart, std::int64_t kernelEnd);
    // Statements are written in one transaction by finish(), which returns the export's path.
    void sql(const std::string& statement);
    const std::string& finish();

private:
    std::int64_t stringId(const std::string& text);
    std::string m_path;
    std::int64_t m_nextEvent = 1;
    std::vector<std::string> m_strings;
    std::string m_pending;
};

template <typename T> std::string blobOf(std::int64_t domainId, std::int64_t schemaId, const T& payload)
{
    std::string bytes = header(domainId, schemaId, sizeof(T), 32 + sizeof(T));
    bytes.append(reinterpret_cast<const char*>(&payload), sizeof(T));
    return bytes;
}

} // namespace ridgeline::testing::nccl
