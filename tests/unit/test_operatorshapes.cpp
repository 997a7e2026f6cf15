// SPDX-License-Identifier: MIT
// Kernels' FLOPs and bytes from their PyTorch operators' shapes (issue 33), end to end on the two
// real H100 traces TraceLens ships with its own reports (tests/data/tracelens-h100/, MIT): each trace
// is imported, its kernels attributed to the operators that own their work, and the rows compared
// with TraceLens's rows of the same operator and Input Dims. Figures in the checks come from the
// CSVs; the thresholds are the issue's.
#include "importedtrace.h"
#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "ridgeline/core/output/shapereport.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"
#include "tracelensrows.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ridgeline::core;
using ridgeline::testing::testDataPath;

namespace {

const OperatorShapeRow* shapeRowOf(const OperatorShapes& shapes, const std::string& name, const std::string& dims)
{
    const auto wanted = nlohmann::json::parse(dims);
    for (const auto& row : shapes.rows) {
        if (row.name == name && nlohmann::json::parse(row.inputDims) == wanted)
            return &row;
    }
    return nullptr;
}

// Every row TraceLens models: the same operator and dims own the same calls and kernel time, and
// our work per call agrees (FLOPs within 1 %, bytes within 10 %). At least 90 % of kernel time is
// modelled, and the kernels get verdicts from it.
void checkShapeTrace(const std::string& trace)
{
    auto session = ridgeline::testing::importKinetoTrace("tracelens-h100/" + trace + ".json.gz");
    ASSERT_TRUE(session->reader);
    auto& reader = *session->reader;
    auto shapes = modelOperatorShapes(reader);
    ASSERT_TRUE(shapes.ok()) << shapes.error().message;
    const OperatorShapes& s = shapes.value();
    ASSERT_GT(s.kernelTimeNs, 0);
    EXPECT_GE(static_cast<double>(s.modelledTimeNs), 0.90 * static_cast<double>(s.kernelTimeNs));

    int compared = 0;
    for (const auto& tl : ridgeline::testing::traceLensRows(trace)) {
        if (!tl.modelled)
            continue;
        SCOPED_TRACE(tl.name + " " + tl.dims);
        const OperatorShapeRow* row = shapeRowOf(s, tl.name, tl.dims);
        ASSERT_NE(row, nullptr);
        ASSERT_TRUE(row->work.has_value()) << row->reason;
        EXPECT_EQ(row->calls, tl.calls);
        const double tlNs = tl.kernelTimeUs * 1000.0;
        EXPECT_LE(std::fabs(static_cast<double>(row->gpuTimeNs) - tlNs), 0.05 * tlNs)
            << "ours " << row->gpuTimeNs << " ns, TraceLens " << tlNs << " ns";
        const double calls = static_cast<double>(row->calls);
        EXPECT_LE(std::fabs(row->flops / calls - tl.gflops * 1e9), 0.01 * tl.gflops * 1e9);
        EXPECT_LE(std::fabs(row->bytes / calls - tl.mib * 1048576.0), 0.10 * tl.mib * 1048576.0);
        // Judged against the H100's datasheet roofs (the trace's deviceProperties name it).
        EXPECT_NE(row->analysis.verdict, VerdictClass::Unknown) << row->analysis.reason;
        EXPECT_EQ(row->analysis.figures, FigureSource::Shapes);
        ++compared;
    }
    EXPECT_GT(compared, 0);

    // The kernel table: verdicts for the modelled kernels, from shapes; the roofline: their points.
    auto kernels = summarizeKernels(reader);
    ASSERT_TRUE(kernels.ok());
    std::int64_t judgedNs = 0, allNs = 0;
    for (const auto& k : kernels.value()) {
        allNs += k.totalNs;
        if (k.analysis.verdict != VerdictClass::Unknown) {
            judgedNs += k.totalNs;
            EXPECT_EQ(k.analysis.figures, FigureSource::Shapes) << k.name;
            EXPECT_NE(k.analysis.reason.find("from shapes: aten::"), std::string::npos) << k.analysis.reason;
        }
    }
    EXPECT_GE(static_cast<double>(judgedNs), 0.90 * static_cast<double>(allNs));
    const auto chart = buildRooflineChart({}, kernels.value(), {});
    EXPECT_FALSE(chart.points.empty());
}

} // namespace

TEST(OperatorShapes, BertSmallAgreesWithTraceLens)
{
    checkShapeTrace("gaunernst_bert-small-uncased__1016001");
}

TEST(OperatorShapes, VitAgreesWithTraceLens)
{
    checkShapeTrace("Falconsai_nsfw_image_detection__1016002");
}

// A layer_norm launches its kernel from aten::native_layer_norm inside it; the row is the
// aten::layer_norm the model called (TraceLens's choice), and aten::linear gives way to the
// aten::addmm it dispatches to. No row is a composite while a modelled operator is below it.
TEST(OperatorShapes, OutermostModelledOperatorOwnsTheKernels)
{
    auto session
        = ridgeline::testing::importKinetoTrace("tracelens-h100/gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_TRUE(session->reader);
    auto shapes = modelOperatorShapes(*session->reader);
    ASSERT_TRUE(shapes.ok());
    bool layerNorm = false;
    for (const auto& row : shapes.value().rows) {
        EXPECT_NE(row.name, "aten::native_layer_norm");
        EXPECT_NE(row.name, "aten::linear");
        EXPECT_NE(row.name, "aten::_flash_attention_forward");
        layerNorm = layerNorm || row.name == "aten::layer_norm";
    }
    EXPECT_TRUE(layerNorm);
}

// `report --by shape --format json`: the fields the issue names, input_dims as the trace's nested arrays.
TEST(OperatorShapes, ShapeReportJson)
{
    auto session
        = ridgeline::testing::importKinetoTrace("tracelens-h100/gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_TRUE(session->reader);
    auto report = buildShapeReport(*session->reader);
    ASSERT_TRUE(report.ok());
    std::ostringstream out;
    writeShapeReport(out, report.value(), ReportFormat::Json);
    const auto j = nlohmann::json::parse(out.str());
    EXPECT_EQ(j["gpu_time_ns"], report.value().shapes.kernelTimeNs);
    EXPECT_EQ(j["modelled_gpu_time_ns"], report.value().shapes.modelledTimeNs);
    ASSERT_FALSE(j["shapes"].empty());
    for (const char* key :
        { "name", "input_dims", "input_types", "calls", "gpu_time_ns", "flops_per_call", "bytes_per_call", "model",
            "precision", "flops_per_s", "bytes_per_s", "verdict", "bound_by", "pct_of_roof" })
        EXPECT_TRUE(j["shapes"][0].contains(key)) << key;
    // The first row is the longest: addmm (512) + (141×512)·(512×512) in bf16, 17 calls (TraceLens's first row).
    const auto& first = j["shapes"][0];
    EXPECT_EQ(first["name"], "aten::addmm");
    EXPECT_EQ(first["input_dims"], nlohmann::json::parse("[[512], [141, 512], [512, 512], [], []]"));
    EXPECT_EQ(first["calls"], 17);
    EXPECT_EQ(first["flops_per_call"], 73996800.0); // 2·141·512·512 + 141·512
    EXPECT_EQ(first["bytes_per_call"], 814080.0); // (512 + 141·512 + 512·512 + 141·512)·2
    EXPECT_EQ(first["precision"], "bf16");
}

// A trace recorded without shapes (no Input Dims) gets no figures from them: its kernels are
// analysed as before.
TEST(OperatorShapes, TraceWithoutShapesIsAsBefore)
{
    auto session = ridgeline::testing::importKinetoTrace(
        "kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    ASSERT_TRUE(session->reader);
    auto shapes = modelOperatorShapes(*session->reader);
    ASSERT_TRUE(shapes.ok());
    EXPECT_TRUE(shapes.value().byKernel.empty());
    EXPECT_EQ(shapes.value().modelledTimeNs, 0);
    auto kernels = summarizeKernels(*session->reader);
    ASSERT_TRUE(kernels.ok());
    ASSERT_FALSE(kernels.value().empty());
    for (const auto& k : kernels.value())
        EXPECT_NE(k.analysis.figures, FigureSource::Shapes) << k.name;
}

namespace {

// A launch whose only figures are its operator's work from shapes, on an H100 SXM's datasheet roofs.
KernelAnalysis judgedOnH100(const std::string& op, const std::string& dims, const std::string& types, double ns)
{
    const auto* h100 = ridgeline::collectors::findGpu("NVIDIA H100 80GB HBM3", 9, 0, 132);
    EXPECT_NE(h100, nullptr);
    KernelFacts facts;
    facts.kernelId = 1;
    facts.durationNs = static_cast<std::int64_t>(ns);
    if (h100)
        facts.ceilings = ridgeline::collectors::datasheetCeilings(*h100, 0);
    const auto model = modelOperator({ op, dims, types, "" });
    EXPECT_TRUE(model.work.has_value()) << model.reason;
    if (model.work) {
        auto call = std::make_shared<const ShapeCall>(ShapeCall { op, *model.work });
        facts.shapes = ShapeFigures { model.work->flops, model.work->bytes, 1.0, call };
    }
    return analyzeKernel(facts);
}

} // namespace

// Item 4 of the issue: a bf16 GEMM at 600 TFLOP/s on an H100 is compute-bound at about 61 % of its
// BF16 tensor roof (989.5 TFLOP/s dense: 1,979 with sparsity on the datasheet, halved).
TEST(OperatorShapes, Bf16GemmAt600TflopsIsComputeBound)
{
    // mm (8192×8192)·(8192×8192): 2·8192³ = 1.0995e12 FLOPs; at 600 TFLOP/s that is 1.8326 ms.
    const double flops = 2.0 * 8192.0 * 8192.0 * 8192.0;
    const auto a = judgedOnH100(
        "aten::mm", "[[8192, 8192], [8192, 8192]]", R"(["c10::BFloat16", "c10::BFloat16"])", flops / 600e12 * 1e9);
    EXPECT_EQ(a.figures, FigureSource::Shapes);
    EXPECT_EQ(a.verdict, VerdictClass::ComputeBound) << a.reason;
    ASSERT_TRUE(a.boundUtilization.has_value());
    EXPECT_NEAR(*a.boundUtilization, 600.0 / 989.5, 0.001);
    EXPECT_NE(a.reason.find("61 %"), std::string::npos) << a.reason;
    EXPECT_NE(a.reason.find("from shapes: aten::mm (bf16 GEMM"), std::string::npos) << a.reason;
}

// Elementwise bf16 add of 2 × 64 Mi elements: 3 × 128 MiB moved; at 2.5 TB/s it is memory-bound
// (DRAM) at 2.5 / 3.35 = 75 % of the H100 SXM's HBM3.
TEST(OperatorShapes, ElementwiseAddAt2_5TBsIsMemoryBound)
{
    const double bytes = 3.0 * 64.0 * 1048576.0 * 2.0;
    const auto a = judgedOnH100("aten::add", "[[64, 1048576], [64, 1048576], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "Scalar"])", bytes / 2.5e12 * 1e9);
    EXPECT_EQ(a.verdict, VerdictClass::MemoryBound) << a.reason;
    EXPECT_EQ(a.boundBy, "DRAM");
    ASSERT_TRUE(a.boundUtilization.has_value());
    EXPECT_NEAR(*a.boundUtilization, 2.5 / 3.35, 0.001);
}

// A float32 GEMM whose kernels ran on tensor cores as TF32 (HTA's trace_filter trace, an A100:
// aten::mm launching cutlass_80_tensorop_s1688gemm_*) is judged against the TF32 tensor roof; its
// 47 TFLOP/s would be impossible on the 19.5 TFLOP/s FP32 pipe.
TEST(OperatorShapes, Fp32GemmOnTf32KernelsIsOnTheTf32Pipe)
{
    auto session = ridgeline::testing::importKinetoTrace("kineto/trace_filter/sampled_rank-0.json.gz");
    ASSERT_TRUE(session->reader);
    auto shapes = modelOperatorShapes(*session->reader);
    ASSERT_TRUE(shapes.ok());
    int tf32 = 0;
    for (const auto& row : shapes.value().rows) {
        if (!row.work || row.work->family != "GEMM" || row.work->precision != "fp32")
            continue;
        ASSERT_TRUE(row.work->pipe.has_value());
        if (*row.work->pipe == Resource::TF32Tensor) {
            ++tf32;
            EXPECT_NE(row.work->formula.find("TF32 tensor pipe"), std::string::npos) << row.work->formula;
        }
    }
    EXPECT_GT(tf32, 0);
}

// A hostile session's Input Dims nested a million deep: the model gives a reason, and the rows keep
// the text as it is instead of a JSON tree that would be written out recursively.
TEST(OperatorShapes, DeeplyNestedDimsAreTextNotJson)
{
    const std::string deep = std::string(1'000'000, '[') + std::string(1'000'000, ']');
    EXPECT_TRUE(traceJsonNestsTooDeep(deep));
    EXPECT_FALSE(traceJsonNestsTooDeep("[[[4, 1, 768], [4, 196, 768]], []]"));
    const auto model = modelOperator({ "aten::add", deep, R"(["float", "float"])", "" });
    EXPECT_FALSE(model.work.has_value());
    EXPECT_FALSE(model.reason.empty());
}
