// SPDX-License-Identifier: MIT
// CUPTI activity records -> Ridgeline's session records. Pure: no CUPTI call is made here (the
// names of API calls come from a function the caller supplies), so every record type can be
// tested with structs filled by hand (tests/capture-translate).
#pragma once

#include "ncclcalls.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <cupti_activity.h>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace ridgeline::inject {

// A collective carried by an NCCL kernel of the same batch (kernels[kernelIndex]).
struct PendingCommOp {
    core::CommOp op;
    std::size_t kernelIndex = 0;
};

// What one CUPTI buffer becomes. Ids are left 0 (the writer assigns them); kernel names are
// interned by the writer from kernelNames[i], the raw name of kernels[i].
struct TranslatedBatch {
    std::vector<core::Device> devices;
    std::vector<core::Thread> threads;
    std::vector<core::Kernel> kernels;
    std::vector<std::string> kernelNames;
    std::vector<core::MemOp> memops;
    std::vector<core::ApiCall> apiCalls;
    std::vector<core::NvtxRange> nvtxRanges;
    std::vector<PendingCommOp> commOps;
    std::uint64_t records = 0; // records seen, known or not
    std::uint64_t unknownRecords = 0; // kinds Ridgeline does not translate, skipped
    bool empty() const;
};

// Name of a runtime or driver API function from its callback id (cuptiGetCallbackName in the
// library; a table in tests). Returns an empty string when unknown.
using CallbackNamer = std::function<std::string(CUpti_ActivityKind kind, std::uint32_t cbid)>;

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel" (CUPTI's names carry the API version).
std::string withoutVersionSuffix(std::string name);
const char* memoryKindName(std::uint32_t kind);
core::MemOpKind memcpyKind(std::uint32_t copyKind);
const char* synchronizationName(CUpti_ActivitySynchronizationType type);
const char* overheadName(CUpti_ActivityOverheadKind kind);

class ActivityTranslator {
public:
    ActivityTranslator(std::int64_t processId, CallbackNamer namer);

    // Adds what `record` describes to `out`. NVTX start/end markers are paired across calls (and
    // buffers): a range is emitted when its end arrives.
    void translate(const CUpti_Activity& record, TranslatedBatch& out);
    void translate(std::span<const CUpti_Activity* const> records, TranslatedBatch& out);

    // NVTX ranges started and not (yet) ended.
    std::size_t openRanges() const { return m_open.size(); }
    // Those ranges by CUPTI marker id (kept in the part file for the crash path, openranges.h),
    // and ranges started in an earlier life of the translator, whose end markers may still come.
    std::vector<std::pair<std::uint32_t, core::NvtxRange>> openRangeList() const;
    void resumeOpenRange(std::uint32_t markerId, core::NvtxRange range);

    // Where NCCL kernels find the call their launch ran (ncclcalls.h): bytes, ranks, root and
    // communicator for their comm_ops row. Null (the default): the kernel's name only.
    void setNcclCalls(NcclCallRegistry* calls) { m_ncclCalls = calls; }

private:
    struct OpenRange {
        core::NvtxRange range;
    };
    void kernel(const CUpti_ActivityKernel10& k, TranslatedBatch& out);
    void memcpy(const CUpti_ActivityMemcpy6& m, TranslatedBatch& out);
    void peerCopy(const CUpti_ActivityMemcpyPtoP4& m, TranslatedBatch& out);
    void memset(const CUpti_ActivityMemset4& m, TranslatedBatch& out);
    void api(const CUpti_ActivityAPI& a, TranslatedBatch& out);
    void marker(const CUpti_ActivityMarker2& m, TranslatedBatch& out);
    void markerData(const CUpti_ActivityMarkerData2& d);
    void synchronization(const CUpti_ActivitySynchronization2& s, TranslatedBatch& out);
    void overhead(const CUpti_ActivityOverhead3& o, TranslatedBatch& out);
    void device(const CUpti_ActivityDevice5& d, TranslatedBatch& out);
    void name(const CUpti_ActivityName& n, TranslatedBatch& out);
    void noteThread(std::int64_t tid, const std::string& name, TranslatedBatch& out);

    std::int64_t m_processId;
    CallbackNamer m_namer;
    std::map<std::uint32_t, OpenRange> m_open; // by marker id
    std::map<std::uint32_t, std::pair<std::uint32_t, std::int64_t>> m_markerStyle; // id -> color, category
    std::set<std::int64_t> m_threadsSeen;
    std::set<std::uint32_t> m_devicesSeen;
    NcclCallRegistry* m_ncclCalls = nullptr;
};

} // namespace ridgeline::inject
