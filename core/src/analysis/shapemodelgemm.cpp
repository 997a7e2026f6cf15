// SPDX-License-Identifier: MIT
// GEMM: 2·M·N·K FLOPs (an FMA is 2), plus M·N for a bias; every operand read once and the output
// written once (TraceLens PerfModel GEMM, aten_addmm, aten_bmm, aten_baddbmm, aten_scaled_mm).
#include "shapemodelfamilies.h"

#include <fmt/format.h>

namespace ridgeline::core::shapes {

namespace {

struct GemmShape {
    double batch = 1;
    double m = 0;
    double n = 0;
    double k = 0;
};

// A GEMM's result: FLOPs 2·B·M·N·K (+ B·M·N for a bias), the given bytes.
OperatorModel gemmWork(const GemmShape& g, bool bias, double bytes, Precision precision, std::optional<Resource> pipe,
    const std::string& bytesFormula)
{
    const double flops = g.batch * (2 * g.m * g.n * g.k + (bias ? g.m * g.n : 0));
    const std::string terms = bias ? "2·M·N·K + M·N (bias)" : "2·M·N·K";
    std::string formula = g.batch == 1
        ? fmt::format("{}; M={}, N={}, K={}", terms, num(g.m), num(g.n), num(g.k))
        : fmt::format("B·({}); B={}, M={}, N={}, K={}", terms, num(g.batch), num(g.m), num(g.n), num(g.k));
    formula += fmt::format(" → {} FLOPs; bytes {} = {}", num(flops), bytesFormula, num(bytes));
    if (precision == Precision::FP32)
        formula += " (fp32 on the FP32 pipe: PyTorch's default matmul does not use TF32)";
    return work("GEMM", flops, bytes, pipe, precision, std::move(formula));
}

std::string gemmOperandBytes(const ShapeArg* t, std::string_view what)
{
    return fmt::format("{} {}·{}", what, dimsText(t->dims), num(t->type.bytes));
}

OperatorModel gemm2d(std::string_view name, const ShapeArg* a, const ShapeArg* b, const ShapeArg* bias)
{
    if (!a || !b)
        return noModel(name, "the matrices are not tensors");
    if (a->dims.size() != 2 || b->dims.size() != 2)
        return noModel(name, "the matrices are not 2-D");
    if (a->dims[1] != b->dims[0])
        return noModel(name, "the inner dimensions differ");
    const GemmShape g { 1, a->dims[0], b->dims[1], a->dims[1] };
    const double outBytes = g.m * g.n * a->type.bytes;
    const double bytes = tensorBytes(a) + tensorBytes(b) + tensorBytes(bias) + outBytes;
    std::string bf = (bias ? gemmOperandBytes(bias, "bias") + " + " : std::string()) + gemmOperandBytes(a, "A") + " + "
        + gemmOperandBytes(b, "B") + fmt::format(" + out {}×{}·{}", num(g.m), num(g.n), num(a->type.bytes));
    return gemmWork(g, bias != nullptr, bytes, a->type.precision, matrixPipe(a->type.precision), bf);
}

OperatorModel gemmBatched(std::string_view name, const ShapeArg* a, const ShapeArg* b, const ShapeArg* bias)
{
    if (!a || !b)
        return noModel(name, "the matrices are not tensors");
    if (a->dims.size() != 3 || b->dims.size() != 3)
        return noModel(name, "the matrices are not 3-D");
    if (a->dims[0] != b->dims[0] || a->dims[2] != b->dims[1])
        return noModel(name, "the batch or inner dimensions differ");
    const GemmShape g { a->dims[0], a->dims[1], b->dims[2], a->dims[2] };
    const double outBytes = g.batch * g.m * g.n * a->type.bytes;
    const double bytes = tensorBytes(a) + tensorBytes(b) + tensorBytes(bias) + outBytes;
    std::string bf = (bias ? gemmOperandBytes(bias, "bias") + " + " : std::string()) + gemmOperandBytes(a, "A") + " + "
        + gemmOperandBytes(b, "B")
        + fmt::format(" + out {}×{}×{}·{}", num(g.batch), num(g.m), num(g.n), num(a->type.bytes));
    return gemmWork(g, bias != nullptr, bytes, a->type.precision, matrixPipe(a->type.precision), bf);
}

// torch.matmul: 1-D operands gain and lose a dimension, batch dimensions broadcast.
OperatorModel gemmMatmul(std::string_view name, const ShapeArg* a, const ShapeArg* b)
{
    if (!a || !b)
        return noModel(name, "the operands are not tensors");
    if (a->dims.empty() || b->dims.empty())
        return noModel(name, "an operand is 0-dimensional");
    const Dims& ad = a->dims;
    const Dims& bd = b->dims;
    const double k = ad.back();
    const double kb = bd.size() == 1 ? bd[0] : bd[bd.size() - 2];
    if (k != kb)
        return noModel(name, "the inner dimensions differ");
    const double m = ad.size() >= 2 ? ad[ad.size() - 2] : 1;
    const double n = bd.size() >= 2 ? bd.back() : 1;
    const Dims aBatch(ad.begin(), ad.end() - static_cast<std::ptrdiff_t>(std::min<std::size_t>(ad.size(), 2)));
    const Dims bBatch(bd.begin(), bd.end() - static_cast<std::ptrdiff_t>(std::min<std::size_t>(bd.size(), 2)));
    const auto batchDims = broadcastShapes({ &aBatch, &bBatch });
    if (!batchDims)
        return noModel(name, "the batch dimensions do not broadcast");
    const GemmShape g { product(*batchDims), m, n, k };
    const double outBytes = g.batch * m * n * a->type.bytes;
    const double bytes = tensorBytes(a) + tensorBytes(b) + outBytes;
    const std::string bf = gemmOperandBytes(a, "A") + " + " + gemmOperandBytes(b, "B")
        + fmt::format(" + out {}·{}", num(g.batch * m * n), num(a->type.bytes));
    return gemmWork(g, false, bytes, a->type.precision, matrixPipe(a->type.precision), bf);
}

OperatorModel gemmLinear(std::string_view name, const ShapeArgs& args)
{
    const ShapeArg* x = args.tensor(0);
    const ShapeArg* w = args.tensor(1);
    const ShapeArg* bias = args.tensor(2);
    if (!x || !w)
        return noModel(name, "the input or weight is not a tensor");
    if (x->dims.empty() || w->dims.size() != 2)
        return noModel(name, "the weight is not 2-D");
    if (x->dims.back() != w->dims[1])
        return noModel(name, "the input's last dimension differs from the weight's");
    const GemmShape g { 1, product(Dims(x->dims.begin(), x->dims.end() - 1)), w->dims[0], w->dims[1] };
    const double outBytes = g.m * g.n * x->type.bytes;
    const double bytes = tensorBytes(x) + tensorBytes(w) + tensorBytes(bias) + outBytes;
    const std::string bf = gemmOperandBytes(x, "input") + " + " + gemmOperandBytes(w, "weight")
        + (bias ? " + " + gemmOperandBytes(bias, "bias") : std::string())
        + fmt::format(" + out {}×{}·{}", num(g.m), num(g.n), num(x->type.bytes));
    return gemmWork(g, bias != nullptr, bytes, x->type.precision, matrixPipe(x->type.precision), bf);
}

// _scaled_mm(self, mat2, scale_a, scale_b, bias, scale_result, out_dtype, use_fast_accum).
OperatorModel gemmScaledMm(std::string_view name, const ShapeArgs& args)
{
    const ShapeArg* a = args.tensor(0);
    const ShapeArg* b = args.tensor(1);
    if (!a || !b || a->dims.size() != 2 || b->dims.size() != 2)
        return noModel(name, "the matrices are not 2-D tensors");
    if (a->dims[1] != b->dims[0])
        return noModel(name, "the inner dimensions differ");
    const ShapeArg* bias = args.tensor(4);
    const GemmShape g { 1, a->dims[0], b->dims[1], a->dims[1] };
    // The output's type: out_dtype when recorded, else as TraceLens assumes (fp8 → 2 bytes).
    double outElementBytes = a->type.bytes == 1 ? 2 : a->type.bytes;
    if (const auto st = concreteInt(args.at(6)))
        if (const auto t = elementTypeFromScalarType(*st))
            outElementBytes = t->bytes;
    double scales = 0;
    for (std::size_t i : { std::size_t(2), std::size_t(3), std::size_t(5) })
        scales += tensorBytes(args.tensor(i));
    const double bytes = tensorBytes(a) + tensorBytes(b) + tensorBytes(bias) + scales + g.m * g.n * outElementBytes;
    const std::string bf = gemmOperandBytes(a, "A") + " + " + gemmOperandBytes(b, "B")
        + (bias ? " + " + gemmOperandBytes(bias, "bias") : std::string()) + fmt::format(" + scales {}", num(scales))
        + fmt::format(" + out {}×{}·{}", num(g.m), num(g.n), num(outElementBytes));
    return gemmWork(g, bias != nullptr, bytes, a->type.precision, matrixPipe(a->type.precision), bf);
}

// mv(self, vec) and addmv(self, mat, vec): a matrix-vector product runs on the CUDA cores (cuBLAS
// gemv), so its FLOPs go to the vector pipe of its type.
OperatorModel gemmMatrixVector(std::string_view name, const ShapeArg* mat, const ShapeArg* vec, const ShapeArg* bias)
{
    if (!mat || !vec || mat->dims.size() != 2 || vec->dims.size() != 1)
        return noModel(name, "the operands are not a matrix and a vector");
    if (mat->dims[1] != vec->dims[0])
        return noModel(name, "the inner dimensions differ");
    const double m = mat->dims[0];
    const double k = mat->dims[1];
    const double flops = 2 * m * k + (bias ? m : 0);
    const double bytes = tensorBytes(mat) + tensorBytes(vec) + tensorBytes(bias) + m * mat->type.bytes;
    const auto formula = fmt::format("2·M·K{}; M={}, K={} → {} FLOPs (CUDA cores); bytes matrix {} + vector {}{} + "
                                     "out {}·{} = {}",
        bias ? " + M (bias)" : "", num(m), num(k), num(flops), num(tensorBytes(mat)), num(tensorBytes(vec)),
        bias ? " + bias " + num(tensorBytes(bias)) : std::string(), num(m), num(mat->type.bytes), num(bytes));
    return work("GEMM", flops, bytes, vectorPipe(mat->type.precision), mat->type.precision, formula);
}

} // namespace

OperatorModel modelGemm(std::string_view name, const ShapeArgs& args, int kind)
{
    switch (static_cast<GemmKind>(kind)) {
    case GemmKind::Mm:
        return gemm2d(name, args.tensor(0), args.tensor(1), nullptr);
    case GemmKind::Addmm:
        if (!args.tensor(0))
            return noModel(name, "the bias is not a tensor");
        return gemm2d(name, args.tensor(1), args.tensor(2), args.tensor(0));
    case GemmKind::Bmm:
        return gemmBatched(name, args.tensor(0), args.tensor(1), nullptr);
    case GemmKind::Baddbmm:
        if (!args.tensor(0))
            return noModel(name, "the bias is not a tensor");
        return gemmBatched(name, args.tensor(1), args.tensor(2), args.tensor(0));
    case GemmKind::Matmul:
        return gemmMatmul(name, args.tensor(0), args.tensor(1));
    case GemmKind::Linear:
        return gemmLinear(name, args);
    case GemmKind::ScaledMm:
        return gemmScaledMm(name, args);
    case GemmKind::Mv:
        return gemmMatrixVector(name, args.tensor(0), args.tensor(1), nullptr);
    case GemmKind::Addmv:
        if (!args.tensor(0))
            return noModel(name, "the bias is not a tensor");
        return gemmMatrixVector(name, args.tensor(1), args.tensor(2), args.tensor(0));
    }
    return noModel(name, "unknown GEMM kind");
}

} // namespace ridgeline::core::shapes
