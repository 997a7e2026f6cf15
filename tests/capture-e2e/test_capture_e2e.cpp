// SPDX-License-Identifier: MIT
// The whole injection path without a GPU: the real `ridgeline capture`, the real
// libridgeline-inject.so, its real signal handlers, part files, crash files, merge and assembly,
// driven by a stand-in libcuda.so.1 and libcupti.so.13 (fakecuda.cpp, fakecupti.cpp). Every
// record the stand-in CUPTI delivered is in its ledger; each test checks the merged session
// against it, record by record. This proves the plumbing, not the GPU (docs/CAPTURE.md).
//
// This file: a whole run, with and without counters, and runs in which the driver or CUPTI keeps
// tracing or profiling from starting. Crashes, forks and kills: test_capture_e2e_processes.cpp;
// counter ranges and graph launches: test_capture_e2e_counters.cpp; the checks: e2echecks.h.
#include "e2e.h"
#include "e2echecks.h"
#include "fakework.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

using namespace ridgeline;
using namespace ridgeline::e2e;
using ridgeline::testing::TempDir;

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

    // The assembly stored the whole session's timeline analysis, the one its rank summaries were
    // made from: a scan of the session gives the same.
    auto reader = core::SessionReader::open(run.output);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    const auto verdicts = core::kernelVerdicts(reader.value());
    ASSERT_TRUE(verdicts.ok());
    const auto stored = core::storedTimelineSummaries(reader.value(), core::timelineVerdictsKey(verdicts.value()));
    ASSERT_TRUE(stored.ok() && stored.value().has_value());
    const auto scanned = core::analyzeSessionTimeline(reader.value(), core::kernelVerdicts, {});
    ASSERT_TRUE(scanned.ok());
    ASSERT_EQ(stored.value()->size(), scanned.value().size());
    ASSERT_FALSE(scanned.value().empty());
    for (std::size_t i = 0; i < scanned.value().size(); ++i)
        EXPECT_EQ(core::timelineSummaryJson((*stored.value())[i]), core::timelineSummaryJson(scanned.value()[i]));
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
