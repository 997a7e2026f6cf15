// SPDX-License-Identifier: MIT
// Opportunities (issue 34): the GPU time each operator shape, kernel or copy would give back at its
// roof, ranked. Worked examples on TraceLens's two real H100 traces (tests/data/tracelens-h100/,
// MIT) from their shapes and the H100 SXM datasheet, and on the bundled A100 example from its
// Nsight Compute counters; every row's consistency, the order, the time listed apart and the
// report's JSON on all of them.
#include "analysis/opportunityadvice.h"
#include "importedtrace.h"
#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/cluster/ranksummary.h"
#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/output/opportunityreport.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ridgeline::core;
using ridgeline::testing::testDataPath;

namespace {

// The H100 SXM datasheet (NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column; the tensor
// figures there are with sparsity, so halved): BF16 tensor 1,979 / 2 TFLOP/s, HBM3 3.35 TB/s.
constexpr double kH100Bf16 = 1979e12 / 2;
constexpr double kH100Dram = 3.35e12;

Opportunities opportunitiesOf(SessionReader& reader)
{
    auto found = findOpportunities(reader);
    EXPECT_TRUE(found.ok()) << (found.ok() ? "" : found.error().message);
    return found.ok() ? std::move(found).value() : Opportunities {};
}

// Every row: the time at roof is the largest of its roof times (capped at its GPU time), the
// recoverable time the rest; the roofs give the compute and memory times from its FLOPs and bytes;
// rows sorted by recoverable time; the totals are the rows' sums; ranked and unranked time add up
// to the GPU time.
void checkConsistent(const Opportunities& o)
{
    std::int64_t ranked = 0, atRoof = 0, recoverable = 0, apart = 0;
    for (std::size_t i = 0; i < o.rows.size(); ++i) {
        const Opportunity& r = o.rows[i];
        SCOPED_TRACE(r.name + " " + r.inputDims);
        EXPECT_GE(r.gpuTimeNs, 0);
        EXPECT_GE(r.timeAtRoofNs, 0);
        EXPECT_LE(r.timeAtRoofNs, r.gpuTimeNs);
        EXPECT_EQ(r.recoverableNs, r.gpuTimeNs - r.timeAtRoofNs);
        const double most
            = std::max({ r.roofTimes.computeNs, r.roofTimes.memoryNs, r.roofTimes.throughputNs, r.roofTimes.linkNs });
        EXPECT_EQ(r.timeAtRoofNs, std::llround(std::min(most, static_cast<double>(r.gpuTimeNs))));
        EXPECT_EQ(r.overRoof, most > 1.0001 * static_cast<double>(r.gpuTimeNs));
        if (r.computeRoof && r.flops > 0) {
            EXPECT_NEAR(r.flops / *r.computeRoof * 1e9, r.roofTimes.computeNs, 1e-6 * r.roofTimes.computeNs + 1e-6);
        }
        if (r.memoryRoof && r.kind != OpportunityKind::Kernel) {
            EXPECT_NEAR(r.bytes / *r.memoryRoof * 1e9, r.roofTimes.memoryNs + r.roofTimes.linkNs,
                1e-6 * r.roofTimes.memoryNs + 1e-6);
        }
        EXPECT_FALSE(r.advice.empty());
        EXPECT_FALSE(r.limitedBy.empty());
        std::int64_t kernelTime = 0;
        for (const auto& k : r.kernels)
            kernelTime += k.timeNs;
        if (r.kind != OpportunityKind::Copy) {
            EXPECT_EQ(kernelTime, r.gpuTimeNs);
        }
        if (i > 0) {
            EXPECT_GE(o.rows[i - 1].recoverableNs, r.recoverableNs);
        }
        ranked += r.gpuTimeNs;
        atRoof += r.timeAtRoofNs;
        recoverable += r.recoverableNs;
    }
    for (std::size_t i = 0; i < o.unranked.size(); ++i) {
        EXPECT_FALSE(o.unranked[i].reason.empty());
        if (i > 0) {
            EXPECT_GE(o.unranked[i - 1].gpuTimeNs, o.unranked[i].gpuTimeNs);
        }
        apart += o.unranked[i].gpuTimeNs;
    }
    EXPECT_EQ(o.rankedTimeNs, ranked);
    EXPECT_EQ(o.timeAtRoofNs, atRoof);
    EXPECT_EQ(o.recoverableNs, recoverable);
    EXPECT_EQ(o.unrankedTimeNs, apart);
    EXPECT_EQ(o.gpuTimeNs, ranked + apart);
}

const Opportunity* opportunityOf(const Opportunities& o, const std::string& name, const std::string& dims)
{
    const auto wanted = nlohmann::json::parse(dims);
    for (const auto& r : o.rows)
        if (r.name == name && !r.inputDims.empty() && nlohmann::json::parse(r.inputDims) == wanted)
            return &r;
    return nullptr;
}

} // namespace

// The ViT (Falconsai nsfw_image_detection, batch 4, bf16) trace's two largest opportunities.
TEST(Opportunities, VitTopEntriesFromShapesAndTheDatasheet)
{
    auto session
        = ridgeline::testing::importKinetoTrace("tracelens-h100/Falconsai_nsfw_image_detection__1016002.json.gz");
    ASSERT_TRUE(session->reader);
    const Opportunities o = opportunitiesOf(*session->reader);
    checkConsistent(o);
    ASSERT_GE(o.rows.size(), 2u);
    // Every kernel but CatArrayBatchedCopy (aten::cat: a TensorList's element type is not recorded).
    EXPECT_GE(o.coverage(), 0.99);
    ASSERT_EQ(o.unranked.size(), 1u);
    EXPECT_NE(o.unranked[0].reason.find("aten::cat"), std::string::npos);

    // 1. aten::addmm, bias [768] + [788,768] x [768,768], bf16, 48 calls (the 12 layers' QKV and
    // output projections). FLOPs per call 2*788*768*768 + 788*768 (bias) = 930,167,808; bytes per
    // call 2 * (768 + 788*768 + 768*768 + 788*768) = 3,601,920. Over 48 calls: 44,648,054,784
    // FLOPs at 989.5 TFLOP/s = 45.1 us; 172,892,160 B at 3.35 TB/s = 51,609.6 ns: memory is the roof.
    const Opportunity& first = o.rows[0];
    EXPECT_EQ(first.name, "aten::addmm");
    EXPECT_EQ(nlohmann::json::parse(first.inputDims), nlohmann::json::parse("[[768],[788,768],[768,768],[],[]]"));
    EXPECT_EQ(first.kind, OpportunityKind::Operator);
    EXPECT_EQ(first.calls, 48);
    const double flops = 48.0 * (2.0 * 788 * 768 * 768 + 788.0 * 768);
    const double bytes = 48.0 * 2 * (768.0 + 788 * 768 + 768 * 768 + 788 * 768);
    EXPECT_DOUBLE_EQ(first.flops, flops);
    EXPECT_DOUBLE_EQ(first.bytes, bytes);
    EXPECT_NEAR(first.roofTimes.computeNs, flops / kH100Bf16 * 1e9, 1e-6);
    EXPECT_NEAR(first.roofTimes.memoryNs, bytes / kH100Dram * 1e9, 1e-6);
    EXPECT_EQ(first.limitedBy, "memory");
    EXPECT_EQ(first.timeAtRoofNs, 51'610); // 51,609.6 ns
    EXPECT_EQ(first.recoverableNs, first.gpuTimeNs - 51'610);
    ASSERT_TRUE(first.computeRoof && first.memoryRoof);
    EXPECT_DOUBLE_EQ(*first.computeRoof, kH100Bf16);
    EXPECT_DOUBLE_EQ(*first.memoryRoof, kH100Dram);
    // 8.3 us per kernel, far from any roof: latency-bound, with the advice for short launches.
    EXPECT_EQ(first.verdict, VerdictClass::LatencyBound);
    EXPECT_NE(first.advice.front().find("CUDA graph"), std::string::npos) << first.advice.front();

    // 2. aten::convolution, the patch embedding: [4,3,224,224] * [768,3,16,16] stride 16 gives
    // [4,768,14,14]. FLOPs 2*4*768*196*(3*16*16) + 4*768*196 (bias) = 925,446,144; bytes
    // 2 * (4*3*224*224 + 768*3*16*16 + 768 + 4*768*14*14) = 3,589,632, at 3.35 TB/s 1,071.5 ns.
    const Opportunity* conv
        = opportunityOf(o, "aten::convolution", "[[4,3,224,224],[768,3,16,16],[768],[],[],[],[],[],[]]");
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv, &o.rows[1]);
    EXPECT_DOUBLE_EQ(conv->flops, 2.0 * 4 * 768 * 196 * 3 * 16 * 16 + 4.0 * 768 * 196);
    EXPECT_DOUBLE_EQ(conv->bytes, 2.0 * (4 * 3 * 224 * 224 + 768 * 3 * 16 * 16 + 768 + 4 * 768 * 14 * 14));
    EXPECT_EQ(conv->timeAtRoofNs, 1'072); // 3,589,632 / 3.35e12 = 1,071.53 ns
    EXPECT_EQ(conv->recoverableNs, conv->gpuTimeNs - 1'072);
    // The first row's recoverable time is the whole trace's largest, and it is most of its GPU time.
    EXPECT_GT(first.recoverableNs, conv->recoverableNs);
}

// BERT-small (batch 1, 141 tokens, bf16): every kernel is modelled; its largest opportunity is the
// 17 calls of the 512x512 projections.
TEST(Opportunities, BertTopEntryFromShapesAndTheDatasheet)
{
    auto session
        = ridgeline::testing::importKinetoTrace("tracelens-h100/gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_TRUE(session->reader);
    const Opportunities o = opportunitiesOf(*session->reader);
    checkConsistent(o);
    EXPECT_TRUE(o.unranked.empty());
    EXPECT_DOUBLE_EQ(o.coverage(), 1.0);
    ASSERT_FALSE(o.rows.empty());
    // aten::addmm [512] + [141,512] x [512,512], 17 calls: bytes per call 2 * (512 + 141*512 +
    // 512*512 + 141*512) = 814,080, FLOPs 2*141*512*512 + 141*512 = 73,996,800. Over 17 calls
    // 13,839,360 B at 3.35 TB/s = 4,131.2 ns; 1,257,945,600 FLOPs at 989.5 TFLOP/s = 1,271.3 ns.
    const Opportunity& first = o.rows[0];
    EXPECT_EQ(first.name, "aten::addmm");
    EXPECT_EQ(nlohmann::json::parse(first.inputDims), nlohmann::json::parse("[[512],[141,512],[512,512],[],[]]"));
    EXPECT_EQ(first.calls, 17);
    EXPECT_DOUBLE_EQ(first.bytes, 17.0 * 2 * (512 + 141 * 512 + 512 * 512 + 141 * 512));
    EXPECT_DOUBLE_EQ(first.flops, 17.0 * (2.0 * 141 * 512 * 512 + 141 * 512));
    EXPECT_EQ(first.timeAtRoofNs, std::llround(first.bytes / kH100Dram * 1e9));
    EXPECT_EQ(first.limitedBy, "memory");
}

// The bundled A100 example (Nsight Compute counters of PyTorch linear layers, FP32): kernel rows
// from counters; the FP32 GEMMs get the tensor-core advice; every launch is ranked.
TEST(Opportunities, BundledA100ExampleFromCounters)
{
    auto reader = SessionReader::open(testDataPath("../../resources/examples/a100-linear-ncu.ridge"));
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    const Opportunities o = opportunitiesOf(reader.value());
    checkConsistent(o);
    EXPECT_GE(o.coverage(), 0.90);
    ASSERT_FALSE(o.rows.empty());
    const Opportunity& first = o.rows[0];
    EXPECT_EQ(first.kind, OpportunityKind::Kernel);
    EXPECT_EQ(first.name, "ampere_sgemm_128x64_tn");
    // Worked out from its launches' counters: ncu's SM throughput, time-weighted over the launches
    // (gpu__time_duration.sum), times the row's GPU time, is a roof time; the time at roof is at
    // least that, and here it is that (the SM is 95 % busy, a little above the FP32 pipe's share).
    auto launches = reader.value().kernelsOfName(first.kernels.at(0).nameId, first.deviceId);
    ASSERT_TRUE(launches.ok());
    double weighted = 0, time = 0;
    for (const auto& k : launches.value()) {
        auto metrics = reader.value().metrics(k.id);
        ASSERT_TRUE(metrics.ok());
        double sm = -1, duration = -1;
        for (const auto& m : metrics.value()) {
            if (m.name == metric::SolSm)
                sm = m.value / 100.0;
            if (m.name == metric::Duration)
                duration = m.value;
        }
        ASSERT_GE(sm, 0);
        ASSERT_GT(duration, 0);
        weighted += sm * duration;
        time += duration;
    }
    const double throughputNs = weighted / time * static_cast<double>(first.gpuTimeNs);
    EXPECT_NEAR(first.roofTimes.throughputNs, throughputNs, 1e-6 * throughputNs);
    EXPECT_GE(first.roofTimes.throughputNs, first.roofTimes.computeNs);
    EXPECT_EQ(first.timeAtRoofNs, std::llround(throughputNs));
    // FP32 on an A100: TF32 tensor cores (156 TFLOP/s against 19.5) are the real lever.
    EXPECT_NE(first.advice.front().find("TF32"), std::string::npos) << first.advice.front();
}

// A session of two ranks whose GPU the trace does not name: no roof for anything, every kernel
// listed apart with its GPU time and why.
TEST(Opportunities, TimeWithoutARoofIsListedApart)
{
    auto reader = SessionReader::open(testDataPath("../../resources/examples/pytorch-two-ranks.ridge"));
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    const Opportunities o = opportunitiesOf(reader.value());
    checkConsistent(o);
    EXPECT_GT(o.gpuTimeNs, 0);
    ASSERT_FALSE(o.unranked.empty());
    bool sawCollective = false;
    for (const auto& u : o.unranked) {
        EXPECT_GT(u.calls, 0);
        sawCollective = sawCollective || u.reason.find("communication") != std::string::npos;
    }
    EXPECT_TRUE(sawCollective);
}

// The JSON the CLI writes: the fields, rows sorted, the totals the rows' sums, input
// dims for operator rows only; --top cuts the rows, not the totals.
TEST(Opportunities, ReportJsonHasTheFieldsAndTheSums)
{
    auto session
        = ridgeline::testing::importKinetoTrace("tracelens-h100/Falconsai_nsfw_image_detection__1016002.json.gz");
    ASSERT_TRUE(session->reader);
    auto built = buildOpportunityReport(*session->reader);
    ASSERT_TRUE(built.ok());
    for (const std::size_t top : { std::size_t(0), std::size_t(3) }) {
        std::ostringstream out;
        writeOpportunityReport(out, built.value(), ReportFormat::Json, top);
        const auto doc = nlohmann::json::parse(out.str());
        const auto& rows = doc.at("opportunities");
        EXPECT_EQ(rows.size(), top ? top : built.value().opportunities.rows.size());
        std::int64_t recoverable = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& r = rows[i];
            for (const char* field : { "name", "kind", "calls", "gpu_time_ns", "time_at_roof_ns", "recoverable_ns",
                     "verdict", "bound_by", "flops", "bytes", "roof", "advice" })
                EXPECT_TRUE(r.contains(field)) << field;
            EXPECT_TRUE(r.at("roof").contains("compute_flops_per_s"));
            EXPECT_TRUE(r.at("roof").contains("memory_bytes_per_s"));
            EXPECT_EQ(r.contains("input_dims"), r.at("kind") == "op");
            EXPECT_EQ(r.at("recoverable_ns").get<std::int64_t>(),
                r.at("gpu_time_ns").get<std::int64_t>() - r.at("time_at_roof_ns").get<std::int64_t>());
            if (i > 0) {
                EXPECT_GE(
                    rows[i - 1].at("recoverable_ns").get<std::int64_t>(), r.at("recoverable_ns").get<std::int64_t>());
            }
            recoverable += r.at("recoverable_ns").get<std::int64_t>();
        }
        if (top == 0) {
            EXPECT_EQ(doc.at("recoverable_ns").get<std::int64_t>(), recoverable);
        }
        EXPECT_EQ(doc.at("recoverable_ns").get<std::int64_t>(), built.value().opportunities.recoverableNs);
        EXPECT_EQ(doc.at("gpu_time_ns").get<std::int64_t>(), built.value().opportunities.gpuTimeNs);
        EXPECT_EQ(doc.at("unranked").size(), 1u);
    }
    std::ostringstream table;
    writeOpportunityReport(table, built.value(), ReportFormat::Table, 5);
    EXPECT_NE(table.str().find("At its roofs the GPU would do this work in"), std::string::npos) << table.str();
    EXPECT_NE(table.str().find("aten::addmm"), std::string::npos);
}

// putOnRoof on figures made up for the test (not measured): a launch at 60 % of the DRAM roof and
// 10 % of FP32 over 1 ms, extrapolated to 3 ms of the same kernel (its other launches uncounted).
TEST(Opportunities, UtilisationsExtrapolateOverTheRowsTime)
{
    KernelAnalysis a;
    a.durationNs = 3e6;
    a.figuresNs = 1e6;
    a.hasCounters = true;
    a.flopsByPrecision[Resource::FP32] = 1.95e9; // 10 % of 19.5 TFLOP/s over 1 ms
    a.bytesByLevel[Resource::DRAM] = 1.2e9; // 60 % of 2 TB/s over 1 ms
    a.ceilingsUsed[Resource::FP32] = { 19.5e12, CeilingSource::Datasheet };
    a.ceilingsUsed[Resource::DRAM] = { 2e12, CeilingSource::Datasheet };
    a.utilization[Resource::FP32] = 0.1;
    a.utilization[Resource::DRAM] = 0.6;
    a.verdict = VerdictClass::MemoryBound;
    Opportunity row;
    ASSERT_TRUE(putOnRoof(a, 3'000'000, row));
    EXPECT_EQ(row.limitedBy, "memory");
    EXPECT_EQ(row.timeAtRoofNs, 1'800'000);
    EXPECT_EQ(row.recoverableNs, 1'200'000);
    EXPECT_DOUBLE_EQ(row.bytes, 3.6e9);
    EXPECT_DOUBLE_EQ(row.flops, 5.85e9);
    EXPECT_DOUBLE_EQ(row.figuresShare, 1.0 / 3.0);
    ASSERT_TRUE(row.memoryRoof);
    EXPECT_DOUBLE_EQ(*row.memoryRoof, 2e12);
    // Over its roof (a wrong ceiling): capped, nothing recoverable, and said.
    a.utilization[Resource::DRAM] = 1.5;
    ASSERT_TRUE(putOnRoof(a, 3'000'000, row));
    EXPECT_TRUE(row.overRoof);
    EXPECT_EQ(row.timeAtRoofNs, 3'000'000);
    EXPECT_EQ(row.recoverableNs, 0);
    // No ceiling for any figure: no roof.
    KernelAnalysis none;
    none.durationNs = none.figuresNs = 1e6;
    none.flopsByPrecision[Resource::FP32] = 1e9;
    Opportunity unroofed;
    EXPECT_FALSE(putOnRoof(none, 1'000'000, unroofed));
}

// `report --by rank` and the Cluster page: a rank's share is the opportunities of its devices; a
// session of one rank holds them all.
TEST(Opportunities, RankSummaryCarriesTheRecoverableTime)
{
    auto session
        = ridgeline::testing::importKinetoTrace("tracelens-h100/Falconsai_nsfw_image_detection__1016002.json.gz");
    ASSERT_TRUE(session->reader);
    const Opportunities o = opportunitiesOf(*session->reader);
    auto ranks = summarizeRanks(*session->reader);
    ASSERT_TRUE(ranks.ok()) << ranks.error().message;
    ASSERT_EQ(ranks.value().size(), 1u);
    const RankSummary& r = ranks.value().front();
    // Split over devices as doubles and rounded once per rank: within a nanosecond.
    EXPECT_NEAR(static_cast<double>(r.rankedNs), static_cast<double>(o.rankedTimeNs), 1.0);
    EXPECT_NEAR(static_cast<double>(r.timeAtRoofNs), static_cast<double>(o.timeAtRoofNs), 1.0);
    EXPECT_NEAR(static_cast<double>(r.recoverableNs), static_cast<double>(o.recoverableNs), 1.0);
    EXPECT_GT(r.recoverableNs, 0);
    // Stored and read back with them.
    auto back = rankSummaryFromJson(rankSummaryJson(r));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back.value().recoverableNs, r.recoverableNs);
    EXPECT_EQ(back.value().timeAtRoofNs, r.timeAtRoofNs);
}

// The advice from what the session holds. The ViT trace (real): its layer norms run right after
// the residual adds, a chain one fused kernel would do. A softmax over attention scores beside
// batched GEMMs: no real trace here has one (the H100 traces use fused attention already), so the
// shapes below are made up for the test, not measured.
TEST(Opportunities, AdviceFromWhatTheSessionHolds)
{
    auto session
        = ridgeline::testing::importKinetoTrace("tracelens-h100/Falconsai_nsfw_image_detection__1016002.json.gz");
    ASSERT_TRUE(session->reader);
    const Opportunities o = opportunitiesOf(*session->reader);
    const Opportunity* norm = opportunityOf(o, "aten::layer_norm", "[[4,197,768],[],[768],[768],[],[]]");
    ASSERT_NE(norm, nullptr);
    const bool fused = std::any_of(norm->advice.begin(), norm->advice.end(),
        [](const std::string& a) { return a.find("one fused kernel") != std::string::npos; });
    EXPECT_TRUE(fused);

    OperatorShapes shapes;
    OperatorShapeRow softmax;
    softmax.name = "aten::_softmax";
    softmax.inputDims = "[[8,12,512,512],[],[]]";
    softmax.calls = 12;
    softmax.work = OperatorWork {};
    softmax.work->family = "softmax";
    OperatorShapeRow bmm;
    bmm.name = "aten::bmm";
    bmm.inputDims = "[[96,512,64],[96,64,512]]";
    bmm.work = OperatorWork {};
    bmm.work->family = "GEMM";
    shapes.rows = { softmax, bmm };
    Opportunity row;
    row.kind = OpportunityKind::Operator;
    row.verdict = VerdictClass::MemoryBound;
    row.analysis.verdict = VerdictClass::MemoryBound;
    row.analysis.boundBy = "DRAM";
    detail::OpportunityContext context;
    context.shapes = &shapes;
    const auto advice = detail::opportunityAdvice(row, &shapes.rows[0], context);
    ASSERT_FALSE(advice.empty());
    EXPECT_NE(advice.front().find("fused attention kernel"), std::string::npos) << advice.front();
    EXPECT_NE(advice.front().find("[8,12,512,512]"), std::string::npos) << advice.front();
    // Without batched GEMMs it is just a softmax.
    shapes.rows.pop_back();
    for (const auto& a : detail::opportunityAdvice(row, &shapes.rows[0], context))
        EXPECT_EQ(a.find("fused attention kernel"), std::string::npos) << a;
}
