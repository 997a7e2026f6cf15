// SPDX-License-Identifier: MIT
// Session store benchmarks: kernel insert rate, opening a 1M-kernel session, reading a time
// window from it and summarising it. All data is synthetic (tests/support/fixtures.cpp).
// Results and the commands that produced them: docs/PERFORMANCE.md.
#include "benchskip.h"
#include "fixtures.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "tempdir.h"

#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

namespace {

namespace fs = std::filesystem;
using namespace ridgeline;

constexpr std::int64_t kLargeKernels = 1'000'000;
constexpr std::int64_t kWindowNs = 1'000'000; // 1 ms

// A private directory under /tmp, removed when the program ends.
testing::TempDir& benchDir()
{
    static testing::TempDir dir;
    return dir;
}

// The 1M-kernel session shared by the read benchmarks: 2 devices x 4 streams, 50 names.
struct LargeSession {
    std::string path;
    std::string error; // empty when the session was written
    std::int64_t windowDeviceId = 0; // device and stream of the first kernel
    std::int64_t windowStreamId = 0;
    std::int64_t windowStartNs = 0; // the middle of the session
    double fileMegabytes = 0;
};

const LargeSession& largeSession()
{
    static const LargeSession session = [] {
        LargeSession s;
        s.path = benchDir().file("large.ridge");
        testing::SyntheticSpec spec;
        spec.kernels = kLargeKernels;
        spec.devices = 2;
        spec.streamsPerDevice = 4;
        spec.batchSize = 100'000;
        auto written = testing::writeSyntheticSession(s.path, spec);
        if (written.hasError()) {
            s.error = written.error().message;
            return s;
        }
        auto reader = core::SessionReader::open(s.path);
        if (reader.hasError()) {
            s.error = reader.error().message;
            return s;
        }
        auto span = reader.value().gpuTimeSpan();
        if (span.hasError()) {
            s.error = span.error().message;
            return s;
        }
        s.windowStartNs = span.value().startNs + span.value().durationNs() / 2;
        auto first = reader.value().forEachKernel({}, [&](const core::Kernel& k) {
            s.windowDeviceId = k.deviceId;
            s.windowStreamId = k.streamId;
            return false;
        });
        if (first.hasError())
            s.error = first.error().message;
        s.fileMegabytes = static_cast<double>(fs::file_size(s.path)) / 1e6;
        return s;
    }();
    return session;
}

// Skips the benchmark (with the reason) when the shared session could not be written.
const LargeSession* largeSessionOrSkip(benchmark::State& state)
{
    const LargeSession& session = largeSession();
    if (!session.error.empty()) {
        state.SkipWithError(session.error.c_str());
        return nullptr;
    }
    return &session;
}

// The shared session open for reading, for the benchmarks that do not time the open; nullopt, with
// the benchmark skipped, where it could not be written or opened.
std::optional<core::SessionReader> openLargeSessionOrSkip(benchmark::State& state)
{
    const LargeSession* session = largeSessionOrSkip(state);
    if (!session)
        return std::nullopt;
    auto reader = core::SessionReader::open(session->path);
    if (bench::skippedOnError(state, reader))
        return std::nullopt;
    return std::move(reader).value();
}

// 1 ms in the middle of the session on one device, or on one stream of it.
core::TimeQuery windowQuery(const LargeSession& session, bool oneStream)
{
    return core::TimeQuery { session.windowDeviceId,
        oneStream ? std::optional<std::int64_t>(session.windowStreamId) : std::nullopt, session.windowStartNs,
        session.windowStartNs + kWindowNs };
}

// One read of the window (its row count in `rows`); false, with the benchmark skipped, where the
// query fails.
bool readWindow(benchmark::State& state, core::SessionReader& reader, const core::TimeQuery& query, std::size_t& rows)
{
    auto kernels = reader.kernels(query);
    if (bench::skippedOnError(state, kernels))
        return false;
    rows = kernels.value().size();
    benchmark::DoNotOptimize(kernels.value().data());
    return true;
}

// Writes range(0) kernels in transactions of range(1) rows into a new atomic session.
// With `withFinish`, finish() (index build, fsync, rename) is timed as well.
void writeKernels(benchmark::State& state, bool withFinish)
{
    testing::SyntheticSpec spec;
    spec.kernels = state.range(0);
    spec.batchSize = state.range(1);
    spec.devices = 2;
    spec.streamsPerDevice = 4;
    const std::string path = benchDir().file("write.ridge");
    for (auto _ : state) {
        state.PauseTiming();
        core::WriterOptions options;
        options.replaceExisting = true;
        auto writer = core::SessionWriter::create(path, options);
        if (bench::skippedOnError(state, writer))
            break;
        state.ResumeTiming();

        auto written = testing::writeSyntheticKernels(writer.value(), spec);
        if (written.ok() && withFinish)
            written = writer.value().finish(core::SessionStatus::Complete);

        state.PauseTiming();
        if (bench::skippedOnError(state, written))
            break;
        if (withFinish)
            state.counters["file_MB"] = static_cast<double>(fs::file_size(path)) / 1e6;
        writer = core::makeError(core::ErrorCode::Internal, "discarded"); // an unfinished writer removes its file
        std::error_code ec;
        fs::remove(path, ec);
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * spec.kernels);
}

// Raw insert rate: addKernels() in batches, no indexes yet (the default writer).
void BM_WriteKernels(benchmark::State& state)
{
    writeKernels(state, false);
}

// End to end: the same inserts plus finish() (index build, fsync, rename).
void BM_WriteKernelsAndFinish(benchmark::State& state)
{
    writeKernels(state, true);
}

// Opening validates the header and the schema; nothing is queried.
void BM_OpenSession(benchmark::State& state)
{
    const LargeSession* session = largeSessionOrSkip(state);
    if (!session)
        return;
    for (auto _ : state) {
        auto reader = core::SessionReader::open(session->path);
        if (bench::skippedOnError(state, reader))
            break;
        benchmark::DoNotOptimize(reader.value().fileSchemaVersion());
    }
    state.counters["file_MB"] = session->fileMegabytes;
}

// What a viewer does first: open, then read 1 ms of one device (or of one stream with range(0) = 1).
void BM_OpenAndReadWindow(benchmark::State& state)
{
    const LargeSession* session = largeSessionOrSkip(state);
    if (!session)
        return;
    const auto query = windowQuery(*session, state.range(0) != 0);
    std::size_t rows = 0;
    for (auto _ : state) {
        auto reader = core::SessionReader::open(session->path);
        if (bench::skippedOnError(state, reader))
            break;
        if (!readWindow(state, reader.value(), query, rows))
            break;
    }
    state.counters["kernels_in_window"] = static_cast<double>(rows);
}

// Scrolling: more 1 ms windows from a reader that is already open.
void BM_ReadWindowOpenReader(benchmark::State& state)
{
    auto reader = openLargeSessionOrSkip(state);
    if (!reader)
        return;
    const auto query = windowQuery(largeSession(), state.range(0) != 0);
    (void)reader->kernels(query); // the first windowed query also finds the longest kernel
    std::size_t rows = 0;
    for (auto _ : state) {
        if (!readWindow(state, *reader, query, rows))
            break;
    }
    state.counters["kernels_in_window"] = static_cast<double>(rows);
}

// The per-kernel-name table that `ridgeline report` and the desktop app show on open.
void BM_SummarizeKernels(benchmark::State& state)
{
    auto reader = openLargeSessionOrSkip(state);
    if (!reader)
        return;
    for (auto _ : state) {
        auto rows = core::summarizeKernels(*reader);
        if (bench::skippedOnError(state, rows))
            break;
        benchmark::DoNotOptimize(rows.value().data());
    }
    state.SetItemsProcessed(state.iterations() * kLargeKernels);
}

} // namespace

BENCHMARK(BM_WriteKernels)
    ->ArgNames({ "rows", "batch" })
    ->Args({ 1'000'000, 10'000 })
    ->Args({ 1'000'000, 100'000 })
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_WriteKernelsAndFinish)
    ->ArgNames({ "rows", "batch" })
    ->Args({ 1'000'000, 100'000 })
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_OpenSession)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OpenAndReadWindow)->ArgName("stream")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadWindowOpenReader)->ArgName("stream")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SummarizeKernels)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
