// SPDX-License-Identifier: MIT
// Elementwise operators: one FLOP per output element (of a floating-point type; integer and bool
// operators do no FLOPs); the output is the broadcast of the operands (an in-place operator writes
// its first); every operand read once and the output written once, at their element sizes
// (TraceLens PerfModel UnaryElementwise, BinaryElementwise).
#include "shapemodelfamilies.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::core::shapes {

namespace {

int promotionCategory(Precision p)
{
    if (p == Precision::Bool)
        return 0;
    if (isFloating(p))
        return 2;
    if (isComplex(p))
        return 3;
    return 1;
}

// The category of a Scalar argument from its Concrete Inputs text; -1 when unknown.
int scalarCategory(const ShapeArg& a)
{
    const std::string_view t = a.concrete;
    if (t.empty())
        return -1;
    if (t == "True" || t == "False")
        return 0;
    if (concreteInt(&a))
        return 1;
    if (concreteNumber(&a))
        return 2;
    return -1;
}

// The wider of two types of one category.
ElementType widerType(const ElementType& a, const ElementType& b)
{
    if (isFloating(a.precision) && isFloating(b.precision) && a.bytes == 2 && b.bytes == 2
        && a.precision != b.precision)
        return { Precision::FP32, 4 }; // fp16 with bf16
    return b.bytes > a.bytes ? b : a;
}

std::string ewOperandList(const std::vector<const ShapeArg*>& operands)
{
    std::string out;
    for (const auto* t : operands) {
        if (!out.empty())
            out += " + ";
        out += fmt::format("{}·{}", num(t->elements()), num(t->type.bytes));
    }
    return out;
}

} // namespace

ElementType promoteTypes(const std::vector<const ShapeArg*>& operands)
{
    ElementType result;
    int category = -1;
    bool anyDimensioned = false;
    for (const auto* a : operands)
        anyDimensioned = anyDimensioned || (a->isTensor() && !a->dims.empty());
    // Tensors with dimensions first (or every tensor when none has dimensions).
    for (const auto* a : operands) {
        if (!a->isTensor() || (anyDimensioned && a->dims.empty()))
            continue;
        const int c = promotionCategory(a->type.precision);
        if (c > category) {
            category = c;
            result = a->type;
        } else if (c == category) {
            result = widerType(result, a->type);
        }
    }
    // 0-dim tensors and Scalars count only when of a higher category; a Python float gives the
    // default dtype (fp32), a Python int int64.
    for (const auto* a : operands) {
        if (a->isTensor() && !(anyDimensioned && a->dims.empty()))
            continue;
        const int c = a->isTensor() ? promotionCategory(a->type.precision) : scalarCategory(*a);
        if (c <= category)
            continue;
        category = c;
        if (c == 2)
            result
                = a->isTensor() && a->type.precision != Precision::FP64 ? a->type : ElementType { Precision::FP32, 4 };
        else if (c == 1)
            result = a->isTensor() ? a->type : ElementType { Precision::Int64, 8 };
        else
            result = a->isTensor() ? a->type : ElementType { Precision::Bool, 1 };
    }
    return result;
}

OperatorModel modelElementwise(std::string_view name, const ShapeArgs& args, int kind)
{
    const auto ewKind = static_cast<ElementwiseKind>(kind);
    std::size_t arity = 1;
    switch (ewKind) {
    case ElementwiseKind::Binary:
    case ElementwiseKind::Compare:
        arity = 2;
        break;
    case ElementwiseKind::Ternary:
    case ElementwiseKind::Where:
        arity = 3;
        break;
    default:
        break;
    }
    std::vector<const ShapeArg*> operands; // the tensors
    std::vector<const ShapeArg*> typed; // the arguments that take part in the result's type
    for (std::size_t i = 0; i < std::min(arity, args.size()); ++i) {
        const ShapeArg* a = args.at(i);
        if (a->list)
            return noModel(name, "an operand is a TensorList");
        if (!a->isTensor() && a->type.precision == Precision::Unknown)
            return noModel(name, fmt::format("unknown element type \"{}\"", a->typeName));
        if (a->isTensor())
            operands.push_back(a);
        if (!(ewKind == ElementwiseKind::Where && i == 0) && (a->isTensor() || a->typeName == "Scalar"))
            typed.push_back(a);
    }
    if (operands.empty())
        return noModel(name, "no operand is a tensor");
    std::vector<const Dims*> shapes;
    for (const auto* t : operands)
        shapes.push_back(&t->dims);
    const auto broadcast = broadcastShapes(shapes);
    if (!broadcast)
        return noModel(name, "the operands' shapes do not broadcast");

    const bool inPlace = name.size() > 1 && name.back() == '_' && args.tensor(0) != nullptr;
    const ElementType compute = promoteTypes(typed);
    ElementType outType = compute;
    if (ewKind == ElementwiseKind::Compare)
        outType = { Precision::Bool, 1 };
    Dims outDims = *broadcast;
    if (inPlace) {
        outDims = args.tensor(0)->dims;
        outType = args.tensor(0)->type;
    }
    const double outElems = product(outDims);

    double readBytes = 0;
    for (const auto* t : operands)
        readBytes += tensorBytes(t);
    double extraBytes = 0; // dropout's mask
    bool arithmetic = isFloating(compute.precision);
    std::string note;
    if (ewKind == ElementwiseKind::Dropout || ewKind == ElementwiseKind::NativeDropout) {
        const auto train = concreteBool(args.at(2));
        if (ewKind == ElementwiseKind::Dropout) {
            if (!train)
                return noModel(name, "train is not recorded (no Concrete Inputs)");
            if (!*train)
                return noModel(name, "the identity when train=False (no kernel)");
        }
        const bool training = train.value_or(true);
        extraBytes = outElems; // the bool mask
        arithmetic = arithmetic && training;
        note = fmt::format(" + mask {}·1", num(outElems));
    }
    const double flops = arithmetic ? outElems : 0;
    const double bytes = readBytes + outElems * outType.bytes + extraBytes;
    std::string flopsText = arithmetic ? "one FLOP per output element"
                                       : fmt::format("no FLOPs ({} operands)", precisionName(compute.precision));
    const auto formula = fmt::format("{}; output {} = {} elements{} → {} FLOPs; bytes read {} + write {}·{}{} = {}",
        flopsText, dimsText(outDims), num(outElems), inPlace ? " (in place)" : "", num(flops), ewOperandList(operands),
        num(outElems), num(outType.bytes), note, num(bytes));
    return work("elementwise", flops, bytes, vectorPipe(compute.precision), compute.precision, formula);
}

} // namespace ridgeline::core::shapes
