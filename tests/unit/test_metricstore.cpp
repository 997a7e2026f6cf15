// SPDX-License-Identifier: MIT
// Kernel metric values packed one row per kernel (schema v3, core/src/metricblob.h): the codec
// on its own (round trips, every kind of damage), then the writer's merge rules and the
// reader's views through a real session file.
#include "store/metricblob.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "tempdir.h"
#include "testutil.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ridgeline::core;
using detail::decodeMetricBlob;
using detail::encodeMetricBlob;
using ridgeline::testing::TempDir;

namespace {

bool sameBits(const std::vector<MetricById>& a, const std::vector<MetricById>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].metricId != b[i].metricId
            || std::bit_cast<std::uint64_t>(a[i].value) != std::bit_cast<std::uint64_t>(b[i].value))
            return false;
    }
    return true;
}

} // namespace

TEST(MetricBlob, RoundTripsEveryValueBitForBit)
{
    const double specials[] = { 0.0, -0.0, 1.0, -1.5e-310 /* subnormal */, std::numeric_limits<double>::max(),
        std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN(), 2'097'152.0, 1e300 };
    std::vector<MetricById> entries;
    std::int64_t id = 0;
    for (const double v : specials)
        entries.push_back({ id += 1, v });
    // Steps of every varint length, up to the largest id.
    for (const std::int64_t step : { 127LL, 128LL, 16'383LL, 16'384LL, 1LL << 35, 1LL << 56 })
        entries.push_back({ id += step, static_cast<double>(step) });
    entries.push_back({ std::numeric_limits<std::int64_t>::max(), 42.0 });
    std::string blob;
    encodeMetricBlob(entries, blob);
    std::vector<MetricById> decoded;
    ASSERT_TRUE(decodeMetricBlob(blob, static_cast<std::int64_t>(entries.size()), decoded));
    EXPECT_TRUE(sameBits(decoded, entries));

    // Random sets, as an import makes them (ids rising, any values).
    std::mt19937_64 rng(12345);
    for (int round = 0; round < 200; ++round) {
        entries.clear();
        std::int64_t next = 0;
        const auto n = rng() % 400;
        for (std::uint64_t i = 0; i < n; ++i)
            entries.push_back({ next += 1 + static_cast<std::int64_t>(rng() % 3000),
                std::bit_cast<double>(rng() & 0x7FEFFFFFFFFFFFFFULL) });
        encodeMetricBlob(entries, blob);
        ASSERT_TRUE(decodeMetricBlob(blob, static_cast<std::int64_t>(entries.size()), decoded));
        ASSERT_TRUE(sameBits(decoded, entries));
    }
}

TEST(MetricBlob, RefusesEveryKindOfDamage)
{
    const std::vector<MetricById> entries { { 1, 1.0 }, { 2, 2.0 }, { 300, 3.0 } };
    std::string blob;
    encodeMetricBlob(entries, blob);
    ASSERT_EQ(blob.size(), 1 + 8 + 1 + 8 + 2 + 8u);
    std::vector<MetricById> out;
    // Cut anywhere.
    for (std::size_t size = 0; size < blob.size(); ++size)
        EXPECT_FALSE(decodeMetricBlob(blob.substr(0, size), 3, out)) << size;
    // Counts that do not match the bytes: fewer leaves bytes over, more runs out.
    EXPECT_FALSE(decodeMetricBlob(blob, 2, out));
    EXPECT_FALSE(decodeMetricBlob(blob, 4, out));
    EXPECT_FALSE(decodeMetricBlob(blob, -1, out));
    // A count no data could hold is refused before anything is reserved.
    EXPECT_FALSE(decodeMetricBlob(blob, std::numeric_limits<std::int64_t>::max(), out));
    EXPECT_TRUE(out.empty());
    // An id step of 0 (an id twice), a varint of 11 bytes, ids past INT64_MAX.
    std::string twice = blob;
    twice[9] = 0;
    EXPECT_FALSE(decodeMetricBlob(twice, 3, out));
    EXPECT_FALSE(decodeMetricBlob(std::string(11, '\xFF') + std::string(8, '\0'), 1, out));
    std::string huge;
    encodeMetricBlob(std::vector<MetricById> { { std::numeric_limits<std::int64_t>::max(), 1.0 } }, huge);
    EXPECT_FALSE(decodeMetricBlob(huge + huge.substr(0, 1) + huge.substr(huge.size() - 8), 2, out)); // max + 1
    // Not a blob at all, and nothing.
    EXPECT_FALSE(decodeMetricBlob("text", 1, out));
    EXPECT_TRUE(decodeMetricBlob("", 0, out));
    EXPECT_TRUE(out.empty());
}

TEST(MetricStore, LaterValuesReplaceEarlierOnesAcrossCalls)
{
    TempDir dir;
    const auto path = dir.file("m.ridge");
    auto created = SessionWriter::create(path);
    ASSERT_TRUE(created.ok()) << created.error().message;
    auto& w = created.value();
    Kernel kernels[2];
    kernels[0].nameId = w.internKernelName("a").value();
    kernels[1].nameId = kernels[0].nameId;
    kernels[1].startNs = 10;
    const auto first = w.addKernels(kernels).value();
    // One call: kernel 2's values before kernel 1's, one metric twice (the later stays).
    const MetricValue batch[] = { { first + 1, "x", 5.0, "byte" }, { first, "y", 1.0, "" }, { first, "x", 2.0, "byte" },
        { first, "y", 3.0, "ns" } };
    ASSERT_TRUE(w.addMetrics(batch).ok());
    // A later call adds to kernel 1 and replaces one of its values.
    const MetricValue later[] = { { first, "z", 7.0, "" }, { first, "x", 9.0, "" } };
    ASSERT_TRUE(w.addMetrics(later).ok());
    // By id, unsorted, one id twice: the last wins.
    const auto z = w.internMetricName("z").value();
    const auto y = w.internMetricName("y", "ignored: y has a unit").value();
    const MetricById byId[] = { { z, 8.0 }, { y, 4.0 }, { z, 6.0 } };
    ASSERT_TRUE(w.addKernelMetrics(first + 1, byId).ok());
    ASSERT_TRUE(w.finish(SessionStatus::Complete).ok());

    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto& r = reader.value();
    const std::vector<MetricValue> one { { first, "x", 9.0, "byte" }, { first, "y", 3.0, "ns" },
        { first, "z", 7.0, "" } };
    EXPECT_EQ(r.metrics(first).value(), one);
    const std::vector<MetricValue> two { { first + 1, "x", 5.0, "byte" }, { first + 1, "y", 4.0, "ns" },
        { first + 1, "z", 6.0, "" } };
    EXPECT_EQ(r.metrics(first + 1).value(), two);
    EXPECT_TRUE(r.metrics(first + 2).value().empty());
    EXPECT_EQ(r.counts().value().metrics, 6);

    // All of them in kernel order, or only the wanted names.
    std::vector<std::string> seen;
    ASSERT_TRUE(r.forEachMetric([&](std::int64_t k, const std::string& name, double v) {
                     seen.push_back(std::to_string(k - first) + name + std::to_string(static_cast<int>(v)));
                 }).ok());
    std::sort(seen.begin(), seen.begin() + 3); // within a kernel: by id
    std::sort(seen.begin() + 3, seen.end());
    EXPECT_EQ(seen, (std::vector<std::string> { "0x9", "0y3", "0z7", "1x5", "1y4", "1z6" }));
    seen.clear();
    ASSERT_TRUE(r.forEachMetric([](std::string_view name) { return name == "y"; },
                     [&](std::int64_t k, const std::string& name, double v) {
                         seen.push_back(std::to_string(k - first) + name + std::to_string(static_cast<int>(v)));
                     })
                    .ok());
    EXPECT_EQ(seen, (std::vector<std::string> { "0y3", "1y4" }));
}

TEST(MetricStore, FeedsAnalysisKnowsTheRooflineNames)
{
    for (const char* name : { "dram__bytes.sum", "gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second",
             "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed",
             "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained",
             "sm__ops_path_tensor_src_bf16_dst_fp32.sum", "sm__inst_executed_pipe_tensor.sum.peak_sustained",
             "lts__throughput.avg.pct_of_peak_sustained_elapsed", "derived__lts__lts2xbar_bytes.sum.peak_sustained",
             "l1tex__lsu_writeback_active_mem_lg.sum.peak_sustained", "launch__waves_per_multiprocessor" })
        EXPECT_TRUE(feedsAnalysis(name)) << name;
    for (const char* name : { "launch__registers_per_thread", "device__attribute_display_name",
             "dram__bytes.sum.per_second.pct", "smsp__warps_active.avg", "" })
        EXPECT_FALSE(feedsAnalysis(name)) << name;
}

// The report analyses only what feedsAnalysis accepts; on every real Nsight Compute file, that
// must give each launch exactly the analysis its full set of values gives.
TEST(MetricStore, OnlyTheFeedingValuesGiveTheSameAnalysisOnRealFiles)
{
    TempDir dir;
    std::vector<std::string> sessions;
    int n = 0;
    for (const char* csv : { "ncu/leleucas/linear-nsight1381.csv.gz", "ncu/leleucas/attention-bert_nsight.csv",
             "ncu/leleucas/dropout-nsight162.csv", "ncu/nersc-gpp/output.csv", "ncu/nersc-gpp/output1.csv" }) {
        sessions.push_back(dir.file(std::to_string(n++) + ".ridge"));
        auto imported
            = ridgeline::collectors::importNcuCsv(ridgeline::testing::testDataPath(csv), sessions.back(), false);
        ASSERT_TRUE(imported.ok()) << csv << ": " << imported.error().message;
    }
    for (const char* rep : { "ncu/nersc-gpp/output0.ncu-rep", "ncu/nersc-gpp/output1.ncu-rep",
             "ncu/nersc-gpp/output2.ncu-rep", "ncu/sglang-h800/profile-nosource.ncu-rep",
             "ncu/esmm-a10g/profile.ncu-rep", "ncu/extrap-a100/ex-gpu.s100.ncu-rep" }) {
        sessions.push_back(dir.file(std::to_string(n++) + ".ridge"));
        auto imported
            = ridgeline::collectors::importNcuRep({ ridgeline::testing::testDataPath(rep) }, sessions.back(), false);
        ASSERT_TRUE(imported.ok()) << rep << ": " << imported.error().message;
    }
    std::size_t launches = 0, withCeilings = 0, dropped = 0;
    for (const auto& path : sessions) {
        auto reader = SessionReader::open(path);
        ASSERT_TRUE(reader.ok());
        auto& r = reader.value();
        const auto devices = r.devices().value();
        const auto kernels = r.kernels().value();
        for (const auto& kernel : kernels) {
            KernelFacts all, feeding;
            for (auto* f : { &all, &feeding }) {
                f->kernelId = kernel.id;
                f->durationNs = kernel.durationNs();
                f->grid = kernel.grid;
                f->block = kernel.block;
                f->device = &devices.front();
                f->ceilings = r.ceilings(kernel.deviceId).value();
            }
            const auto values = r.metrics(kernel.id).value();
            for (const auto& m : values) {
                all.metrics[m.name] = m.value;
                if (feedsAnalysis(m.name))
                    feeding.metrics[m.name] = m.value;
            }
            dropped += all.metrics.size() - feeding.metrics.size();
            const auto a = analyzeKernel(all), b = analyzeKernel(feeding);
            EXPECT_EQ(a.verdict, b.verdict) << path << " kernel " << kernel.id;
            EXPECT_EQ(a.reason, b.reason) << path << " kernel " << kernel.id;
            EXPECT_EQ(a.utilization, b.utilization);
            EXPECT_EQ(a.flopsByPrecision, b.flopsByPrecision);
            EXPECT_EQ(a.bytesByLevel, b.bytesByLevel);
            EXPECT_EQ(a.speedOfLight, b.speedOfLight);
            const auto ca = ceilingsFromCounters(all.metrics, 0), cb = ceilingsFromCounters(feeding.metrics, 0);
            EXPECT_EQ(ca, cb);
            withCeilings += ca.empty() ? 0U : 1U;
            ++launches;
        }
    }
    // 2,933 + the other CSVs' launches + 2 per report; the reports carry peaks, so ceilings.
    EXPECT_GT(launches, 2'933u);
    EXPECT_GE(withCeilings, 6u);
    EXPECT_GT(dropped, 6u * 250u); // the reports' 330 values per launch are mostly not the roofline's
}
