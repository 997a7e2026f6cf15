// SPDX-License-Identifier: MIT
// Timeline analysis benchmarks (core/include/ridgeline/core/timeline/timeline.h): the interval maths on
// 10 M GPU ops held in memory (the target: under 2 s), and the whole analysis of a
// 1 M-kernel session file. All data is synthetic. Results and commands: docs/PERFORMANCE.md.
#include "benchskip.h"
#include "fixtures.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timeline.h"
#include "tempdir.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace ridgeline;

constexpr std::int64_t kOps = 10'000'000;
constexpr int kStreams = 8;
constexpr std::int64_t kSessionKernels = 1'000'000;

// 10 M ops on one device, 8 streams, back to back per stream with small gaps; every op has a
// launch call that the host issued in order, about 20 µs ahead. One op in 10 is a collective, one in 20 a
// copy, one in 50 a memset; verdicts cycle. `streamMajor` lists stream 0's ops first, then
// stream 1's, ... (unsorted, as ops arrive per stream); otherwise they are in start order.
std::vector<core::TimelineGpuOp> makeOps(bool streamMajor)
{
    std::vector<core::TimelineGpuOp> ops;
    ops.reserve(static_cast<std::size_t>(kOps));
    const std::int64_t perStream = kOps / kStreams;
    for (int s = 0; s < kStreams; ++s) {
        std::int64_t clock = 1'000'000 + s * 700;
        for (std::int64_t i = 0; i < perStream; ++i) {
            const std::int64_t n = s * perStream + i;
            core::TimelineGpuOp op;
            const std::int64_t duration = 2'000 + (n * 7919) % 20'000;
            op.startNs = clock;
            op.endNs = clock + duration;
            op.launchStartNs = clock - 20'000 - (n * 104729) % 2'000; // issued in order, ~20 µs ahead
            op.launchEndNs = op.launchStartNs + 400;
            op.streamId = s + 7;
            op.kind = n % 10 == 0 ? core::GpuOpKind::Collective
                : n % 20 == 1     ? core::GpuOpKind::Memcpy
                : n % 50 == 3     ? core::GpuOpKind::Memset
                                  : core::GpuOpKind::Kernel;
            op.verdict = static_cast<core::VerdictClass>(n % 5);
            ops.push_back(op);
            clock += duration + 300 + (n * 31) % 3'000;
        }
    }
    if (!streamMajor) {
        std::sort(ops.begin(), ops.end(),
            [](const core::TimelineGpuOp& a, const core::TimelineGpuOp& b) { return a.startNs < b.startNs; });
    }
    return ops;
}

void BM_TimelineOps(benchmark::State& state)
{
    const auto source = makeOps(state.range(0) != 0);
    std::vector<core::TimelineGpuOp> ops;
    for (auto _ : state) {
        state.PauseTiming();
        ops = source; // the analysis reorders its input: give each iteration a fresh copy
        state.ResumeTiming();
        auto summary = core::analyzeTimeline(ops);
        benchmark::DoNotOptimize(summary);
    }
    state.SetItemsProcessed(state.iterations() * kOps);
}

void BM_TimelineSession(benchmark::State& state)
{
    static testing::TempDir dir;
    static std::string error;
    static const std::string path = [] {
        const std::string p = dir.path() + "/timeline.ridge";
        testing::SyntheticSpec spec;
        spec.kernels = kSessionKernels;
        spec.devices = 2;
        spec.batchSize = 100'000;
        auto written = testing::writeSyntheticSession(p, spec);
        if (written.hasError())
            error = written.error().message;
        return p;
    }();
    if (!error.empty()) {
        state.SkipWithError(error.c_str());
        return;
    }
    auto reader = core::SessionReader::open(path);
    if (bench::skippedOnError(state, reader))
        return;
    for (auto _ : state) {
        auto result = core::analyzeSessionTimeline(reader.value());
        if (bench::skippedOnError(state, result))
            return;
        benchmark::DoNotOptimize(result);
    }
    state.SetItemsProcessed(state.iterations() * kSessionKernels);
}

} // namespace

BENCHMARK(BM_TimelineOps)->ArgName("stream_major")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TimelineSession)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
