// SPDX-License-Identifier: MIT
// PyTorch operators in the app (issue 17): what opening a session with operators costs in time and
// memory, and what selecting a launch costs. On the session of RIDGELINE_OPS_SESSION (e.g. the 1 GB
// trace of tests/benchmarks/kineto_import.sh, imported), else on the real ns_resolution_trace
// (23,910 operators) imported into a temporary session. Results: docs/PERFORMANCE.md, "PyTorch
// operators in the app".
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/output/sessionoperators.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "session/documentreader.h"
#include "tempdir.h"

#include <benchmark/benchmark.h>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace {

using namespace ridgeline;

const std::string& sessionPath()
{
    static testing::TempDir dir;
    static const std::string path = [] {
        if (const char* given = std::getenv("RIDGELINE_OPS_SESSION"))
            return std::string(given);
        const std::string p = dir.file("ns-resolution.ridge");
        if (collectors::importKineto({ RIDGELINE_TEST_DATA_DIR
                                         "/kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" },
                p, true)
                .hasError())
            std::abort();
        return p;
    }();
    return path;
}

core::SessionReader openReader()
{
    auto reader = core::SessionReader::open(sessionPath());
    if (reader.hasError())
        std::abort();
    return std::move(reader).value();
}

// Linking the GPU ops to their operators and building the lookup and both groupings (the stage
// readSessionDocument adds for a session with operators).
void BM_LoadSessionOperators(benchmark::State& state)
{
    std::size_t bytes = 0, operators = 0, launches = 0;
    for (auto _ : state) {
        auto reader = openReader();
        auto loaded = core::loadSessionOperators(reader);
        if (loaded.hasError() || !loaded.value())
            std::abort();
        bytes = loaded.value()->memoryBytes();
        operators = loaded.value()->lookup.size();
        launches = loaded.value()->lookup.kernelsWithOperator();
    }
    state.counters["operators"] = static_cast<double>(operators);
    state.counters["launches_with_operator"] = static_cast<double>(launches);
    state.counters["held_MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["held_B_per_operator"] = static_cast<double>(bytes) / static_cast<double>(std::max<std::size_t>(1, operators));
}
BENCHMARK(BM_LoadSessionOperators)->Unit(benchmark::kMillisecond)->Iterations(3);

// The timeline's lanes, operator lanes included; what the operator rows hold.
void BM_LoadTimelineData(benchmark::State& state)
{
    std::size_t total = 0, operatorBytes = 0, operatorItems = 0;
    for (auto _ : state) {
        auto reader = openReader();
        auto data = core::loadTimelineData(reader);
        if (data.hasError())
            std::abort();
        total = data.value().memoryBytes();
        operatorBytes = 0;
        operatorItems = 0;
        for (const auto& lane : data.value().lanes()) {
            if (lane.kind != core::TimelineLaneKind::Operators)
                continue;
            for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
                operatorBytes += data.value().row(r).memoryBytes();
                operatorItems += data.value().row(r).size();
            }
        }
    }
    state.counters["timeline_MB"] = static_cast<double>(total) / 1e6;
    state.counters["operator_rows_MB"] = static_cast<double>(operatorBytes) / 1e6;
    state.counters["operator_rows_B_per_operator"]
        = static_cast<double>(operatorBytes) / static_cast<double>(std::max<std::size_t>(1, operatorItems));
}
BENCHMARK(BM_LoadTimelineData)->Unit(benchmark::kMillisecond)->Iterations(3);

// The whole open as the app's worker does it (readSessionDocument: summaries, timeline analysis,
// operators, lanes, value checks).
void BM_ReadSessionDocument(benchmark::State& state)
{
    for (auto _ : state) {
        auto doc = ui::readSessionDocument(QString::fromStdString(sessionPath()));
        if (doc.hasError() || !doc.value().operators)
            std::abort();
        benchmark::DoNotOptimize(doc);
    }
}
BENCHMARK(BM_ReadSessionDocument)->Unit(benchmark::kMillisecond)->Iterations(3);

// Selecting a launch: its operators by binary search and parents, then their texts from their chunks
// (what the details pane's worker does), for launches spread over the session.
void BM_OperatorStackOfALaunch(benchmark::State& state)
{
    auto reader = openReader();
    auto loaded = core::loadSessionOperators(reader);
    if (loaded.hasError() || !loaded.value())
        std::abort();
    const auto& lookup = loaded.value()->lookup;
    std::vector<std::int64_t> kernels;
    if (reader.forEachKernelPlacement([&](const core::SessionReader::KernelPlacement& k) {
            kernels.push_back(k.id);
            return true;
        }).hasError())
        std::abort();
    std::size_t next = 0, found = 0;
    for (auto _ : state) {
        const auto launch = lookup.ofKernel(kernels[next]);
        next = (next + kernels.size() / 97 + 1) % kernels.size();
        if (launch.innermost == core::OperatorLookup::kNone)
            continue;
        std::vector<std::int64_t> ids, chunks;
        for (const auto op : lookup.stack(launch.innermost)) {
            ids.push_back(lookup.id(op));
            chunks.push_back(lookup.chunkOf(op));
        }
        auto stack = reader.operatorsInChunks(chunks, ids);
        if (stack.hasError())
            std::abort();
        found += stack.value().size();
    }
    state.counters["operators_read"] = static_cast<double>(found);
}
BENCHMARK(BM_OperatorStackOfALaunch)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
