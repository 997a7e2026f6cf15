// SPDX-License-Identifier: MIT
// The stand-in libcupti.so.13's NVTX side (what the stand-in is: fakecupti.cpp): it installs
// itself through cuptiNvtxInitialize2 / InitializeInjectionNvtx2, and turns ranges, marks and
// thread names into marker, marker data and name records and NVTX callbacks.
#include "fakecupti.h"

#include <atomic>
#include <cstdint>
#include <cupti.h>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

// clang-format off
#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>
// clang-format on

using namespace fakecuda;
using namespace fakecuda::libcupti;

// ---------------------------------------------------------------------------------------------
// NVTX (InitializeInjectionNvtx2): push/pop, start/end and marks become marker records.

namespace {

std::atomic<std::uint32_t> g_markerId { 0 };

struct OpenMarker {
    std::uint32_t id;
    std::uint64_t start;
    const char* name;
    const char* domain;
    std::uint32_t color;
};
thread_local std::vector<OpenMarker> t_pushed;
std::mutex& startedMutex()
{
    static auto* m = new std::mutex();
    return *m;
}
std::map<std::uint64_t, std::pair<OpenMarker, std::uint32_t>>& started() // id -> marker, thread
{
    static auto* m = new std::map<std::uint64_t, std::pair<OpenMarker, std::uint32_t>>();
    return *m;
}

const char* domainName(nvtxDomainHandle_t domain)
{
    return reinterpret_cast<const char*>(domain); // handles are interned names (fakeDomainCreateA)
}

void markerRecord(CUpti_ActivityFlag flags, std::uint32_t id, std::uint64_t at, const char* name, const char* domain)
{
    auto m = zeroed<CUpti_ActivityMarker2>();
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = flags;
    m.timestamp = at;
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = pid();
    m.objectId.pt.threadId = tid();
    m.name = name;
    m.domain = domain;
    (void)emit(&m);
}

void markerData(std::uint32_t id, std::uint32_t color, std::uint32_t category)
{
    auto d = zeroed<CUpti_ActivityMarkerData2>();
    d.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
    d.flags = color != 0 ? CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB : CUPTI_ACTIVITY_FLAG_NONE;
    d.id = id;
    d.color = color;
    d.category = category;
    (void)emit(&d);
}

// A marker record only counts as delivered when the kind is on (the ledger says what the session
// must hold).
bool markersOn()
{
    return enabled(CUPTI_ACTIVITY_KIND_MARKER);
}

void nvtxLedger(const OpenMarker& m, std::uint32_t thread, std::uint64_t end)
{
    if (markersOn())
        ledger("nvtx\t%u\t%u\t%llu\t%llu\t%u\t%s\t%s", pid(), thread, static_cast<unsigned long long>(m.start),
            static_cast<unsigned long long>(end), m.color, m.domain != nullptr ? m.domain : "default",
            m.name != nullptr ? m.name : "");
}

int push(const char* message, const char* domain, std::uint32_t color, std::uint32_t cbid, const void* params)
{
    OpenMarker m { ++g_markerId, timestamp(), intern(message), domain, color };
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_START, m.id, m.start, m.name, domain);
    if (color != 0)
        markerData(m.id, color, 0);
    t_pushed.push_back(m);
    CUpti_NvtxData data { "nvtxRangePush", params, nullptr };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
    return static_cast<int>(t_pushed.size()) - 1;
}

int pop(std::uint32_t cbid, const void* params)
{
    if (t_pushed.empty())
        return -1;
    const OpenMarker m = t_pushed.back();
    t_pushed.pop_back();
    const std::uint64_t end = timestamp();
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, m.id, end, nullptr, m.domain);
    nvtxLedger(m, tid(), end);
    CUpti_NvtxData data { "nvtxRangePop", params, nullptr };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
    return static_cast<int>(t_pushed.size());
}

std::uint32_t colorOf(const nvtxEventAttributes_t* a)
{
    return a != nullptr && a->colorType == NVTX_COLOR_ARGB ? a->color : 0;
}

const char* messageOf(const nvtxEventAttributes_t* a)
{
    return a != nullptr && a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : "";
}

int NVTX_API fakeRangePushA(const char* message)
{
    nvtxRangePushA_params p { message };
    return push(message, nullptr, 0, CUPTI_CBID_NVTX_nvtxRangePushA, &p);
}

int NVTX_API fakeRangePushEx(const nvtxEventAttributes_t* attributes)
{
    nvtxRangePushEx_params p { attributes };
    return push(messageOf(attributes), nullptr, colorOf(attributes), CUPTI_CBID_NVTX_nvtxRangePushEx, &p);
}

int NVTX_API fakeRangePop()
{
    return pop(CUPTI_CBID_NVTX_nvtxRangePop, nullptr);
}

void mark(const char* message, const char* domain)
{
    const std::uint64_t at = timestamp();
    const OpenMarker m { ++g_markerId, at, intern(message), domain, 0 };
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, m.id, at, m.name, domain);
    nvtxLedger(m, tid(), at);
}

void NVTX_API fakeMarkA(const char* message)
{
    mark(message, nullptr);
}

nvtxRangeId_t startRange(const char* message, const char* domain, std::uint32_t cbid, const void* params)
{
    OpenMarker m { ++g_markerId, timestamp(), intern(message), domain, 0 };
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_START, m.id, m.start, m.name, domain);
    {
        std::lock_guard lock(startedMutex());
        started()[m.id] = { m, tid() };
    }
    nvtxRangeId_t id = m.id;
    CUpti_NvtxData data { "nvtxRangeStart", params, &id };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
    return id;
}

void endRange(nvtxRangeId_t id, std::uint32_t cbid, const void* params)
{
    std::pair<OpenMarker, std::uint32_t> m;
    {
        std::lock_guard lock(startedMutex());
        auto it = started().find(id);
        if (it == started().end())
            return;
        m = it->second;
        started().erase(it);
    }
    const std::uint64_t end = timestamp();
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, m.first.id, end, nullptr, m.first.domain);
    nvtxLedger(m.first, m.second, end);
    CUpti_NvtxData data { "nvtxRangeEnd", params, nullptr };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
}

nvtxRangeId_t NVTX_API fakeRangeStartA(const char* message)
{
    nvtxRangeStartA_params p { message };
    return startRange(message, nullptr, CUPTI_CBID_NVTX_nvtxRangeStartA, &p);
}

void NVTX_API fakeRangeEnd(nvtxRangeId_t id)
{
    nvtxRangeEnd_params p { id };
    endRange(id, CUPTI_CBID_NVTX_nvtxRangeEnd, &p);
}

void NVTX_API fakeNameOsThreadA(std::uint32_t thread, const char* name)
{
    auto n = zeroed<CUpti_ActivityName>();
    n.kind = CUPTI_ACTIVITY_KIND_NAME;
    n.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    n.objectId.pt.processId = pid();
    n.objectId.pt.threadId = thread;
    n.name = intern(name);
    if (emit(&n))
        ledger("thread\t%u\t%u\t%s", pid(), thread, name);
}

nvtxDomainHandle_t NVTX_API fakeDomainCreateA(const char* name)
{
    nvtxDomainHandle_t handle = reinterpret_cast<nvtxDomainHandle_t>(const_cast<char*>(intern(name)));
    // The callback comes after the call, with the handle it returns (a domain created before the
    // collector subscribed is never reported: the cue leaves it out).
    if (cues().domainCreateCallback) {
        nvtxDomainCreateA_params p { name };
        CUpti_NvtxData data { "nvtxDomainCreateA", &p, &handle };
        call(CUPTI_CB_DOMAIN_NVTX, CUPTI_CBID_NVTX_nvtxDomainCreateA, &data);
    }
    return handle;
}

int NVTX_API fakeDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    nvtxDomainRangePushEx_params p {};
    p.domain = domain;
    p.core.eventAttrib = attributes;
    return push(
        messageOf(attributes), domainName(domain), colorOf(attributes), CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &p);
}

int NVTX_API fakeDomainRangePop(nvtxDomainHandle_t domain)
{
    nvtxDomainRangePop_params p { domain };
    return pop(CUPTI_CBID_NVTX_nvtxDomainRangePop, &p);
}

void NVTX_API fakeDomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    mark(messageOf(attributes), domainName(domain));
}

template <typename F> void install(NvtxFunctionTable table, unsigned int size, unsigned int id, F function)
{
    if (table != nullptr && id < size && table[id] != nullptr)
        *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

} // namespace

// =============================================================================================
// The CUPTI API (C linkage, versioned libcupti.so.13 by fakecupti.map): NVTX

extern "C" {

// --- NVTX ---

// What libcupti.so.13 exports for an injection library's InitializeInjectionNvtx2 to call (the
// CUPTI guide's "Initialization to Receive NVTX Callbacks or Activity Records"; no header declares it).
CUptiResult CUPTIAPI cuptiNvtxInitialize2(void* pfnGetExportTable)
{
    FAKE_CUED("cuptiNvtxInitialize2");
    auto getExportTable = reinterpret_cast<NvtxGetExportTableFunc_t>(pfnGetExportTable);
    if (getExportTable == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto* exports = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (exports == nullptr || exports->GetModuleFunctionTable == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (exports->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) == 0)
        return CUPTI_ERROR_UNKNOWN;
    install(table, size, NVTX_CBID_CORE_MarkA, fakeMarkA);
    install(table, size, NVTX_CBID_CORE_RangeStartA, fakeRangeStartA);
    install(table, size, NVTX_CBID_CORE_RangeEnd, fakeRangeEnd);
    install(table, size, NVTX_CBID_CORE_RangePushA, fakeRangePushA);
    install(table, size, NVTX_CBID_CORE_RangePushEx, fakeRangePushEx);
    install(table, size, NVTX_CBID_CORE_RangePop, fakeRangePop);
    install(table, size, NVTX_CBID_CORE_NameOsThreadA, fakeNameOsThreadA);
    if (exports->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) == 0)
        return CUPTI_ERROR_UNKNOWN;
    install(table, size, NVTX_CBID_CORE2_DomainCreateA, fakeDomainCreateA);
    install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, fakeDomainRangePushEx);
    install(table, size, NVTX_CBID_CORE2_DomainRangePop, fakeDomainRangePop);
    install(table, size, NVTX_CBID_CORE2_DomainMarkEx, fakeDomainMarkEx);
    ledger("nvtx-attach\t%u", pid());
    return CUPTI_SUCCESS;
}

// libcupti.so.13 is itself an NVTX injection library too (NVTX_INJECTION64_PATH=libcupti.so).
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable)
{
    return cuptiNvtxInitialize2(reinterpret_cast<void*>(getExportTable)) == CUPTI_SUCCESS ? 1 : 0;
}

} // extern "C"
