// SPDX-License-Identifier: MIT
// The checks of the end-to-end capture tests (e2echecks.h): every record, NVTX range and counter
// range the stand-in CUPTI's ledger lists is in the merged session, field by field.
#include "e2echecks.h"

#include <algorithm>
#include <cupti_activity.h>
#include <gtest/gtest.h>
#include <set>

namespace ridgeline::e2e {

namespace {

std::string withoutVersion(std::string name)
{
    const auto pos = name.rfind("_v");
    if (pos != std::string::npos && pos + 2 < name.size()
        && name.find_first_not_of("0123456789", pos + 2) == std::string::npos)
        name.resize(pos);
    return name;
}

// The session's kernel for a ledger kernel line (same process, correlation id and start).
const core::Kernel* kernelFor(const Session& s, const Line& l)
{
    for (const auto& k : s.kernels) {
        if (s.pidOf(k.processId) == l.pid() && k.correlationId == l.num(2) && k.startNs == l.num(6))
            return &k;
    }
    return nullptr;
}

} // namespace

// Every kernel the ledger lists for the processes in `pids` is in the session, field by field, and
// the session has no other kernel of those processes.
void expectKernels(const Run& run, const std::set<std::int64_t>& pids)
{
    const Session& s = run.session;
    std::size_t expected = 0;
    for (const Line* l : run.ledger.of("kernel")) {
        if (pids.count(l->pid()) == 0)
            continue;
        ++expected;
        const core::Kernel* k = kernelFor(s, *l);
        ASSERT_NE(k, nullptr) << "kernel missing: " << l->text(17) << " correlation " << l->num(2);
        EXPECT_EQ(s.nameOf(*k), l->text(17));
        EXPECT_EQ(s.ordinalOf(k->deviceId), l->num(3));
        EXPECT_EQ(k->contextId, l->num(4));
        EXPECT_EQ(k->streamId, l->num(5));
        EXPECT_EQ(k->endNs, l->num(7));
        EXPECT_EQ(k->grid.x, static_cast<std::uint32_t>(l->num(8)));
        EXPECT_EQ(k->grid.y, static_cast<std::uint32_t>(l->num(9)));
        EXPECT_EQ(k->block.x, static_cast<std::uint32_t>(l->num(11)));
        EXPECT_EQ(k->dynamicSharedBytes, l->num(14));
        EXPECT_EQ(k->graphId, l->num(15));
    }
    std::size_t inSession = 0;
    for (const auto& k : s.kernels)
        inSession += pids.count(s.pidOf(k.processId));
    EXPECT_EQ(inSession, expected);
}

namespace {

core::MemOpKind copyKind(std::int64_t cupti)
{
    switch (cupti) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return core::MemOpKind::MemcpyHtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return core::MemOpKind::MemcpyDtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return core::MemOpKind::MemcpyDtoD;
    default:
        return core::MemOpKind::Other;
    }
}

const core::MemOp* memopFor(const Session& s, const Line& l)
{
    for (const auto& m : s.memops) {
        if (s.pidOf(m.processId) == l.pid() && m.correlationId == l.num(2) && m.startNs == l.num(5))
            return &m;
    }
    return nullptr;
}

} // namespace

void expectMemops(const Run& run)
{
    const Session& s = run.session;
    std::size_t expected = 0;
    for (const Line* l : run.ledger.of("memcpy")) {
        ++expected;
        const core::MemOp* m = memopFor(s, *l);
        ASSERT_NE(m, nullptr) << "copy missing, correlation " << l->num(2);
        EXPECT_EQ(m->kind, copyKind(l->num(7)));
        EXPECT_EQ(m->bytes, l->num(10));
        EXPECT_EQ(m->endNs, l->num(6));
        EXPECT_EQ(m->streamId, l->num(4));
        EXPECT_EQ(s.ordinalOf(m->deviceId), l->num(3));
    }
    for (const Line* l : run.ledger.of("p2p")) {
        ++expected;
        const core::MemOp* m = memopFor(s, *l);
        ASSERT_NE(m, nullptr) << "peer copy missing, correlation " << l->num(2);
        EXPECT_EQ(m->kind, core::MemOpKind::MemcpyPtoP);
        EXPECT_EQ(m->bytes, l->num(9));
        ASSERT_TRUE(m->srcDeviceId && m->dstDeviceId);
        EXPECT_EQ(*m->srcDeviceId, l->num(7));
        EXPECT_EQ(*m->dstDeviceId, l->num(8));
        EXPECT_EQ(m->srcMemory, "device");
    }
    for (const Line* l : run.ledger.of("memset")) {
        ++expected;
        const core::MemOp* m = memopFor(s, *l);
        ASSERT_NE(m, nullptr) << "memset missing, correlation " << l->num(2);
        EXPECT_EQ(m->kind, core::MemOpKind::Memset);
        EXPECT_EQ(m->bytes, l->num(7));
        EXPECT_EQ(m->dstMemory, "device");
    }
    EXPECT_EQ(s.memops.size(), expected);
}

void expectApiCalls(const Run& run)
{
    const Session& s = run.session;
    std::size_t expected = 0;
    for (const Line* l : run.ledger.of("api")) {
        ++expected;
        const core::ApiCall* found = nullptr;
        for (const auto& c : s.apiCalls) {
            if (s.pidOf(c.processId) == l->pid() && c.domain == l->text(2) && c.correlationId == l->num(4)
                && c.startNs == l->num(6))
                found = &c;
        }
        ASSERT_NE(found, nullptr) << "API call missing: " << l->text(9);
        EXPECT_EQ(found->name, withoutVersion(l->text(9)));
        EXPECT_EQ(found->threadId, l->num(5));
        EXPECT_EQ(found->endNs, l->num(7));
        EXPECT_EQ(found->returnCode, l->num(8));
    }
    for (const Line* l : run.ledger.of("sync")) {
        ++expected;
        const bool found = std::any_of(s.apiCalls.begin(), s.apiCalls.end(), [&](const core::ApiCall& c) {
            return c.domain == "sync" && c.correlationId == l->num(2) && c.startNs == l->num(4) && c.endNs == l->num(5)
                && c.name
                == (l->num(3) == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE ? "StreamSynchronize"
                                                                                        : "ContextSynchronize");
        });
        EXPECT_TRUE(found) << "synchronisation missing, correlation " << l->num(2);
    }
    EXPECT_EQ(s.apiCalls.size(), expected);
}

void expectNvtx(const Run& run)
{
    const Session& s = run.session;
    const auto lines = run.ledger.of("nvtx");
    for (const Line* l : lines) {
        const bool found = std::any_of(s.nvtx.begin(), s.nvtx.end(), [&](const core::NvtxRange& r) {
            return s.pidOf(r.processId) == l->pid() && r.threadId == l->num(2) && r.startNs == l->num(3)
                && r.endNs == l->num(4) && r.color == static_cast<std::uint32_t>(l->num(5)) && r.domain == l->text(6)
                && r.name == l->text(7);
        });
        EXPECT_TRUE(found) << "NVTX range missing: " << l->text(7);
    }
    EXPECT_EQ(s.nvtx.size(), lines.size());
}

// The counters of each profiled kernel are exactly those of its range in the ledger.
std::size_t expectCounters(const Run& run)
{
    const Session& s = run.session;
    std::size_t checked = 0;
    for (const Line* range : run.ledger.of("range")) {
        const core::Kernel* kernel = nullptr;
        for (const auto& k : s.kernels) {
            if (s.pidOf(k.processId) == range->pid() && k.correlationId == range->num(2)
                && s.nameOf(k) == range->text(4))
                kernel = &k;
        }
        if (kernel == nullptr)
            continue; // a range of no launch (foreign) or of a graph launch: checked by the caller
        auto it = s.metrics.find(kernel->id);
        EXPECT_NE(it, s.metrics.end()) << "no counters for " << range->text(4);
        if (it == s.metrics.end())
            continue;
        EXPECT_EQ(it->second, rangeValues(*range)) << range->text(4);
        ++checked;
    }
    return checked;
}

const core::Ceiling* ceiling(const Session& s, const std::string& resource, core::CeilingSource source)
{
    for (const auto& c : s.ceilings) {
        if (c.resource == resource && c.source == source && s.ordinalOf(c.deviceId) == 0)
            return &c;
    }
    return nullptr;
}

const core::Verdict* verdictOf(const Session& s, const char* kernel)
{
    for (const auto* k : s.kernelsNamed(kernel)) {
        if (auto it = s.verdicts.find(k->id); it != s.verdicts.end())
            return &it->second;
    }
    return nullptr;
}

} // namespace ridgeline::e2e
