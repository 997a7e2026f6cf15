// SPDX-License-Identifier: MIT
// Timeline view benchmarks (ui/timeline/, core/include/ridgeline/core/timeline/timelinelod.h). All data is
// synthetic. Results and commands: docs/PERFORMANCE.md, "Timeline view".
// - BM_TimelinePaint: one full repaint of the TimelineView (1920x1080, offscreen) into a QImage with
//   10 M GPU ops in memory (and 1 M, to show the cost does not follow the op count), at full
//   zoom-out and zoomed in by factors up to 10^6. Target: median under 16 ms per frame. With
//   RIDGELINE_BENCH_100M=1 also 100 M ops (issue 38).
// - BM_TimelineLod: the core level-of-detail queries alone for the same frames (no Qt painting).
// - BM_TimelineLoad: loadTimelineData of a 1 M-kernel session file (writeSyntheticSession), and the
//   bytes the loaded timeline holds per GPU op.
#include "fixtures.h"
#include "qtbench.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "tempdir.h"
#include "timeline/timelineview.h"

#include <QImage>
#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <malloc.h>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace ridgeline;

constexpr int kStreams = 8;
constexpr int kNames = 50;
constexpr int kWidth = 1920;
constexpr int kHeight = 1080;

// `ops` kernels on one device, 8 streams, back to back per stream with gaps of 0.3 to 3.3 µs and
// durations of 2 to 22 µs; verdicts and names cycle; one op in 10 a collective, 1 in 20 a copy.
std::shared_ptr<const core::TimelineData> makeTimeline(std::int64_t ops)
{
    core::TimelineDataBuilder builder;
    std::vector<std::int32_t> names;
    for (int n = 0; n < kNames; ++n)
        names.push_back(builder.addName("synthetic_kernel_" + std::to_string(n), n + 1));
    core::Device device;
    device.name = "synthetic GPU";
    builder.setDevices({ device });
    std::vector<std::vector<core::TimelineItem>> streams(kStreams);
    const std::int64_t perStream = ops / kStreams;
    for (int s = 0; s < kStreams; ++s) {
        auto& items = streams[static_cast<std::size_t>(s)];
        items.reserve(static_cast<std::size_t>(perStream));
        std::int64_t clock = 1'000'000 + s * 700;
        for (std::int64_t i = 0; i < perStream; ++i) {
            const std::int64_t n = s * perStream + i;
            const std::int64_t duration = 2'000 + (n * 7919) % 20'000;
            core::TimelineItem it;
            it.startNs = clock;
            it.endNs = clock + duration;
            it.sourceId = n + 1;
            it.nameIndex = names[static_cast<std::size_t>(n % kNames)];
            it.kind = n % 10 == 0 ? core::TimelineItemKind::Collective
                : n % 20 == 1     ? core::TimelineItemKind::Memcpy
                                  : core::TimelineItemKind::Kernel;
            it.verdict = static_cast<core::VerdictClass>(n % 5);
            items.push_back(it);
            clock += duration + 300 + (n * 31) % 3'000;
        }
    }
    std::vector<std::vector<core::TimelineRow>> rows;
    std::vector<const core::TimelineRow*> busy;
    for (auto& items : streams)
        rows.push_back(core::layoutRows(items));
    for (const auto& r : rows)
        busy.push_back(&r.front());
    core::TimelineLane idle;
    idle.kind = core::TimelineLaneKind::Idle;
    idle.deviceId = 0;
    idle.label = "GPU idle";
    builder.addLane(idle, core::idleGaps(busy));
    for (int s = 0; s < kStreams; ++s) {
        core::TimelineLane lane;
        lane.kind = core::TimelineLaneKind::Stream;
        lane.deviceId = 0;
        lane.streamId = s;
        lane.label = "Stream " + std::to_string(s);
        builder.addLane(lane, std::move(rows[static_cast<std::size_t>(s)]));
    }
    builder.addGpuOps(static_cast<std::size_t>(perStream * kStreams));
    return std::make_shared<const core::TimelineData>(builder.finish());
}

const std::shared_ptr<const core::TimelineData>& timeline(std::int64_t ops)
{
    static std::map<std::int64_t, std::shared_ptr<const core::TimelineData>> cache;
    auto& data = cache[ops];
    if (!data)
        data = makeTimeline(ops);
    return data;
}

// range(0): millions of ops; range(1): zoom factor (1 = the whole session in view).
void BM_TimelinePaint(benchmark::State& state)
{
    const auto& data = timeline(state.range(0) * 1'000'000);
    ui::TimelineView view(nullptr);
    view.resize(kWidth, kHeight);
    view.setData(data);
    view.zoomBy(static_cast<double>(state.range(1)));
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        view.viewport()->render(&image);
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["items"] = view.itemsPaintedLastFrame();
    state.counters["bytes_per_op"] = static_cast<double>(data->memoryBytes()) / static_cast<double>(data->gpuOpCount());
}

void BM_TimelineLod(benchmark::State& state)
{
    const auto& data = timeline(state.range(0) * 1'000'000);
    const auto e = data->extent();
    const std::int64_t length = (e.endNs - e.startNs) / state.range(1);
    const std::int64_t start = e.startNs + (e.endNs - e.startNs - length) / 2;
    const core::PixelGrid grid({ start, start + length }, kWidth - 190);
    std::vector<core::LodItem> items;
    std::size_t total = 0;
    for (auto _ : state) {
        total = 0;
        for (std::size_t r = 0; r < data->rowCount(); ++r) {
            items.clear();
            data->row(r).lod(grid, items);
            total += items.size();
        }
        benchmark::DoNotOptimize(items.data());
    }
    state.counters["items"] = static_cast<double>(total);
}

double residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    double pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

void BM_TimelineLoad(benchmark::State& state)
{
    static testing::TempDir dir;
    static const std::string path = [] {
        const std::string file = dir.file("timeline-1m.ridge");
        testing::SyntheticSpec spec;
        spec.kernels = 1'000'000;
        spec.devices = 2;
        spec.streamsPerDevice = 4;
        spec.batchSize = 100'000;
        if (testing::writeSyntheticSession(file, spec).hasError())
            std::abort();
        return file;
    }();
    double bytesPerOp = 0;
    for (auto _ : state) {
        auto reader = core::SessionReader::open(path);
        auto data = core::loadTimelineData(reader.value());
        if (data.hasError()) {
            state.SkipWithError(data.error().message.c_str());
            return;
        }
        bytesPerOp = static_cast<double>(data.value().memoryBytes()) / static_cast<double>(data.value().gpuOpCount());
        benchmark::DoNotOptimize(data.value().rowCount());
    }
    state.counters["bytes_per_op"] = bytesPerOp;
    state.SetItemsProcessed(state.iterations() * 1'000'000);
    // What the process keeps resident for the loaded timeline: RSS with it held, minus RSS without
    // it, after handing freed memory back to the system (the reader is closed by then).
    malloc_trim(0);
    const double before = residentBytes();
    auto reader = core::SessionReader::open(path);
    auto held = core::loadTimelineData(reader.value());
    reader = core::SessionReader::open(path); // drops the first reader's page cache
    malloc_trim(0);
    state.counters["rss_bytes_per_op"] = (residentBytes() - before) / 1e6;
    benchmark::DoNotOptimize(held.ok());
}

void paintArgs(benchmark::internal::Benchmark* b)
{
    b->ArgNames({ "Mops", "zoom" });
    for (const std::int64_t zoom : { 1, 16, 256, 4096, 65536, 1048576 })
        b->Args({ 10, zoom });
    b->Args({ 1, 1 });
    // RIDGELINE_BENCH_100M=1: also 100 M ops (about 7 GB while they are built; docs/PERFORMANCE.md,
    // "Sessions of 100 million GPU operations").
    if (const char* big = std::getenv("RIDGELINE_BENCH_100M"); big && *big && *big != '0') {
        for (const std::int64_t zoom : { 1, 256, 65536, 1048576 })
            b->Args({ 100, zoom });
    }
}

} // namespace

BENCHMARK(BM_TimelinePaint)->Apply(paintArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TimelineLod)->Apply(paintArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TimelineLoad)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

int main(int argc, char** argv)
{
    return ridgeline::testing::runQtBenchmarks(argc, argv);
}
