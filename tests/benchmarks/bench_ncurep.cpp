// SPDX-License-Identifier: MIT
// Import of a large Nsight Compute report: 10,000 results made by repeating the two real results
// of tests/data/ncu/nersc-gpp/output1.ncu-rep (RTX 4060 Laptop GPU, 329 metrics each), framed as
// ncu frames them (one result per block; only the first block carries the string table). Results
// and the commands that produced them: docs/PERFORMANCE.md.
#include "ncu/ncurep.pb.h"
#include "ncu/ncurepinternal.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "tempdir.h"

#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace ridgeline;

constexpr int kResults = 10'000;

testing::TempDir& benchDir()
{
    static testing::TempDir dir;
    return dir;
}

std::uint32_t readU32(const std::string& bytes, std::size_t at)
{
    if (at + 4 > bytes.size())
        throw std::runtime_error("the report ends inside a length");
    std::uint32_t value = 0;
    std::memcpy(&value, bytes.data() + at, 4); // little-endian, as on every machine this runs on
    return value;
}

std::string u32(std::uint32_t value)
{
    std::string bytes(4, '\0');
    std::memcpy(bytes.data(), &value, 4);
    return bytes;
}

struct Block {
    ncurep::BlockHeader header;
    std::string headerBytes;
    std::string payload;
};

// The real report's file start (magic + file header) and blocks, framed as they are in the file.
struct RealReport {
    std::string start;
    std::vector<Block> blocks;
};

RealReport splitReal()
{
    std::ifstream in(RIDGELINE_TEST_DATA_DIR "/ncu/nersc-gpp/output1.ncu-rep", std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string bytes = buffer.str();
    RealReport real;
    std::size_t at = 4;
    at += 4 + readU32(bytes, at);
    real.start = bytes.substr(0, at);
    while (at < bytes.size()) {
        Block block;
        const auto length = readU32(bytes, at);
        block.headerBytes = bytes.substr(at + 4, length);
        if (!block.header.ParseFromString(block.headerBytes))
            throw std::runtime_error("a block header does not parse");
        at += 4 + length;
        block.payload = bytes.substr(at, block.header.payload_size());
        at += block.header.payload_size();
        real.blocks.push_back(std::move(block));
    }
    return real;
}

// The real blocks once (their two results), then blocks of one result each, the two real
// results in turn, until there are kResults.
const std::string& largeReport()
{
    static const std::string path = [] {
        const RealReport real = splitReal();
        std::string out = real.start;
        std::vector<std::string> results; // each with its u32 length
        const Block* plain = nullptr; // a result block without a string table
        for (const auto& block : real.blocks) {
            out += u32(static_cast<std::uint32_t>(block.headerBytes.size())) + block.headerBytes + block.payload;
            if (block.header.num_results() == 1 && block.header.num_sources() == 0) {
                results.push_back(block.payload);
                if (block.header.string_table().strings_size() == 0)
                    plain = &block;
            }
        }
        if (results.size() != 2 || plain == nullptr)
            throw std::runtime_error("output1.ncu-rep is not the report this benchmark expects");
        for (int i = 2; i < kResults; ++i) {
            ncurep::BlockHeader header = plain->header;
            const auto& payload = results[static_cast<std::size_t>(i % 2)];
            header.set_payload_size(payload.size());
            const auto headerBytes = header.SerializeAsString();
            out += u32(static_cast<std::uint32_t>(headerBytes.size())) + headerBytes + payload;
        }
        const auto file = benchDir().file("large.ncu-rep");
        std::ofstream(file, std::ios::binary) << out;
        return file;
    }();
    return path;
}

// Reading and converting the results (no session).
void BM_ParseReport(benchmark::State& state)
{
    const auto& path = largeReport();
    for (auto _ : state) {
        collectors::ncu::ParsedProfile profile;
        auto parsed = collectors::ncu::readReport(path, profile);
        if (parsed.hasError()) {
            state.SkipWithError(parsed.error().message.c_str());
            break;
        }
        benchmark::DoNotOptimize(profile.kernels.data());
    }
    state.counters["results"] = kResults;
    state.counters["MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
}
BENCHMARK(BM_ParseReport)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// The whole import, as `ridgeline import large.ncu-rep -o s.ridge` does it.
void BM_ImportReport(benchmark::State& state)
{
    const auto& path = largeReport();
    const auto session = benchDir().file("large.ridge");
    std::int64_t metrics = 0;
    for (auto _ : state) {
        auto imported = collectors::importNcuRep({ path }, session, true);
        if (imported.hasError()) {
            state.SkipWithError(imported.error().message.c_str());
            break;
        }
        metrics = imported.value().metrics;
    }
    state.counters["results"] = kResults;
    state.counters["metrics"] = static_cast<double>(metrics);
}
BENCHMARK(BM_ImportReport)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

} // namespace

BENCHMARK_MAIN();
