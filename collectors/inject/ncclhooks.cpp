// SPDX-License-Identifier: MIT
#include "ncclhooks.h"

#include "ncclkernel.h"

// The NVTX types first: CUPTI's parameter structs are declared in terms of them.
// clang-format off
#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>
// clang-format on

namespace ridgeline::inject {

namespace {

thread_local NcclThreadCalls t_calls;

void pushed(NcclCallRegistry& registry, const nvtxDomainRangePushEx_params& p)
{
    const void* domain = p.domain;
    bool nccl = registry.isNcclDomain(domain);
    // The payload is only read for NCCL's domain, or while that domain is not known yet.
    if (!nccl && registry.domainKnown())
        return;
    const NcclPayload payload = decodeNcclEvent(p.core.eventAttrib);
    if (!nccl) {
        if (payload.kind == NcclPayload::Kind::None)
            return;
        registry.adoptDomain(domain);
        nccl = registry.isNcclDomain(domain);
        if (!nccl)
            return;
    }
    if (payload.kind == NcclPayload::Kind::Comm)
        registry.noteComm(payload.comm);
    t_calls.pushed(payload);
}

} // namespace

void ncclOnNvtx(NcclCallRegistry& registry, CUpti_CallbackId cbid, const CUpti_NvtxData& data)
{
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
        const auto* p = static_cast<const nvtxDomainCreateA_params*>(data.functionParams);
        const auto* handle = static_cast<const nvtxDomainHandle_t*>(data.functionReturnValue);
        if (p && p->name && handle)
            registry.domainCreated(*handle, p->name);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx:
        if (const auto* p = static_cast<const nvtxDomainRangePushEx_params*>(data.functionParams))
            pushed(registry, *p);
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        if (const auto* p = static_cast<const nvtxDomainRangePop_params*>(data.functionParams);
            p && registry.isNcclDomain(p->domain))
            t_calls.popped();
        break;
    default:
        break;
    }
}

void ncclOnLaunch(NcclCallRegistry& registry, const CUpti_CallbackData& data)
{
    // The common case costs one thread-local test: no NCCL call open on this thread.
    if (!t_calls.launching() || !data.symbolName || !ncclKernelInfo(data.symbolName))
        return;
    if (auto call = t_calls.take())
        registry.attach(data.correlationId, *call);
}

} // namespace ridgeline::inject
