// SPDX-License-Identifier: MIT
// Nsight Compute CSV import speed on the real 28 MB A100 file (tests/data/ncu/leleucas/
// linear-nsight1381.csv.gz: 2,933 launches x 21 metrics, details page). Bytes/s are of the
// uncompressed CSV text. docs/PERFORMANCE.md, "Nsight Compute import", has the figures.
//   build/tests/benchmarks/ridgeline_bench_ncucsv --benchmark_repetitions=5
#include "ncu/ncucsvinternal.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "tempdir.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <zlib.h>

namespace {

const std::string kGzip = std::string(RIDGELINE_TEST_DATA_DIR) + "/ncu/leleucas/linear-nsight1381.csv.gz";

// The uncompressed file, written once into a temporary directory.
struct Plain {
    ridgeline::testing::TempDir dir;
    std::string path = dir.file("linear.csv");
    std::size_t bytes = 0;
    Plain()
    {
        gzFile in = gzopen(kGzip.c_str(), "rb");
        std::ofstream out(path, std::ios::binary);
        char buffer[1 << 16];
        int n = 0;
        while (in != nullptr && (n = gzread(in, buffer, sizeof buffer)) > 0) {
            out.write(buffer, n);
            bytes += static_cast<std::size_t>(n);
        }
        gzclose(in);
    }
};

const Plain& plain()
{
    static const Plain file;
    return file;
}

// Reading and pivoting only: libcsv tokenising, units, the details page into launches.
void BM_NcuCsvParse(benchmark::State& state)
{
    using namespace ridgeline::collectors::ncu;
    for (auto _ : state) {
        auto file = readCsvFile(plain().path);
        if (!file.ok()) {
            state.SkipWithError(file.error().message.c_str());
            return;
        }
        auto profile = readDetailsPage(file.value());
        benchmark::DoNotOptimize(profile.ok());
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(plain().bytes));
}
BENCHMARK(BM_NcuCsvParse)->Unit(benchmark::kMillisecond);

// The whole import, as `ridgeline import`: parse, analyse and write the session file.
void BM_NcuCsvImport(benchmark::State& state)
{
    const std::string input = state.range(0) == 0 ? plain().path : kGzip;
    ridgeline::testing::TempDir out;
    const auto session = out.file("linear.ridge");
    for (auto _ : state) {
        auto summary = ridgeline::collectors::importNcuCsv(input, session, true);
        if (!summary.ok()) {
            state.SkipWithError(summary.error().message.c_str());
            return;
        }
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(plain().bytes));
    state.SetLabel(state.range(0) == 0 ? "plain .csv" : ".csv.gz");
}
BENCHMARK(BM_NcuCsvImport)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
