// SPDX-License-Identifier: MIT
// Norms, softmax and reductions.
// - Norms as TraceLens PerfModel Normalization counts them: with E elements and C channels (the
//   normalized size of a layer norm, the channels of a batch or group norm), the forward does
//   3·C + 3·E (statistics, when training) + 3·C + 2·E FLOPs and moves E read + E written plus
//   W·C parameters (mean and variance; weight; bias; 2 more when training). RMSNorm and the
//   backwards follow TraceLens's RMSNorm, RMSNormBwd and Normalization.flops_func_bwd.
// - Softmax: 3 FLOPs per element (exp, sum, divide; TraceLens PerfModel Softmax), input read and
//   output written; the backward 4 per element (product, sum, subtract, multiply), reading the
//   gradient and the output.
// - Reductions: one FLOP per input element; the input read and the result written (TraceLens
//   PerfModel Reduce).
#include "shapemodelfamilies.h"

#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core::shapes {

namespace {

struct NormParams {
    double elements = 0; // E
    double channels = 0; // C
    bool affine = false;
    bool bias = false;
    bool training = true;
    double bpeIn = 0;
    double bpeOut = 0;
};

OperatorModel normForward(std::string_view name, const NormParams& p, Precision precision, const std::string& what)
{
    if (!(p.channels > 0))
        return noModel(name, "no channels");
    const double e = p.elements;
    const double c = p.channels;
    const double flops = 3 * c + (p.training ? 3 * e : 0) + 3 * c + 2 * e;
    const double weights = 2 + (p.affine ? 1 : 0) + (p.affine && p.bias ? 1 : 0) + (p.training ? 2 : 0);
    const double bytes = e * p.bpeIn + e * p.bpeOut + weights * c * p.bpeIn;
    const auto formula = fmt::format("{}: 3·C{} + 3·C + 2·E; E={}, C={} → {} FLOPs; bytes E·{} + E·{} + {}·C·{} "
                                     "(mean, variance{}{}{}) = {} (TraceLens Normalization)",
        what, p.training ? " + 3·E" : "", num(e), num(c), num(flops), num(p.bpeIn), num(p.bpeOut), num(weights),
        num(p.bpeIn), p.affine ? ", weight" : "", p.affine && p.bias ? ", bias" : "",
        p.training ? ", the running statistics" : "", num(bytes));
    return work("norm", flops, bytes, vectorPipe(precision), precision, formula);
}

OperatorModel normBackward(
    std::string_view name, const NormParams& p, bool gradInput, Precision precision, const std::string& what)
{
    if (!(p.channels > 0))
        return noModel(name, "no channels");
    const double e = p.elements;
    const double c = p.channels;
    const double perChannel = e / c;
    double flopsPerChannel = (p.training ? 0 : 3) + 4 * perChannel;
    if (gradInput)
        flopsPerChannel += p.training ? 5 * perChannel : 0;
    else
        flopsPerChannel += 2 * perChannel;
    const double flops = c * flopsPerChannel;
    double bytes = e * p.bpeOut + e * p.bpeIn * (gradInput && p.training ? 2 : 1);
    if (p.training)
        bytes += c * p.bpeIn;
    if (p.affine)
        bytes += c * p.bpeIn + (p.training ? c * p.bpeIn * (p.bias ? 2 : 1) : 0);
    const auto formula = fmt::format("{}: C·({}4·E/C{}); E={}, C={} → {} FLOPs; bytes grad_out, input{} and "
                                     "parameters = {} (TraceLens Normalization backward)",
        what, p.training ? "" : "3 + ", gradInput ? (p.training ? " + 5·E/C" : "") : " + 2·E/C", num(e), num(c),
        num(flops), gradInput && p.training ? ", grad_input" : "", num(bytes));
    return work("norm", flops, bytes, vectorPipe(precision), precision, formula);
}

std::optional<double> normalizedSize(const ShapeArg* shape, const ShapeArg* weight)
{
    if (const auto list = concreteIntList(shape); list && !list->empty()) {
        double c = 1;
        for (const auto v : *list) {
            if (v < 0)
                return std::nullopt;
            c *= static_cast<double>(v);
        }
        return c;
    }
    if (weight)
        return weight->elements();
    return std::nullopt;
}

// Output mask "[True, True, True]"; nullopt when not recorded.
std::optional<std::vector<long long>> normOutputMask(const ShapeArg* arg, std::size_t n)
{
    const auto m = concreteIntList(arg);
    if (!m || m->size() != n)
        return std::nullopt;
    return m;
}

OperatorModel rmsNormModel(std::string_view name, const ShapeArgs& args, bool backward)
{
    const std::size_t in = backward ? 1 : 0;
    const ShapeArg* x = args.tensor(in);
    if (!x)
        return noModel(name, "the input is not a tensor");
    const ShapeArg* weight = args.tensor(backward ? 4 : 2);
    const auto c = normalizedSize(args.at(backward ? 2 : 1), weight);
    if (!c || *c <= 0)
        return noModel(name, "normalized_shape is not recorded");
    const double e = x->elements();
    const double bpe = x->type.bytes;
    const bool affine = weight != nullptr;
    const auto precision = x->type.precision;
    if (!backward) {
        const double flops = e / *c * (2 * *c + 2) + e * (affine ? 2 : 1);
        const double bytes = 2 * e * bpe + (affine ? *c * bpe : 0);
        const auto formula = fmt::format("RMSNorm: (E/C)·(2·C + 2) + {}·E; E={}, C={} → {} FLOPs; bytes 2·E·{}{} = {} "
                                         "(TraceLens RMSNorm)",
            affine ? 2 : 1, num(e), num(*c), num(flops), num(bpe), affine ? " + C·" + num(bpe) : std::string(),
            num(bytes));
        return work("norm", flops, bytes, vectorPipe(precision), precision, formula);
    }
    const auto mask = normOutputMask(args.at(5), 2).value_or(std::vector<long long> { 1, 1 });
    double flops = (affine ? e : 0) + e;
    if (mask[0])
        flops += 6 * e;
    if (mask[1] && affine)
        flops += e + (e / *c > 1 ? e : 0);
    const double bytes = 3 * e * bpe + (affine ? 2 * *c * bpe : 0);
    const auto formula
        = fmt::format("RMSNorm backward, output_mask [{}, {}]; E={}, C={} → {} FLOPs; bytes 3·E·{}{} = {} "
                      "(TraceLens RMSNormBwd)",
            mask[0] ? "True" : "False", mask[1] ? "True" : "False", num(e), num(*c), num(flops), num(bpe),
            affine ? " + 2·C·" + num(bpe) : std::string(), num(bytes));
    return work("norm", flops, bytes, vectorPipe(precision), precision, formula);
}

} // namespace

OperatorModel modelNorm(std::string_view name, const ShapeArgs& args, int kind)
{
    const auto normKind = static_cast<NormKind>(kind);
    if (normKind == NormKind::RmsNorm || normKind == NormKind::RmsNormBackward)
        return rmsNormModel(name, args, normKind == NormKind::RmsNormBackward);
    std::size_t in = 0;
    switch (normKind) {
    case NormKind::LayerNormBackward:
    case NormKind::BatchNormBackward:
    case NormKind::GroupNormBackward:
        in = 1;
        break;
    default:
        break;
    }
    const ShapeArg* x = args.tensor(in);
    if (!x)
        return noModel(name, "the input is not a tensor");
    NormParams p;
    p.elements = x->elements();
    p.bpeIn = x->type.bytes;
    p.bpeOut = x->type.bytes;
    const auto precision = x->type.precision;
    const bool needsChannelDim = normKind != NormKind::LayerNorm && normKind != NormKind::LayerNormBackward;
    if (needsChannelDim && x->dims.size() < 2)
        return noModel(name, "the input has no channel dimension");

    switch (normKind) {
    case NormKind::LayerNorm: { // (input, normalized_shape, weight, bias, eps[, cudnn_enable])
        const auto c = normalizedSize(args.at(1), args.tensor(2));
        if (!c || *c <= 0)
            return noModel(name, "normalized_shape is not recorded");
        p.channels = *c;
        p.affine = args.tensor(2) != nullptr;
        p.bias = args.tensor(3) != nullptr;
        return normForward(name, p, precision, "LayerNorm");
    }
    case NormKind::LayerNormBackward: { // (grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
        const auto c = normalizedSize(args.at(2), args.tensor(5));
        if (!c || *c <= 0)
            return noModel(name, "normalized_shape is not recorded");
        p.channels = *c;
        const auto mask = normOutputMask(args.at(7), 3);
        p.affine = mask ? (*mask)[1] != 0 : args.tensor(5) != nullptr;
        p.bias = mask ? (*mask)[2] != 0 : args.tensor(6) != nullptr;
        return normBackward(name, p, mask ? (*mask)[0] != 0 : true, precision, "LayerNorm backward");
    }
    case NormKind::BatchNorm: { // (input, weight, bias, running_mean, running_var, training, momentum, eps, ...)
        p.channels = x->dims[1];
        p.affine = args.tensor(1) != nullptr;
        p.bias = args.tensor(2) != nullptr;
        const auto training = concreteBool(args.at(5));
        if (!training)
            return noModel(name, "training is not recorded (no Concrete Inputs)");
        p.training = *training;
        return normForward(name, p, precision, "BatchNorm");
    }
    case NormKind::BatchNormBackward: { // (grad_out, input, weight, running_mean, running_var, save_mean,
                                        //  save_invstd, train, eps, output_mask)
        p.channels = x->dims[1];
        p.affine = args.tensor(2) != nullptr;
        p.bias = true;
        const auto training = concreteBool(args.at(7));
        if (!training)
            return noModel(name, "train is not recorded (no Concrete Inputs)");
        p.training = *training;
        const auto mask = normOutputMask(args.at(9), 3);
        return normBackward(name, p, mask ? (*mask)[0] != 0 : true, precision, "BatchNorm backward");
    }
    case NormKind::CudnnBatchNormBackward: { // (input, grad_output, weight, running_mean, running_var, save_mean,
                                             //  save_var, epsilon, reserveSpace): training only
        p.channels = x->dims[1];
        p.affine = args.tensor(2) != nullptr;
        p.bias = true;
        p.training = true;
        return normBackward(name, p, true, precision, "BatchNorm backward (cuDNN)");
    }
    case NormKind::GroupNorm: // (input, num_groups, weight, bias, eps, cudnn_enabled)
        p.channels = x->dims[1];
        p.affine = args.tensor(2) != nullptr;
        p.bias = args.tensor(3) != nullptr;
        return normForward(name, p, precision, "GroupNorm");
    case NormKind::NativeGroupNorm: // (input, weight, bias, N, C, HxW, group, eps)
        p.channels = x->dims[1];
        p.affine = args.tensor(1) != nullptr;
        p.bias = args.tensor(2) != nullptr;
        return normForward(name, p, precision, "GroupNorm");
    case NormKind::GroupNormBackward: { // (grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask)
        const auto groups = concreteInt(args.at(8));
        if (!groups || *groups < 1)
            return noModel(name, "group is not recorded (no Concrete Inputs)");
        p.channels = x->dims[1] / static_cast<double>(*groups);
        p.affine = args.tensor(4) != nullptr;
        p.bias = true;
        const auto mask = normOutputMask(args.at(9), 3);
        return normBackward(name, p, mask ? (*mask)[0] != 0 : true, precision, "GroupNorm backward");
    }
    default:
        break;
    }
    return noModel(name, "unknown norm kind");
}

OperatorModel modelSoftmax(std::string_view name, const ShapeArgs& args, int kind)
{
    const auto softmaxKind = static_cast<SoftmaxKind>(kind);
    if (softmaxKind == SoftmaxKind::Backward) { // (grad_output, output, dim, input_dtype)
        const ShapeArg* grad = args.tensor(0);
        const ShapeArg* out = args.tensor(1);
        if (!grad || !out)
            return noModel(name, "grad_output or output is not a tensor");
        const double e = grad->elements();
        double outBytes = grad->type.bytes;
        if (const auto st = concreteInt(args.at(3)))
            if (const auto t = elementTypeFromScalarType(*st))
                outBytes = t->bytes;
        const double flops = isFloating(grad->type.precision) ? 4 * e : 0;
        const double bytes = tensorBytes(grad) + tensorBytes(out) + e * outBytes;
        const auto formula = fmt::format("4 FLOPs per element (product, sum, subtract, multiply); E={} → {} FLOPs; "
                                         "bytes grad_output {} + output {} + grad_input {}·{} = {}",
            num(e), num(flops), num(tensorBytes(grad)), num(tensorBytes(out)), num(e), num(outBytes), num(bytes));
        return work("softmax", flops, bytes, vectorPipe(grad->type.precision), grad->type.precision, formula);
    }
    const ShapeArg* x = args.tensor(0);
    if (!x)
        return noModel(name, "the input is not a tensor");
    const double e = x->elements();
    double outBytes = x->type.bytes;
    if (softmaxKind == SoftmaxKind::Softmax) { // half_to_float: a half input gives a float output
        if (concreteBool(args.at(2)).value_or(false))
            outBytes = 4;
    } else if (const auto st = concreteInt(args.at(2))) {
        if (const auto t = elementTypeFromScalarType(*st))
            outBytes = t->bytes;
    }
    const double flops = isFloating(x->type.precision) ? 3 * e : 0;
    const double bytes = tensorBytes(x) + e * outBytes;
    const auto formula = fmt::format("3 FLOPs per element (exp, sum, divide; TraceLens Softmax); E={} → {} FLOPs; "
                                     "bytes input {} + output {}·{} = {}",
        num(e), num(flops), num(tensorBytes(x)), num(e), num(outBytes), num(bytes));
    return work("softmax", flops, bytes, vectorPipe(x->type.precision), x->type.precision, formula);
}

OperatorModel modelReduction(std::string_view name, const ShapeArgs& args, int kind)
{
    const auto reduceKind = static_cast<ReduceKind>(kind);
    const ShapeArg* x = args.tensor(0);
    if (!x)
        return noModel(name, "the input is not a tensor");
    // max(self, other) and min(self, other) are elementwise.
    if (reduceKind == ReduceKind::MaxMin && args.size() == 2 && args.tensor(1))
        return modelElementwise(name, args, static_cast<int>(ElementwiseKind::Binary));

    int dimIndex = -1; // -1: every dimension is reduced
    int dtypeIndex = -1;
    bool indices = false; // max.dim / min.dim return the indices too
    ElementType outType = x->type;
    switch (reduceKind) {
    case ReduceKind::SumLike:
        if (args.size() >= 3)
            dimIndex = 1, dtypeIndex = 3;
        else if (args.size() == 2)
            dtypeIndex = 1;
        if (!isFloating(x->type.precision) && !isComplex(x->type.precision))
            outType = { Precision::Int64, 8 }; // integral sums accumulate in int64
        break;
    case ReduceKind::DimKeep:
        if (args.size() >= 2)
            dimIndex = 1;
        break;
    case ReduceKind::MaxMin:
        if (args.size() >= 2)
            dimIndex = 1, indices = true;
        break;
    case ReduceKind::ArgMaxMin:
        if (args.size() >= 2)
            dimIndex = 1;
        outType = { Precision::Int64, 8 };
        break;
    case ReduceKind::Norm:
        if (args.size() >= 4)
            dimIndex = 2;
        if (args.size() >= 5)
            dtypeIndex = 4;
        else if (args.size() == 3)
            dtypeIndex = 2;
        break;
    case ReduceKind::VectorNorm:
        if (args.size() >= 3)
            dimIndex = 2;
        if (args.size() >= 5)
            dtypeIndex = 4;
        break;
    case ReduceKind::Cumulative:
        dtypeIndex = 2;
        break;
    }
    if (name == "aten::all" || name == "aten::any")
        outType = { Precision::Bool, 1 };
    if (dtypeIndex >= 0)
        if (const auto st = concreteInt(args.at(static_cast<std::size_t>(dtypeIndex))))
            if (const auto t = elementTypeFromScalarType(*st))
                outType = *t;

    const double in = x->elements();
    double out = 1;
    std::string dimsNote = "all dimensions";
    if (reduceKind == ReduceKind::Cumulative) {
        out = in;
        dimsNote = "a running total";
    } else if (dimIndex >= 0) {
        const ShapeArg* dimArg = args.at(static_cast<std::size_t>(dimIndex));
        if (!concreteEmpty(dimArg)) {
            const auto dims = concreteIntList(dimArg);
            if (!dims)
                return noModel(name, "the reduced dimensions are not a list of integers");
            if (!dims->empty()) {
                const auto rank = static_cast<long long>(x->dims.size());
                std::vector<bool> reduced(x->dims.size(), false);
                for (auto d : *dims) {
                    if (d < 0)
                        d += rank;
                    if (rank == 0 && (d == 0 || d == -1))
                        continue;
                    if (d < 0 || d >= rank)
                        return noModel(name, "a reduced dimension is out of range");
                    reduced[static_cast<std::size_t>(d)] = true;
                }
                for (std::size_t i = 0; i < x->dims.size(); ++i)
                    if (!reduced[i])
                        out *= x->dims[i];
                dimsNote = "dim " + dimArg->concrete;
            }
        } else if (!args.hasConcrete) {
            return noModel(name, "the reduced dimensions are not recorded (no Concrete Inputs)");
        }
    }
    const bool arithmetic = isFloating(x->type.precision);
    const double flops = arithmetic ? in : 0;
    const double bytes = tensorBytes(x) + out * outType.bytes + (indices ? out * 8 : 0);
    const auto formula = fmt::format("{}; input {} = {} elements, {} → {} outputs; {} FLOPs; bytes input {} + output "
                                     "{}·{}{} = {} (TraceLens Reduce)",
        arithmetic ? "one FLOP per input element" : "no FLOPs (integer or bool input)", dimsText(x->dims), num(in),
        dimsNote, num(out), num(flops), num(tensorBytes(x)), num(out), num(outType.bytes),
        indices ? " + indices " + num(out) + "·8" : std::string(), num(bytes));
    return work("reduction", flops, bytes, vectorPipe(x->type.precision), x->type.precision, formula);
}

} // namespace ridgeline::core::shapes
