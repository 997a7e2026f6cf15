// SPDX-License-Identifier: MIT
// The whole injection path without a GPU: the real `ridgeline capture`, the real
// libridgeline-inject.so, its real signal handlers, part files, crash files, merge and assembly,
// driven by a stand-in libcuda.so.1 and libcupti.so.13 (fakecuda.cpp, fakecupti.cpp). Every
// record the stand-in CUPTI delivered is in its ledger; each test checks the merged session
// against it, record by record. This proves the plumbing, not the GPU (docs/CAPTURE.md).
#include "e2e.h"
#include "fakework.h"
#include "ridgeline/core/analysis/roofline.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cupti_activity.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <unistd.h>

using namespace ridgeline;
using namespace ridgeline::e2e;
using ridgeline::testing::TempDir;

namespace {

constexpr const char* kTriad = "_Z12stream_triadPfPKfS1_f";
constexpr const char* kSgemm = "_Z5sgemmiiiPKfS0_Pf";
constexpr const char* kHgemm = "_Z5hgemmiiiPK6__halfS1_Pf";
constexpr const char* kDgemm = "_Z5dgemmiiiPKdS0_Pd";
constexpr const char* kSmall = "_Z5smalli";
constexpr const char* kChild = "_Z11child_worki";

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

} // namespace

TEST(CaptureEndToEnd, EveryRecordCounterAndCeilingOfARealRun)
{
    TempDir dir;
    const auto run = capture(dir, { "all" });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    ASSERT_TRUE(run.session.error.empty()) << run.session.error;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "complete") << run.result.err;
    EXPECT_EQ(s.meta.at("capture.dropped_records"), "0");
    EXPECT_EQ(s.meta.count("capture.error"), 0u) << s.value("capture.error");
    EXPECT_EQ(run.ledger.count("attach"), 1u);
    EXPECT_EQ(run.ledger.count("nvtx-attach"), 1u);

    // One process, everything it did.
    ASSERT_EQ(run.ledger.count("kernel") > 20, true);
    const std::int64_t pid = run.ledger.of("kernel").front()->pid();
    expectKernels(run, { pid });
    expectMemops(run);
    expectApiCalls(run);
    expectNvtx(run);
    EXPECT_EQ(run.ledger.count("nvtx"), 7u); // setup, checkpoint (a mark), domain range, async phase, 3 workers
    for (const Line* l : run.ledger.of("thread")) {
        EXPECT_TRUE(std::any_of(s.threads.begin(), s.threads.end(), [&](const core::Thread& t) {
            return t.tid == l->num(2) && t.name == l->text(3);
        })) << l->text(3);
    }
    EXPECT_EQ(run.ledger.count("thread"), 4u);
    // The kernel launched inside the emulated runtime call keeps the runtime call's correlation id.
    const auto small = s.kernelsNamed(kSmall);
    EXPECT_TRUE(std::any_of(small.begin(), small.end(), [&](const core::Kernel* k) {
        return std::any_of(s.apiCalls.begin(), s.apiCalls.end(), [&](const core::ApiCall& c) {
            return c.domain == "runtime" && c.name == "cudaLaunchKernel" && c.correlationId == k->correlationId;
        });
    }));

    // Counters: every range of the ledger is on its kernel, value for value; every kernel has one.
    const std::size_t counted = expectCounters(run);
    EXPECT_EQ(counted, run.ledger.count("range"));
    EXPECT_EQ(counted, run.ledger.count("kernel"));
    const auto passes = run.ledger.of("passes");
    ASSERT_GE(passes.size(), 2u);
    EXPECT_EQ(s.meta.at("capture.replay_passes"), passes[0]->text(2) + "+" + passes[1]->text(2));
    EXPECT_EQ(s.meta.at("capture.metrics"), "roofline");

    // Ceilings: the datasheet's for the GPU the driver reported, and every counter ceiling
    // (peak per cycle x clock of the launch) for DRAM, L2, L1, each precision and tensor type.
    using core::CeilingSource;
    namespace fc = fakecuda;
    ASSERT_NE(ceiling(s, "FP32", CeilingSource::Datasheet), nullptr);
    ASSERT_NE(ceiling(s, "FP16_tensor", CeilingSource::Datasheet), nullptr);
    const std::pair<const char*, double> counters[] = {
        { "FP32", fc::kFfmaPeak * 2 * fc::kSmClock },
        { "FP64", fc::kDfmaPeak * 2 * fc::kSmClock },
        { "FP16", fc::kHfmaPeak * 4 * fc::kSmClock },
        { "DRAM", fc::kDramPeak * fc::kDramClock },
        { "L2", fc::kL2Peak * fc::kL2Clock },
        { "L1", fc::kL1Peak * fc::kL1Clock },
        { "FP16_tensor", fc::tensorPeak("fp16") * fc::kSmClock },
        { "BF16_tensor", fc::tensorPeak("bf16_dst_fp32") * fc::kSmClock },
        { "TF32_tensor", fc::tensorPeak("tf32_dst_fp32") * fc::kSmClock },
        { "FP64_tensor", fc::tensorPeak("fp64") * fc::kSmClock },
        { "FP8_tensor", fc::tensorPeak("fp8") * fc::kSmClock },
        { "INT8_tensor", fc::tensorPeak("int8") * fc::kSmClock },
    };
    for (const auto& [resource, value] : counters) {
        const auto* c = ceiling(s, resource, CeilingSource::Counters);
        ASSERT_NE(c, nullptr) << resource;
        EXPECT_DOUBLE_EQ(c->value, value) << resource;
    }
    // Two GPUs, each with its ceilings.
    std::set<std::string> uuids;
    for (const auto& d : s.devices)
        uuids.insert(d.uuid);
    EXPECT_EQ(uuids.size(), 2u);

    // Verdicts follow from the counters and the counter ceilings.
    const auto* triad = verdictOf(s, kTriad);
    ASSERT_NE(triad, nullptr);
    EXPECT_EQ(triad->verdict, core::VerdictClass::MemoryBound) << triad->reason;
    EXPECT_EQ(triad->boundBy, "DRAM");
    ASSERT_TRUE(triad->utilization);
    EXPECT_NEAR(*triad->utilization, 0.80, 1e-6);
    const auto* sgemm = verdictOf(s, kSgemm);
    ASSERT_NE(sgemm, nullptr);
    EXPECT_EQ(sgemm->verdict, core::VerdictClass::ComputeBound) << sgemm->reason;
    EXPECT_EQ(sgemm->boundBy, "FP32");
    ASSERT_TRUE(sgemm->utilization);
    EXPECT_NEAR(*sgemm->utilization, 0.75, 1e-6);
    const auto* hgemm = verdictOf(s, kHgemm);
    ASSERT_NE(hgemm, nullptr);
    EXPECT_EQ(hgemm->verdict, core::VerdictClass::ComputeBound) << hgemm->reason;
    EXPECT_EQ(hgemm->boundBy, "tensor") << hgemm->reason;
    // Tensor work per type, as `report` shows it: the FP16 GEMM is FP16 tensor work, counted.
    const auto report = ridgeline::testing::runCli({ "report", "--format", "json", run.output });
    ASSERT_EQ(report.exitCode, 0) << report.err;
    const auto doc = nlohmann::json::parse(report.out);
    bool sawHgemm = false;
    for (const auto& k : doc.at("kernels")) {
        if (k.at("mangled_name") != kHgemm)
            continue;
        sawHgemm = true;
        EXPECT_GT(k.at("flops_by_precision").value("FP16_tensor", 0.0), 0.0) << k.dump();
        EXPECT_EQ(k.at("flops_by_precision").value("BF16_tensor", 0.0), 0.0) << k.dump();
        EXPECT_FALSE(k.at("tensor_flops_estimated").get<bool>());
    }
    EXPECT_TRUE(sawHgemm) << report.out;
    const auto* dgemm = verdictOf(s, kDgemm);
    ASSERT_NE(dgemm, nullptr);
    EXPECT_EQ(dgemm->verdict, core::VerdictClass::ComputeBound) << dgemm->reason;
    const auto* smallVerdict = verdictOf(s, kSmall);
    ASSERT_NE(smallVerdict, nullptr);
    EXPECT_EQ(smallVerdict->verdict, core::VerdictClass::LatencyBound) << smallVerdict->reason;
}

TEST(CaptureEndToEnd, TraceOnlyTouchesNoProfiler)
{
    TempDir dir;
    const auto run = capture(dir, { "all" }, { {}, { "--metrics", "none" } });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "complete");
    expectKernels(run, { run.ledger.of("kernel").front()->pid() });
    expectMemops(run);
    EXPECT_EQ(run.ledger.count("range"), 0u);
    EXPECT_EQ(run.ledger.count("setconfig"), 0u);
    EXPECT_TRUE(s.metrics.empty());
    EXPECT_EQ(s.meta.count("capture.replay_passes"), 0u);
    const auto* triad = verdictOf(s, kTriad);
    ASSERT_NE(triad, nullptr);
    EXPECT_EQ(triad->verdict, core::VerdictClass::Unknown);
    // Without counters only the datasheet ceilings remain.
    EXPECT_NE(ceiling(s, "DRAM", core::CeilingSource::Datasheet), nullptr);
    EXPECT_EQ(ceiling(s, "DRAM", core::CeilingSource::Counters), nullptr);
}

namespace {

// A crash mid-run, through the injection library's own fatal-signal handler: every record the
// stand-in CUPTI delivered is in the session (part file or crash file), none is lost, nothing is
// allocated in the handler, and the session is partial.
void expectCrashRecovered(const char* mode, int signal)
{
    TempDir dir;
    Options options;
    // Small buffers that CUPTI's worker hands over as soon as they fill: some records reach the part
    // file normally, the rest through the crash file.
    options.env = { "RIDGELINE_FAKE_BUFFER_BYTES=16384", "RIDGELINE_FAKE_FLUSH_MS=10",
        "ASAN_OPTIONS=handle_segv=0:handle_abort=0" };
    const auto run = capture(dir, { mode, "120" }, options);
    EXPECT_EQ(run.result.exitCode, 128 + signal) << run.result.err;
    ASSERT_TRUE(run.session.error.empty()) << run.session.error;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "partial");
    EXPECT_EQ(run.ledger.count("alloc-in-signal"), 0u) << "the fatal-signal path allocated memory";
    for (const Line* l : run.ledger.of("alloc-in-signal"))
        ADD_FAILURE() << "allocation in the signal handler: " << l->text(2);
    ASSERT_EQ(run.ledger.count("kernel"), 120u);
    expectKernels(run, { run.ledger.of("kernel").front()->pid() });
    expectMemops(run);
    // Records recovered from the crash file keep their callback ids but no names (no libcupti in
    // the launcher): compare the API calls by correlation and time only.
    std::size_t api = 0;
    for (const Line* l : run.ledger.of("api")) {
        api += std::any_of(s.apiCalls.begin(), s.apiCalls.end(), [&](const core::ApiCall& c) {
            return c.correlationId == l->num(4) && c.startNs == l->num(6) && c.endNs == l->num(7);
        });
    }
    EXPECT_EQ(api, run.ledger.count("api"));
    // The NVTX ranges closed before the crash.
    EXPECT_EQ(s.nvtx.size(), run.ledger.count("nvtx"));
    const std::string died = "the process died of signal " + std::to_string(signal) + "; ";
    const auto at = s.warnings().find(died);
    ASSERT_NE(at, std::string::npos) << s.warnings();
    // Both ways were taken: records in the part file, and the rest from the handler.
    const auto recovered = std::strtoull(s.warnings().c_str() + at + died.size(), nullptr, 10);
    const auto delivered = run.ledger.count("kernel") + run.ledger.count("memcpy") + run.ledger.count("api")
        + 2 * run.ledger.count("nvtx") + run.ledger.count("device");
    EXPECT_GT(recovered, 0u) << s.warnings();
    EXPECT_LT(recovered, delivered) << s.warnings();
    EXPECT_EQ(s.meta.at("capture.signal"), std::to_string(signal));
    // Counters of the launches before the crash are in the part file.
    EXPECT_GT(s.metrics.size(), 0u);
}

} // namespace

TEST(CaptureEndToEnd, SegfaultMidRunLosesNoDeliveredRecord)
{
    expectCrashRecovered("segv", SIGSEGV);
}

TEST(CaptureEndToEnd, AbortMidRunLosesNoDeliveredRecord)
{
    expectCrashRecovered("abort", SIGABRT);
}

TEST(CaptureEndToEnd, ForkedChildLeavesTheParentsPartAlone)
{
    TempDir dir;
    const auto run = capture(dir, { "fork" });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "complete");
    // The child (no exec) shares the parent's CUPTI state and part file descriptor: it records
    // nothing, and the parent's records are all there.
    EXPECT_EQ(run.ledger.count("fork"), 1u);
    std::set<std::int64_t> pids;
    for (const Line* l : run.ledger.of("kernel"))
        pids.insert(l->pid());
    ASSERT_EQ(pids.size(), 2u);
    const std::int64_t parent = run.ledger.of("attach").front()->pid();
    expectKernels(run, { parent });
    EXPECT_TRUE(s.kernelsNamed(kChild).empty());
    EXPECT_EQ(s.kernels.size(), 2u);
    // Nor is it profiled (its counters could not be kept, and its launches must not wait).
    for (const Line* l : run.ledger.of("range"))
        EXPECT_EQ(l->pid(), parent) << "the forked child was profiled";
    EXPECT_EQ(expectCounters(run), 2u);
    EXPECT_EQ(s.meta.at("capture.parts"), "1");
}

TEST(CaptureEndToEnd, ExecedChildWritesAPartOfItsOwn)
{
    TempDir dir;
    const auto run = capture(dir, { "forkexec" });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "complete");
    EXPECT_EQ(s.meta.at("capture.parts"), "2");
    std::set<std::int64_t> pids;
    for (const Line* l : run.ledger.of("attach"))
        pids.insert(l->pid());
    ASSERT_EQ(pids.size(), 2u);
    expectKernels(run, pids);
    EXPECT_EQ(s.kernelsNamed(kSmall).size(), 3u);
    // Both processes profiled their launches.
    EXPECT_EQ(expectCounters(run), run.ledger.count("kernel"));
}

TEST(CaptureEndToEnd, NoDeviceRunsTheProgramUntraced)
{
    TempDir dir;
    const auto run = capture(dir, { "child" }, { { "RIDGELINE_FAKE_NO_DEVICE=1" }, {} });
    // The program's own cuInit fails too (exit 2), and nothing is recorded.
    EXPECT_EQ(run.result.exitCode, 2) << run.result.err;
    EXPECT_NE(run.result.err.find("the NVIDIA driver finds no GPU"), std::string::npos) << run.result.err;
    EXPECT_EQ(run.ledger.count("attach"), 0u);
    const Session& s = run.session;
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_TRUE(s.kernels.empty());
    EXPECT_NE(s.value("capture.error").find("No GPU activity could be recorded"), std::string::npos)
        << s.value("capture.error");
}

TEST(CaptureEndToEnd, OldDriverRunsTheProgramWithoutInjection)
{
    TempDir dir;
    const auto run = capture(dir, { "child" }, { { "RIDGELINE_FAKE_CUDA_VERSION=12040" }, {} });
    EXPECT_EQ(run.result.exitCode, 0) << run.result.err;
    EXPECT_NE(run.result.err.find("supports CUDA 12.4"), std::string::npos) << run.result.err;
    // The driver never loaded the injection library (nor, through it, CUPTI).
    EXPECT_EQ(run.ledger.count("attach"), 0u);
    EXPECT_EQ(run.ledger.count("kernel"), 0u);
    EXPECT_TRUE(run.session.kernels.empty());
    EXPECT_NE(run.session.value("capture.error").find("580.65.06"), std::string::npos);
}

TEST(CaptureEndToEnd, DroppedRecordsAreCountedAndSaid)
{
    TempDir dir;
    const auto run = capture(dir, { "all" }, { { "RIDGELINE_FAKE_DROP_EVERY=7" }, { "--metrics", "none" } });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const auto dropped = run.ledger.count("dropped");
    ASSERT_GT(dropped, 5u);
    EXPECT_EQ(run.session.meta.at("capture.dropped_records"), std::to_string(dropped));
    EXPECT_NE(run.result.err.find("activity records"), std::string::npos) << run.result.err;
    // What was delivered is all there, and nothing else.
    expectKernels(run, { run.ledger.of("attach").front()->pid() });
    expectMemops(run);
}

TEST(CaptureEndToEnd, ForeignAndDroppedRangesLeaveThoseLaunchesWithoutCounters)
{
    TempDir dir;
    // Launches 2 and 4 of the run: one records another kernel's range too, one loses its range.
    const auto run = capture(dir, { "threads", "1", "6" }, { { "RIDGELINE_FAKE_RANGE_CUES=foreign:2,dropped:4" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    ASSERT_EQ(s.kernels.size(), 6u);
    EXPECT_EQ(s.metrics.size(), 4u);
    EXPECT_EQ(run.ledger.count("rangedrop"), 1u);
    EXPECT_NE(s.warnings().find("recorded 2 counter ranges instead of one"), std::string::npos) << s.warnings();
    EXPECT_NE(s.warnings().find("CUPTI dropped the counter range"), std::string::npos) << s.warnings();
    EXPECT_EQ(s.meta.at("status"), "complete");
}

TEST(CaptureEndToEnd, ACounterNotCollectedIsMissingNotZero)
{
    TempDir dir;
    const auto run = capture(dir, { "threads", "1", "2" }, { { "RIDGELINE_FAKE_NAN_METRIC=dram__bytes.sum" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    ASSERT_EQ(s.metrics.size(), 2u);
    for (const auto& [kernel, values] : s.metrics) {
        EXPECT_EQ(values.count("dram__bytes.sum"), 0u);
        EXPECT_EQ(values.count("lts__t_bytes.sum"), 1u);
    }
    EXPECT_NE(s.warnings().find("could not be collected"), std::string::npos) << s.warnings();
    EXPECT_NE(s.warnings().find("dram__bytes.sum"), std::string::npos) << s.warnings();
}

TEST(CaptureEndToEnd, AnotherProfilerKeepsTheTraceAndSaysSo)
{
    TempDir dir;
    // cuptiSubscribe answers CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39).
    const auto run = capture(dir, { "threads", "1", "3" }, { { "RIDGELINE_FAKE_FAIL=cuptiSubscribe=39" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.kernels.size(), 3u);
    EXPECT_TRUE(s.metrics.empty());
    EXPECT_NE(s.value("capture.error").find("another profiler"), std::string::npos) << s.value("capture.error");
    EXPECT_EQ(run.ledger.count("range"), 0u);
}

TEST(CaptureEndToEnd, TracingThatCannotStartIsOneSentenceAndTheProgramRuns)
{
    TempDir dir;
    // cuptiActivityRegisterCallbacks answers CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35).
    const auto run
        = capture(dir, { "threads", "1", "3" }, { { "RIDGELINE_FAKE_FAIL=cuptiActivityRegisterCallbacks=35" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    EXPECT_TRUE(run.session.kernels.empty());
    EXPECT_NE(run.session.value("capture.error").find("administrators"), std::string::npos)
        << run.session.value("capture.error");
}

TEST(CaptureEndToEnd, ThreadsLaunchingTogetherAreSerialisedForCounters)
{
    TempDir dir;
    // Every launch is profiled; each takes 300 us longer (its replay), a window another thread's
    // kernel would fall into without the launch gate.
    const auto run = capture(dir, { "threads", "4", "10" }, { { "RIDGELINE_FAKE_REPLAY_US=300" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    ASSERT_EQ(s.kernels.size(), 40u);
    EXPECT_EQ(s.metrics.size(), 40u);
    EXPECT_EQ(run.ledger.count("range"), 40u) << "a range held another thread's kernel";
    EXPECT_EQ(s.warnings().find("instead of one"), std::string::npos) << s.warnings();
    EXPECT_EQ(expectCounters(run), 40u);
}

TEST(CaptureEndToEnd, EveryKindOfLaunchWaitsWhileAProfiledOneIsInFlight)
{
    TempDir dir;
    // Only sgemm is profiled; another thread keeps launching through cuLaunch, cuLaunchGrid,
    // cuLaunchGridAsync, cuGraphLaunch and the multi-device launch. None may land in a range.
    const auto run
        = capture(dir, { "gate", "8" }, { { "RIDGELINE_FAKE_REPLAY_US=2000" }, { "--kernel-regex", "sgemm" } });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.kernelsNamed(kSgemm).size() >= 8u, true);
    for (const Line* range : run.ledger.of("range"))
        EXPECT_EQ(range->text(4), kSgemm) << "another kernel was counted into a profiled range";
    EXPECT_EQ(s.warnings().find("instead of one"), std::string::npos) << s.warnings();
    std::size_t profiled = 0;
    for (const auto* k : s.kernelsNamed(kSgemm))
        profiled += s.metrics.count(k->id);
    EXPECT_EQ(profiled, 8u); // the direct launches; graph launches are not selected by a name filter
}

namespace {

// Kernels of the session that ran in graph launches, by launch (correlation id).
std::map<std::int64_t, std::vector<const core::Kernel*>> graphLaunches(const Session& s)
{
    std::map<std::int64_t, std::vector<const core::Kernel*>> out;
    for (const auto& k : s.kernels) {
        if (k.graphId != 0)
            out[k.correlationId].push_back(&k);
    }
    return out;
}

} // namespace

TEST(CaptureEndToEnd, GraphLaunchesGetCountersPerKernelNode)
{
    TempDir dir;
    const auto run = capture(dir, { "graph", "3" });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    const auto launches = graphLaunches(s);
    ASSERT_EQ(launches.size(), 3u);
    for (const auto& [correlation, kernels] : launches) {
        ASSERT_EQ(kernels.size(), 3u);
        for (const auto* k : kernels) {
            EXPECT_NE(k->graphNodeId, 0);
            EXPECT_EQ(k->graphRangeKernels, 0);
            EXPECT_EQ(s.metrics.count(k->id), 1u) << s.nameOf(*k);
        }
    }
    // Each node's counters are its own range's, value for value.
    EXPECT_EQ(expectCounters(run), 9u);
    const auto* triad = verdictOf(s, kTriad);
    ASSERT_NE(triad, nullptr);
    EXPECT_EQ(triad->verdict, core::VerdictClass::MemoryBound) << triad->reason;
    EXPECT_EQ(triad->reason.find("graph-level"), std::string::npos);
}

TEST(CaptureEndToEnd, OneRangePerGraphLaunchIsAttributedToTheGraphAndSaid)
{
    TempDir dir;
    const auto run = capture(dir, { "graph", "2" }, { { "RIDGELINE_FAKE_GRAPH_RANGES=graph" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    const auto launches = graphLaunches(s);
    ASSERT_EQ(launches.size(), 2u);
    for (const auto& [correlation, kernels] : launches) {
        ASSERT_EQ(kernels.size(), 3u);
        // The range is on the launch's first kernel; every kernel of the launch is marked.
        const auto* first = *std::min_element(kernels.begin(), kernels.end(),
            [](const core::Kernel* a, const core::Kernel* b) { return a->startNs < b->startNs; });
        for (const auto* k : kernels) {
            EXPECT_EQ(k->graphRangeKernels, 3);
            EXPECT_EQ(s.metrics.count(k->id), k == first ? 1u : 0u);
            const auto& v = s.verdicts.at(k->id);
            if (k == first) {
                EXPECT_EQ(v.reason.rfind("graph-level counters (one range over the 3 kernels", 0), 0u) << v.reason;
            } else {
                EXPECT_EQ(v.verdict, core::VerdictClass::Unknown);
                EXPECT_NE(v.reason.find("graph-level counters only"), std::string::npos) << v.reason;
            }
        }
        // The values are the graph range's (sums of the nodes' work; the chip's peaks).
        const Line* range = nullptr;
        for (const Line* l : run.ledger.of("range")) {
            if (l->num(2) == correlation)
                range = l;
        }
        ASSERT_NE(range, nullptr);
        EXPECT_EQ(s.metrics.at(first->id), rangeValues(*range));
    }
    // `ridgeline report` says which kernels have graph-level counters only.
    const auto report = ridgeline::testing::runCli({ "report", run.output });
    EXPECT_EQ(report.exitCode, 0) << report.err;
    EXPECT_NE(report.out.find("graph-level counters only"), std::string::npos) << report.out;
}

TEST(CaptureEndToEnd, GraphLaunchWithoutRangesIsSaidAndKeepsTheTrace)
{
    TempDir dir;
    const auto run = capture(dir, { "graph", "2" }, { { "RIDGELINE_FAKE_GRAPH_RANGES=none" }, {} });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(graphLaunches(s).size(), 2u);
    EXPECT_TRUE(s.metrics.empty());
    EXPECT_NE(s.warnings().find("no counter range for a profiled CUDA graph launch"), std::string::npos)
        << s.warnings();
}

TEST(CaptureEndToEnd, AKilledProcessKeepsWhatWasFlushedPeriodically)
{
    // SIGKILL gives no handler a chance: what the part file holds is all there is. Buffers of 8 MB
    // never fill here, so only the library's own periodic flush (cuptiActivityFlushAll(0) every
    // second) can have delivered the records; CUPTI's periodic flush hands over full buffers only.
    TempDir dir;
    const std::string ledger = dir.file("ledger.tsv");
    ridgeline::testing::RunOptions ro;
    ro.env = { std::string("CUDA_HOME=") + E2E_CUDA_ROOT, std::string("RIDGELINE_LIBCUDA=") + E2E_LIBCUDA,
        "RIDGELINE_FAKE_LEDGER=" + ledger, "RIDGELINE_FAKE_BUFFER_BYTES=8388608", "XDG_CACHE_HOME=" + dir.file("c") };
    ro.timeoutSeconds = 30;
    const std::string out = dir.file("s.ridge");
    ridgeline::testing::CliRun cli(
        { RIDGELINE_CLI, "capture", "-o", out, "--metrics", "none", "--", E2E_TARGET, "hang", "40" }, ro);
    // Wait for every launch and then for a flush after the last one (about a second).
    std::int64_t target = 0;
    bool flushed = false;
    for (int i = 0; i < 200 && !flushed; ++i) { // at most ~10 s
        usleep(50'000);
        const auto l = readLedger(ledger);
        if (l.count("kernel") < 40)
            continue;
        target = l.of("attach").front()->pid();
        bool afterLast = false;
        for (const auto& line : l.lines) {
            if (line.type() == "kernel")
                afterLast = false;
            else if (line.type() == "flushall")
                afterLast = true;
        }
        flushed = afterLast;
    }
    if (target > 0)
        ::kill(static_cast<pid_t>(target), SIGKILL); // also when the check below fails: no waiting
    ASSERT_TRUE(flushed) << "no flush delivered the records while the program ran";
    const auto result = cli.wait();
    EXPECT_EQ(result.exitCode, 128 + SIGKILL) << result.err;
    e2e::Run run;
    run.ledger = readLedger(ledger);
    run.session = readSession(out);
    ASSERT_TRUE(run.session.error.empty()) << run.session.error;
    EXPECT_EQ(run.session.meta.at("status"), "partial");
    expectKernels(run, { target });
    expectMemops(run);
}
