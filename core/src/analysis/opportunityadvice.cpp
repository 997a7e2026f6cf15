// SPDX-License-Identifier: MIT
#include "opportunityadvice.h"

#include "ridgeline/core/analysis/advice.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>

namespace ridgeline::core::detail {

namespace {

// Kernels this short spend much of their time in launch, ramp-up and tail.
constexpr double kShortKernelNs = 20'000;
constexpr std::size_t kMostAdvice = 4;

std::string lowered(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

const OperatorWork* workOf(const OperatorShapeRow* shape)
{
    return shape && shape->work ? &*shape->work : nullptr;
}

std::optional<double> roofOf(const OpportunityContext& context, Resource resource)
{
    if (!context.roofs)
        return std::nullopt;
    const auto it = context.roofs->find(resource);
    return it != context.roofs->end() && it->second.value > 0 ? std::optional(it->second.value) : std::nullopt;
}

// "GEMM" or "convolution" when the row is float32 matrix work on the FP32 pipe.
std::optional<std::string> fp32MatrixWork(const Opportunity& row, const OperatorShapeRow* shape)
{
    if (const OperatorWork* w = workOf(shape))
        return w->pipe == Resource::FP32 && (w->family == "GEMM" || w->family == "convolution")
            ? std::optional(w->family)
            : std::nullopt;
    if (row.kind != OpportunityKind::Kernel || !row.analysis.hasCounters || !(row.flops > 0))
        return std::nullopt;
    const auto fp32 = row.analysis.flopsByPrecision.find(Resource::FP32);
    double all = 0;
    for (const auto& [precision, ops] : row.analysis.flopsByPrecision)
        all += ops;
    if (fp32 == row.analysis.flopsByPrecision.end() || fp32->second < 0.8 * all)
        return std::nullopt;
    const std::string name = lowered(row.fullName);
    if (name.find("gemm") != std::string::npos)
        return "GEMM";
    if (name.find("conv") != std::string::npos)
        return "convolution";
    return std::nullopt;
}

std::optional<std::string> tensorCoreAdvice(
    const Opportunity& row, const OperatorShapeRow* shape, const OpportunityContext& context)
{
    const auto family = fp32MatrixWork(row, shape);
    const auto fp32 = roofOf(context, Resource::FP32);
    const auto tf32 = roofOf(context, Resource::TF32Tensor);
    if (!family || !fp32 || !tf32 || !(*tf32 > *fp32) || !(row.flops > 0))
        return std::nullopt;
    // At the roof the row was judged against (counter ceilings at its clock, where measured),
    // scaled by the datasheet ratio of the two pipes.
    const double now = row.roofTimes.computeNs > 0 ? row.roofTimes.computeNs : row.flops / *fp32 * 1e9;
    const double onTensorCores = std::max(now * *fp32 / *tf32, row.roofTimes.memoryNs);
    const char* how = *family == "GEMM"
        ? "torch.backends.cuda.matmul.allow_tf32 = True (or torch.set_float32_matmul_precision(\"high\")), "
          "bf16 autocast, or cuBLAS's CUBLAS_TF32_TENSOR_OP_MATH"
        : "torch.backends.cudnn.allow_tf32 = True, or bf16 autocast";
    return fmt::format("A float32 {} on the FP32 pipe ({}): on tensor cores as TF32 ({}) its work takes at least {} "
                       "instead of {} at its roofs: {}.",
        *family, formatRate(*fp32, "FLOP/s"), formatRate(*tf32, "FLOP/s"), formatDuration(onTensorCores),
        formatDuration(now), how);
}

// The dims of an operator's first input ("[[4,12,197,197],[]]" gives 4, 12, 197, 197).
std::vector<std::int64_t> firstInputDims(std::string_view inputDims)
{
    std::vector<std::int64_t> dims;
    const auto parsed = nlohmann::json::parse(inputDims, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_array() || parsed.empty() || !parsed[0].is_array())
        return dims;
    for (const auto& d : parsed[0]) {
        if (!d.is_number_integer())
            return {};
        dims.push_back(d.get<std::int64_t>());
    }
    return dims;
}

bool hasBatchedGemm(const OperatorShapes* shapes)
{
    if (!shapes)
        return false;
    return std::any_of(shapes->rows.begin(), shapes->rows.end(), [](const OperatorShapeRow& r) {
        return r.work
            && (r.name == "aten::bmm" || r.name == "aten::baddbmm"
                || (r.name == "aten::matmul" && firstInputDims(r.inputDims).size() >= 3));
    });
}

std::optional<std::string> attentionAdvice(const OperatorShapeRow* shape, const OpportunityContext& context)
{
    const OperatorWork* w = workOf(shape);
    if (!w || w->family != "softmax")
        return std::nullopt;
    const auto dims = firstInputDims(shape->inputDims);
    if (dims.size() < 3 || dims.back() < 64 || dims[dims.size() - 2] < 64 || !hasBatchedGemm(context.shapes))
        return std::nullopt;
    return fmt::format("A softmax over {} attention scores beside batched GEMMs: the scores go to DRAM and back "
                       "between them. A fused attention kernel (torch.nn.functional.scaled_dot_product_attention, "
                       "FlashAttention) keeps them on chip and does the softmax and both GEMMs in one pass.",
        shape->inputDims.substr(1, shape->inputDims.find(']')));
}

std::optional<std::string> fusionAdvice(const Opportunity& row, const OperatorShapeRow* shape)
{
    if (row.verdict != VerdictClass::MemoryBound && row.verdict != VerdictClass::LatencyBound)
        return std::nullopt;
    if (const OperatorWork* w = workOf(shape)) {
        if (!isFusableFamily(w->family) || shape->callsInFusableChain <= 0)
            return std::nullopt;
        return fmt::format("{} of its {} calls run right next to another elementwise, norm, softmax or reduction "
                           "operator's kernel: one fused kernel (torch.compile, or a hand-written one) reads and "
                           "writes the tensors once for the whole chain.",
            formatCount(shape->callsInFusableChain), formatCount(shape->calls));
    }
    if (row.kind == OpportunityKind::Kernel && row.fullName.find("elementwise_kernel") != std::string::npos)
        return std::string(
            "A PyTorch elementwise kernel: where it runs next to other elementwise kernels, torch.compile "
            "fuses the chain into one kernel that reads and writes the tensors once.");
    return std::nullopt;
}

std::optional<std::string> launchAdvice(const Opportunity& row)
{
    if (row.verdict != VerdictClass::LatencyBound)
        return std::nullopt;
    std::int64_t launches = 0;
    for (const auto& k : row.kernels)
        launches += k.launches;
    if (launches <= 0)
        return std::nullopt;
    const double average = static_cast<double>(row.gpuTimeNs) / static_cast<double>(launches);
    if (average >= kShortKernelNs)
        return std::nullopt;
    return fmt::format("{} launches averaging {}: launch overhead, ramp-up and tail dominate kernels this short. "
                       "Capture them in a CUDA graph (torch.cuda.graphs, torch.compile(mode=\"reduce-overhead\")) or "
                       "do the work in fewer, larger launches.",
        formatCount(launches), formatDuration(average));
}

std::optional<std::string> copyAdvice(const Opportunity& row)
{
    if (row.kind != OpportunityKind::Copy || row.pageableCopies <= 0)
        return std::nullopt;
    return fmt::format("{} of its {} copies are to or from pageable host memory: pinned memory (pin_memory=True, "
                       "cudaHostAlloc) copies at full link speed and asynchronously.",
        formatCount(row.pageableCopies), formatCount(row.calls));
}

} // namespace

std::vector<std::string> opportunityAdvice(
    const Opportunity& row, const OperatorShapeRow* shape, const OpportunityContext& context)
{
    std::vector<std::string> out;
    if (row.overRoof)
        out.push_back("Its figures exceed a roof: check its GPU's ceilings (ridgeline ceilings) and the counters "
                      "before trusting this row.");
    for (auto advice : { tensorCoreAdvice(row, shape, context), attentionAdvice(shape, context),
             fusionAdvice(row, shape), launchAdvice(row), copyAdvice(row) }) {
        if (advice)
            out.push_back(std::move(*advice));
    }
    if (row.verdict == VerdictClass::LatencyBound)
        out.push_back("Latency-bound: no unit is near its roof, so the time comes back through more parallel work "
                      "per launch or fewer launches, not through a faster unit.");
    // The verdict's own suggestions (advice.h) after the ones this row's data gives.
    for (auto& advice : adviceFor(row.analysis)) {
        if (out.size() >= kMostAdvice)
            break;
        out.push_back(std::move(advice));
    }
    return out;
}

} // namespace ridgeline::core::detail
