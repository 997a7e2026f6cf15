// SPDX-License-Identifier: MIT
// Convolution: 2·(weight elements ÷ output channels) FLOPs per output element (per input element
// for a transposed convolution), plus one per output element for a bias; input, weight and bias
// read and the output written once (TraceLens PerfModel CONV, after torch/utils/flop_counter.py).
// The backward computes the gradients its output_mask asks for: each of the input's and the
// weight's costs a forward convolution, the bias's one FLOP per output element.
#include "shapemodelfamilies.h"

#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core::shapes {

namespace {

struct ConvSpec {
    std::size_t input = 0;
    int bias = -1; // the bias tensor, or -1
    std::size_t stride = 0;
    std::size_t padding = 0;
    std::size_t dilation = 0;
    int transposed = -1; // the transposed flag, or -1 (fixed by the operator)
    bool alwaysTransposed = false;
    int outputPadding = -1;
    int groups = -1;
    int allowTf32 = -1;
};

ConvSpec convSpec(ConvKind kind, std::size_t arity)
{
    switch (kind) {
    case ConvKind::Convolution: // (input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
                                //  [, benchmark, deterministic, cudnn_enabled, allow_tf32])
        return { 0, 2, 3, 4, 5, 6, false, 7, 8, arity >= 13 ? 12 : -1 };
    case ConvKind::ConvNd: // (input, weight, bias, stride, padding, dilation, groups)
        return { 0, 2, 3, 4, 5, -1, false, -1, 6, -1 };
    case ConvKind::ConvTransposeNd: // (input, weight, bias, stride, padding, output_padding, groups, dilation)
        return { 0, 2, 3, 4, 7, -1, true, 5, 6, -1 };
    case ConvKind::Cudnn: // (input, weight, padding, stride, dilation, groups, benchmark, deterministic, allow_tf32)
        return { 0, -1, 3, 2, 4, -1, false, -1, 5, 8 };
    case ConvKind::CudnnTranspose: // (input, weight, padding, output_padding, stride, dilation, groups, benchmark,
                                   //  deterministic, allow_tf32)
        return { 0, -1, 4, 2, 5, -1, true, 3, 6, 9 };
    case ConvKind::Backward: // (grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
                             //  output_padding, groups, output_mask)
        return { 1, -1, 4, 5, 6, 7, false, 8, 9, -1 };
    }
    return {};
}

// A per-dimension list (stride, padding, ...): "[2, 2]", or one value for every dimension.
std::optional<std::vector<double>> convList(const ShapeArg* arg, std::size_t n, double fallback)
{
    if (concreteEmpty(arg))
        return std::vector<double>(n, fallback);
    const auto list = concreteIntList(arg);
    if (!list || (list->size() != 1 && list->size() != n))
        return std::nullopt;
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(static_cast<double>((*list)[list->size() == 1 ? 0 : i]));
    return out;
}

} // namespace

OperatorModel modelConvolution(std::string_view name, const ShapeArgs& args, int kind)
{
    const auto convKind = static_cast<ConvKind>(kind);
    const ConvSpec spec = convSpec(convKind, args.size());
    const ShapeArg* x = args.tensor(spec.input);
    const ShapeArg* w = args.tensor(spec.input + 1);
    if (!x || !w)
        return noModel(name, "the input or weight is not a tensor");
    if (x->dims.size() < 3 || x->dims.size() > 5 || w->dims.size() != x->dims.size())
        return noModel(name, "the input and weight are not 1-, 2- or 3-D convolution shapes");
    if (!args.hasConcrete)
        return noModel(name, "stride and padding are not recorded (no Concrete Inputs)");
    const std::size_t spatial = x->dims.size() - 2;

    bool transposed = spec.alwaysTransposed;
    if (spec.transposed >= 0) {
        const auto t = concreteBool(args.at(static_cast<std::size_t>(spec.transposed)));
        if (!t)
            return noModel(name, "the transposed flag is not recorded");
        transposed = *t;
    }
    const auto stride = convList(args.at(spec.stride), spatial, 1);
    const auto dilation = convList(args.at(spec.dilation), spatial, 1);
    const auto outputPadding = spec.outputPadding >= 0
        ? convList(args.at(static_cast<std::size_t>(spec.outputPadding)), spatial, 0)
        : std::optional<std::vector<double>>(std::vector<double>(spatial, 0));
    double groups = 1;
    if (spec.groups >= 0 && !concreteEmpty(args.at(static_cast<std::size_t>(spec.groups)))) {
        const auto g = concreteInt(args.at(static_cast<std::size_t>(spec.groups)));
        if (!g || *g < 1)
            return noModel(name, "groups is not a positive integer");
        groups = static_cast<double>(*g);
    }
    // conv2d(..., padding="same"|"valid").
    std::optional<std::vector<double>> padding;
    const ShapeArg* paddingArg = args.at(spec.padding);
    bool same = false;
    if (paddingArg && (paddingArg->concrete == "same" || paddingArg->concrete == "valid")) {
        same = paddingArg->concrete == "same";
        padding = std::vector<double>(spatial, 0);
    } else {
        padding = convList(paddingArg, spatial, 0);
    }
    if (!stride || !padding || !dilation || !outputPadding)
        return noModel(name, "stride, padding or dilation is not a list of integers");

    // The output's shape.
    Dims out { x->dims[0], transposed ? w->dims[1] * groups : w->dims[0] };
    for (std::size_t i = 0; i < spatial; ++i) {
        const double in = x->dims[2 + i];
        const double kk = w->dims[2 + i];
        const double s = (*stride)[i];
        const double p = (*padding)[i];
        const double d = (*dilation)[i];
        if (s < 1 || d < 1 || p < 0)
            return noModel(name, "stride, padding or dilation is out of range");
        double o = 0;
        if (same)
            o = in;
        else if (transposed)
            o = (in - 1) * s - 2 * p + d * (kk - 1) + (*outputPadding)[i] + 1;
        else
            o = std::floor((in + 2 * p - d * (kk - 1) - 1) / s) + 1;
        if (o < 0)
            return noModel(name, "the output would have a negative size");
        out.push_back(o);
    }
    const double outElems = product(out);
    const double perElement = 2 * product(Dims(w->dims.begin() + 1, w->dims.end()));
    const double conv = (transposed ? x->elements() : outElems) * perElement;
    const double bpe = x->type.bytes;

    // The pipe: fp32 convolutions run on TF32 tensor cores when cuDNN may use them (the
    // allow_tf32 argument where recorded, else PyTorch's default torch.backends.cudnn.allow_tf32 = True).
    auto pipe = matrixPipe(x->type.precision);
    std::string tf32Note;
    if (x->type.precision == Precision::FP32) {
        bool tf32 = true;
        if (spec.allowTf32 >= 0)
            tf32 = concreteBool(args.at(static_cast<std::size_t>(spec.allowTf32))).value_or(true);
        if (tf32) {
            pipe = Resource::TF32Tensor;
            tf32Note = " (fp32 on TF32 tensor cores: cuDNN's allow_tf32)";
        } else {
            tf32Note = " (fp32 on the FP32 pipe: allow_tf32=False)";
        }
    }
    const std::string shapeText
        = fmt::format("input {}, weight {}, output {}{}{}", dimsText(x->dims), dimsText(w->dims), dimsText(out),
            groups != 1 ? ", groups " + num(groups) : std::string(), transposed ? ", transposed" : "");

    if (convKind != ConvKind::Backward) {
        const ShapeArg* bias = spec.bias >= 0 ? args.tensor(static_cast<std::size_t>(spec.bias)) : nullptr;
        const double flops = conv + (bias ? outElems : 0);
        const double bytes = tensorBytes(x) + tensorBytes(w) + tensorBytes(bias) + outElems * bpe;
        const auto formula = fmt::format(
            "{}·2·(weight elements ÷ {}){}; {} → {} FLOPs; bytes input {} + weight {}{} + output {}·{} = {}{}",
            transposed ? "input elements" : "output elements", transposed ? "input channels" : "output channels",
            bias ? " + output elements (bias)" : "", shapeText, num(flops), num(tensorBytes(x)), num(tensorBytes(w)),
            bias ? " + bias " + num(tensorBytes(bias)) : std::string(), num(outElems), num(bpe), num(bytes), tf32Note);
        return work("convolution", flops, bytes, pipe, x->type.precision, formula);
    }

    // convolution_backward: grad_output has the output's shape; output_mask picks the gradients.
    const ShapeArg* gradOut = args.tensor(0);
    if (!gradOut || product(gradOut->dims) != outElems)
        return noModel(name, "grad_output does not have the output's shape");
    std::vector<long long> mask { 1, 1, 0 };
    if (const auto m = concreteIntList(args.at(10)); m && m->size() == 3)
        mask = *m;
    else if (!concreteEmpty(args.at(3)))
        mask[2] = 1; // bias_sizes given: the bias gradient is computed
    const double flops = (mask[0] ? conv : 0) + (mask[1] ? conv : 0) + (mask[2] ? outElems : 0);
    const double xBytes = tensorBytes(x);
    const double wBytes = tensorBytes(w);
    const double gBytes = tensorBytes(gradOut);
    const double bytes = (mask[0] ? gBytes + wBytes + xBytes : 0) + (mask[1] ? gBytes + xBytes + wBytes : 0)
        + (mask[2] ? gBytes + out[1] * bpe : 0);
    const auto formula = fmt::format("output_mask [{}, {}, {}]: grad input and grad weight cost a forward convolution "
                                     "each ({} FLOPs){}; {} → {} FLOPs; bytes: each of grad input and grad weight "
                                     "reads and writes grad_output {}, input {}, weight {}{} = {}{}",
        mask[0] ? "True" : "False", mask[1] ? "True" : "False", mask[2] ? "True" : "False", num(conv),
        mask[2] ? ", grad bias one per output element" : "", shapeText, num(flops), num(gBytes), num(xBytes),
        num(wBytes), mask[2] ? "; grad bias reads grad_output and writes " + num(out[1] * bpe) : std::string(),
        num(bytes), tf32Note);
    return work("convolution", flops, bytes, pipe, x->type.precision, formula);
}

} // namespace ridgeline::core::shapes
