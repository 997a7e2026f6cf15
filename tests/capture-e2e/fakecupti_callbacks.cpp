// SPDX-License-Identifier: MIT
// The stand-in libcupti.so.13's Callback API (what the stand-in is: fakecupti.cpp): the one
// subscriber, the callbacks it enabled, the contexts' devices, and cuptiSubscribe and its kin.
#include "fakecupti.h"

#include <cupti.h>
#include <map>
#include <mutex>

using namespace fakecuda;
using namespace fakecuda::libcupti;

// ---------------------------------------------------------------------------------------------
// Callback API

namespace fakecuda::libcupti {

Callbacks& callbacks()
{
    static Callbacks* c = new Callbacks();
    return *c;
}

} // namespace fakecuda::libcupti

namespace {

bool wants(CUpti_CallbackDomain domain, std::uint32_t cbid)
{
    Callbacks& c = callbacks();
    return c.subscribed.load() && static_cast<std::size_t>(domain) < kDomains && cbid < kCbids
        && c.enabled[domain][cbid].load();
}

} // namespace

namespace fakecuda::libcupti {

void call(CUpti_CallbackDomain domain, std::uint32_t cbid, const void* data)
{
    Callbacks& c = callbacks();
    if (auto* f = c.function.load(); f != nullptr && wants(domain, cbid))
        f(c.userdata.load(), domain, cbid, data);
}

std::map<CUcontext, std::uint32_t>& contextDevices()
{
    static auto* m = new std::map<CUcontext, std::uint32_t>();
    return *m;
}
std::mutex& contextMutex()
{
    static auto* m = new std::mutex();
    return *m;
}

} // namespace fakecuda::libcupti

// =============================================================================================
// The CUPTI API (C linkage, versioned libcupti.so.13 by fakecupti.map): callbacks

extern "C" {

CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext context, uint32_t* deviceId)
{
    FAKE_CUED("cuptiGetDeviceId");
    if (deviceId == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(contextMutex());
    auto it = contextDevices().find(context);
    if (it == contextDevices().end())
        return CUPTI_ERROR_INVALID_CONTEXT;
    *deviceId = it->second;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char** name)
{
    if (name == nullptr || static_cast<std::size_t>(domain) >= kDomains || cbid >= kCbids)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *name = callbacks().names[domain][cbid].load();
    return *name != nullptr ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* userdata)
{
    FAKE_CUED("cuptiSubscribe");
    if (subscriber == nullptr || callback == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Callbacks& c = callbacks();
    if (c.subscribed.exchange(true))
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    c.function.store(callback);
    c.userdata.store(userdata);
    *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&c);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle subscriber)
{
    Callbacks& c = callbacks();
    if (subscriber != reinterpret_cast<CUpti_SubscriberHandle>(&c))
        return CUPTI_ERROR_INVALID_PARAMETER;
    c.subscribed.store(false);
    c.function.store(nullptr);
    for (auto& domain : c.enabled) {
        for (auto& e : domain)
            e.store(false);
    }
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(
    uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    FAKE_CUED("cuptiEnableCallback");
    Callbacks& c = callbacks();
    if (subscriber != reinterpret_cast<CUpti_SubscriberHandle>(&c) || static_cast<std::size_t>(domain) >= kDomains
        || cbid >= kCbids)
        return CUPTI_ERROR_INVALID_PARAMETER;
    c.enabled[domain][cbid].store(enable != 0);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain)
{
    FAKE_CUED("cuptiEnableDomain");
    Callbacks& c = callbacks();
    if (subscriber != reinterpret_cast<CUpti_SubscriberHandle>(&c) || static_cast<std::size_t>(domain) >= kDomains)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (auto& e : c.enabled[domain])
        e.store(enable != 0);
    return CUPTI_SUCCESS;
}

} // extern "C"
