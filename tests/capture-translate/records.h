// SPDX-License-Identifier: MIT
// Real CUPTI 13 activity record structs, filled as CUPTI fills them, for the translation tests.
#pragma once

#include <cstdint>
#include <cupti_activity.h>
#include <string>

namespace ridgeline::testing {

CUpti_ActivityKernel10 kernelRecord(
    std::uint32_t correlationId, const char* name, std::uint64_t start, std::uint64_t end);
CUpti_ActivityMemcpy6 memcpyRecord(std::uint32_t correlationId, CUpti_ActivityMemcpyKind kind, std::uint64_t bytes,
    std::uint64_t start, std::uint64_t end);
CUpti_ActivityMemcpyPtoP4 peerCopyRecord(std::uint32_t correlationId, std::uint32_t src, std::uint32_t dst,
    std::uint64_t bytes, std::uint64_t start, std::uint64_t end);
CUpti_ActivityMemset4 memsetRecord(
    std::uint32_t correlationId, std::uint64_t bytes, std::uint64_t start, std::uint64_t end);
CUpti_ActivityAPI apiRecord(CUpti_ActivityKind kind, CUpti_CallbackId cbid, std::uint32_t correlationId,
    std::uint32_t threadId, std::uint64_t start, std::uint64_t end);
CUpti_ActivityMarker2 markerRecord(CUpti_ActivityFlag flags, std::uint32_t id, std::uint32_t threadId,
    std::uint64_t timestamp, const char* name, const char* domain);
CUpti_ActivityMarkerData2 markerDataRecord(std::uint32_t id, std::uint32_t color, std::uint32_t category);
CUpti_ActivitySynchronization2 syncRecord(
    CUpti_ActivitySynchronizationType type, std::uint32_t correlationId, std::uint64_t start, std::uint64_t end);
CUpti_ActivityOverhead3 overheadRecord(
    CUpti_ActivityOverheadKind kind, std::uint32_t threadId, std::uint64_t start, std::uint64_t end);
CUpti_ActivityDevice5 deviceRecord(std::uint32_t id, const char* name);
CUpti_ActivityName threadNameRecord(std::uint32_t threadId, const char* name);

template <typename Record> const CUpti_Activity* asActivity(const Record& record)
{
    return reinterpret_cast<const CUpti_Activity*>(&record);
}

} // namespace ridgeline::testing
