// SPDX-License-Identifier: MIT
// Operators that move data: embedding and indexing (the rows they gather are read, not the whole
// table), copies, casts, cat and stack, fills; and the foreach and fused optimizer operators,
// which are elementwise over lists of tensors. Bytes: every input read once and the output
// written once at their element sizes; FLOPs only where they add or update (scatter_add, the
// foreach arithmetic, the optimizer's update).
#include "shapemodelfamilies.h"

#include <algorithm>
#include <fmt/format.h>

namespace ridgeline::core::shapes {

namespace {

OperatorModel dataMoved(std::string_view /*name*/, double bytes, Precision precision, const std::string& formula)
{
    return work(
        "data movement", 0, bytes, std::nullopt, precision, fmt::format("bytes only: {} = {}", formula, num(bytes)));
}

// A dim argument, made non-negative; nullopt when not recorded or out of range.
std::optional<std::size_t> dataDim(const ShapeArg* arg, std::size_t rank)
{
    const auto d = concreteInt(arg);
    if (!d)
        return std::nullopt;
    const long long r = static_cast<long long>(rank);
    const long long v = *d < 0 ? *d + r : *d;
    if (v < 0 || v >= r)
        return std::nullopt;
    return static_cast<std::size_t>(v);
}

// The element types of a list's tensors (one for all, or one each).
ElementType dataItemType(const ShapeArg& list, std::size_t i)
{
    return list.itemTypes.empty() ? list.type : list.itemTypes[i];
}

struct DataListSize {
    double elements = 0;
    double bytes = 0;
    double tensors = 0;
    Precision precision = Precision::None;
};

std::optional<DataListSize> dataListSize(const ShapeArg* list)
{
    if (!list || !list->isTypedList())
        return std::nullopt;
    DataListSize s;
    for (std::size_t i = 0; i < list->items.size(); ++i) {
        const double n = product(list->items[i]);
        const auto t = dataItemType(*list, i);
        s.elements += n;
        s.bytes += n * t.bytes;
        s.tensors += 1;
        if (s.precision == Precision::None)
            s.precision = t.precision;
    }
    return s;
}

constexpr std::string_view kUntypedList
    = "the element type of its TensorList is not recorded (a caller may pass it in Input type)";

OperatorModel dataForeach(std::string_view name, const ShapeArgs& args, DataKind kind)
{
    const ShapeArg* first = args.at(0);
    if (!first || !first->list)
        return noModel(name, "the first argument is not a TensorList");
    if (first->list && !first->listDimsKnown)
        return noModel(name, "the dims of its TensorList are not recorded");
    const auto self = dataListSize(first);
    if (!self)
        return noModel(name, kUntypedList);
    double read = 0;
    std::string readText;
    const std::size_t from = kind == DataKind::ForeachCopy ? 1 : 0; // copy_ and zero_ do not read self
    for (std::size_t i = from; i < args.size(); ++i) {
        const ShapeArg* a = args.at(i);
        if (a->list) {
            const auto s = dataListSize(a);
            if (!s)
                return noModel(name, kUntypedList);
            read += s->bytes;
        } else {
            read += tensorBytes(args.tensor(i));
        }
    }
    const bool inPlace = name.back() == '_';
    const double perTensorOut = kind == DataKind::ForeachNorm ? 1 : 0;
    const double written
        = kind == DataKind::ForeachNorm ? self->tensors * (self->bytes / std::max(self->elements, 1.0)) : self->bytes;
    const double bytes = read + written;
    const bool arithmetic = kind != DataKind::ForeachCopy && isFloating(self->precision);
    const double flops = arithmetic ? self->elements : 0;
    const auto formula = fmt::format("{}; {} tensors of {} elements in all → {} FLOPs; bytes read {} + write {}{} = {}",
        arithmetic ? "one FLOP per element" : "no FLOPs", num(self->tensors), num(self->elements), num(flops),
        num(read), num(written), perTensorOut > 0 ? " (one result per tensor)" : (inPlace ? " (in place)" : ""),
        num(bytes));
    return work(kind == DataKind::ForeachCopy ? "data movement" : "foreach", flops, bytes,
        arithmetic ? vectorPipe(self->precision) : std::nullopt, self->precision, formula);
}

// _fused_adam_(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr, beta1, beta2,
// weight_decay, eps, amsgrad, maximize, grad_scale, found_inf); _fused_adamw_ alike.
OperatorModel dataFusedAdam(std::string_view name, const ShapeArgs& args)
{
    if (args.size() < 12)
        return noModel(name, "fewer arguments than Adam's");
    const auto params = dataListSize(args.at(0));
    const auto grads = dataListSize(args.at(1));
    const auto m = dataListSize(args.at(2));
    const auto v = dataListSize(args.at(3));
    if (!args.at(0)->listDimsKnown)
        return noModel(name, "the dims of its TensorLists are not recorded");
    if (!params || !grads || !m || !v)
        return noModel(name, kUntypedList);
    const auto amsgrad = concreteBool(args.at(11));
    const auto weightDecay = concreteNumber(args.at(9));
    if (!amsgrad || !weightDecay)
        return noModel(name, "amsgrad or weight_decay is not recorded (no Concrete Inputs)");
    std::optional<DataListSize> maxV;
    if (*amsgrad) {
        maxV = dataListSize(args.at(4));
        if (!maxV)
            return noModel(name, kUntypedList);
    }
    const bool adamw = name.find("adamw") != std::string_view::npos;
    // Per element: m = β1·m + (1−β1)·g (3), v = β2·v + (1−β2)·g² (4), denominator √v/√(1−β2ᵗ) + ε (3),
    // p −= lr/(1−β1ᵗ)·m/denominator (3); weight decay p·(1 − lr·λ) (AdamW, 1) or g + λ·p (Adam, 2);
    // amsgrad a max (1); a grad scale a divide (1).
    double perElement = 13;
    if (*weightDecay != 0)
        perElement += adamw ? 1 : 2;
    if (*amsgrad)
        perElement += 1;
    const ShapeArg* gradScale = args.tensor(13);
    if (gradScale)
        perElement += 1;
    const double steps = params->tensors * 4; // state_steps: one float32 each (PyTorch's fused Adam requires it)
    const double read = params->bytes + grads->bytes + m->bytes + v->bytes + (maxV ? maxV->bytes : 0) + steps
        + tensorBytes(args.tensor(6)) + tensorBytes(gradScale) + tensorBytes(args.tensor(14));
    const double written = params->bytes + m->bytes + v->bytes + (maxV ? maxV->bytes : 0);
    const double flops = isFloating(params->precision) ? perElement * params->elements : 0;
    const double bytes = read + written;
    const auto formula
        = fmt::format("{} FLOPs per parameter ({}: moments 7, step 6{}{}{}); {} parameters in {} tensors "
                      "→ {} FLOPs; bytes read params, grads, exp_avg, exp_avg_sq{}, steps = {} + write "
                      "params, exp_avg, exp_avg_sq{} = {}; total {}",
            num(perElement), adamw ? "AdamW" : "Adam",
            *weightDecay != 0 ? (adamw ? ", decoupled weight decay 1" : ", weight decay 2") : "",
            *amsgrad ? ", amsgrad 1" : "", gradScale ? ", grad scale 1" : "", num(params->elements),
            num(params->tensors), num(flops), maxV ? ", max_exp_avg_sq" : "", num(read), maxV ? ", max_exp_avg_sq" : "",
            num(written), num(bytes));
    return work("optimizer", flops, bytes, vectorPipe(params->precision), params->precision, formula);
}

OperatorModel dataIndex(std::string_view name, const ShapeArgs& args)
{
    const ShapeArg* self = args.tensor(0);
    const ShapeArg* indices = args.at(1);
    if (!self)
        return noModel(name, "self is not a tensor");
    if (!indices || !indices->list || !indices->listDimsKnown)
        return noModel(name, "the index tensors' dims are not recorded");
    if (indices->items.size() > self->dims.size())
        return noModel(name, "more indices than dimensions");
    std::vector<const Dims*> indexShapes;
    double kept = 1; // the dimensions a None index keeps, and those past the indices
    double indexBytes = 0;
    for (std::size_t i = 0; i < indices->items.size(); ++i) {
        const Dims& d = indices->items[i];
        if (d.empty()) { // None
            kept *= self->dims[i];
            continue;
        }
        const auto t = indices->itemTypes.empty() ? ElementType { Precision::Int64, 8 } : indices->itemTypes[i];
        if (t.precision == Precision::Bool || t.precision == Precision::UInt8)
            return noModel(name, "a boolean mask index: the output's size depends on the data");
        indexShapes.push_back(&d);
        indexBytes += product(d) * t.bytes;
    }
    if (indexShapes.empty())
        return noModel(name, "no index tensor");
    const auto b = broadcastShapes(indexShapes);
    if (!b)
        return noModel(name, "the index tensors do not broadcast");
    for (std::size_t i = indices->items.size(); i < self->dims.size(); ++i)
        kept *= self->dims[i];
    const double out = product(*b) * kept;
    const double bpe = self->type.bytes;
    return dataMoved(name, indexBytes + 2 * out * bpe, self->type.precision,
        fmt::format("indices {}{} + gathered {}·{} + output {}·{}", num(indexBytes),
            indices->itemTypes.empty() ? " (taken as int64)" : "", num(out), num(bpe), num(out), num(bpe)));
}

OperatorModel dataToCopy(std::string_view name, const ShapeArgs& args)
{
    const ShapeArg* self = args.tensor(0);
    if (!self)
        return noModel(name, "self is not a tensor");
    ElementType out = self->type;
    if (const ShapeArg* other = args.tensor(1)) { // to(self, other, ...)
        out = other->type;
    } else {
        if (!args.hasConcrete)
            return noModel(name, "the target dtype is not recorded (no Concrete Inputs)");
        // to.device(self, device, dtype, ...) has 6 arguments; the others take dtype second.
        const std::size_t dtypeIndex = name == "aten::to" && args.size() == 6 ? 2 : 1;
        const ShapeArg* dtype = args.at(dtypeIndex);
        if (!concreteEmpty(dtype)) {
            const auto st = concreteInt(dtype);
            const auto t = st ? elementTypeFromScalarType(*st) : std::nullopt;
            if (!t)
                return noModel(name, "the target dtype is not a known ScalarType");
            out = *t;
        }
    }
    const double n = self->elements();
    return dataMoved(name, tensorBytes(self) + n * out.bytes, self->type.precision,
        fmt::format("read {}·{} + write {}·{}", num(n), num(self->type.bytes), num(n), num(out.bytes)));
}

OperatorModel dataScatter(std::string_view name, const ShapeArgs& args, bool add)
{
    const ShapeArg* self = args.tensor(0);
    const ShapeArg* index = args.tensor(2);
    if (!self || !index)
        return noModel(name, "self or index is not a tensor");
    const ShapeArg* src = args.tensor(3);
    const double n = index->elements();
    const double bpe = self->type.bytes;
    const bool inPlace = name.back() == '_';
    // Out of place: a copy of self, then the scatter into it.
    const double copy = inPlace ? 0 : 2 * tensorBytes(self);
    const double srcBytes = src ? n * src->type.bytes : 0;
    const double bytes = copy + tensorBytes(index) + srcBytes + n * bpe;
    const double flops = add && isFloating(self->type.precision) ? n : 0;
    const auto formula = fmt::format("{}index {}{} + write {}·{}{}", inPlace ? "" : "copy self " + num(copy) + " + ",
        num(tensorBytes(index)), src ? " + src " + num(srcBytes) : std::string(), num(n), num(bpe),
        add ? fmt::format("; one add per index element → {} FLOPs", num(flops)) : std::string());
    if (flops == 0)
        return dataMoved(name, bytes, self->type.precision, formula);
    return work("data movement", flops, bytes, vectorPipe(self->type.precision), self->type.precision,
        fmt::format("{} = {}", formula, num(bytes)));
}

} // namespace

OperatorModel modelData(std::string_view name, const ShapeArgs& args, int kind)
{
    const auto dataKind = static_cast<DataKind>(kind);
    switch (dataKind) {
    case DataKind::Embedding: { // (weight, indices, padding_idx, scale_grad_by_freq, sparse)
        const ShapeArg* weight = args.tensor(0);
        const ShapeArg* indices = args.tensor(1);
        if (!weight || !indices || weight->dims.size() != 2)
            return noModel(name, "the weight is not a 2-D tensor or the indices not a tensor");
        const double out = indices->elements() * weight->dims[1];
        const double bpe = weight->type.bytes;
        return dataMoved(name, tensorBytes(indices) + 2 * out * bpe, weight->type.precision,
            fmt::format("indices {} + rows read {}·{} + output {}·{}", num(tensorBytes(indices)), num(out), num(bpe),
                num(out), num(bpe)));
    }
    case DataKind::EmbeddingBackward: { // (grad_output, indices, num_weights, padding_idx, scale_grad_by_freq)
        const ShapeArg* grad = args.tensor(0);
        const ShapeArg* indices = args.tensor(1);
        const auto rows = concreteInt(args.at(2));
        if (!grad || !indices || grad->dims.empty())
            return noModel(name, "grad_output or indices is not a tensor");
        if (!rows || *rows < 0)
            return noModel(name, "num_weights is not recorded (no Concrete Inputs)");
        const double table = static_cast<double>(*rows) * grad->dims.back();
        const double bpe = grad->type.bytes;
        const double flops = isFloating(grad->type.precision) ? grad->elements() : 0;
        const double bytes = tensorBytes(grad) + tensorBytes(indices) + table * bpe;
        return work("data movement", flops, bytes, vectorPipe(grad->type.precision), grad->type.precision,
            fmt::format("one add per grad_output element → {} FLOPs; bytes grad_output {} + indices {} + grad_weight "
                        "{}·{} = {}",
                num(flops), num(tensorBytes(grad)), num(tensorBytes(indices)), num(table), num(bpe), num(bytes)));
    }
    case DataKind::IndexSelect: { // (self, dim, index)
        const ShapeArg* self = args.tensor(0);
        const ShapeArg* index = args.tensor(2);
        if (!self || !index)
            return noModel(name, "self or index is not a tensor");
        std::size_t dim = 0;
        if (!self->dims.empty()) {
            const auto d = dataDim(args.at(1), self->dims.size());
            if (!d)
                return noModel(name, "dim is not recorded (no Concrete Inputs)");
            dim = *d;
        }
        Dims outDims = self->dims;
        if (!outDims.empty())
            outDims[dim] = index->elements();
        const double out = product(outDims);
        const double bpe = self->type.bytes;
        return dataMoved(name, tensorBytes(index) + 2 * out * bpe, self->type.precision,
            fmt::format("index {} + rows read {}·{} + output {} = {}·{}", num(tensorBytes(index)), num(out), num(bpe),
                dimsText(outDims), num(out), num(bpe)));
    }
    case DataKind::Gather: { // (self, dim, index, sparse_grad)
        const ShapeArg* self = args.tensor(0);
        const ShapeArg* index = args.tensor(2);
        if (!self || !index)
            return noModel(name, "self or index is not a tensor");
        const double out = index->elements();
        const double bpe = self->type.bytes;
        return dataMoved(name, tensorBytes(index) + 2 * out * bpe, self->type.precision,
            fmt::format("index {} + gathered {}·{} + output {}·{}", num(tensorBytes(index)), num(out), num(bpe),
                num(out), num(bpe)));
    }
    case DataKind::Scatter:
    case DataKind::ScatterAdd:
        return dataScatter(name, args, dataKind == DataKind::ScatterAdd);
    case DataKind::Index:
        return dataIndex(name, args);
    case DataKind::Copy: { // (self, src, non_blocking)
        const ShapeArg* self = args.tensor(0);
        const ShapeArg* src = args.tensor(1);
        if (!self || !src)
            return noModel(name, "self or src is not a tensor");
        return dataMoved(name, tensorBytes(src) + tensorBytes(self), src->type.precision,
            fmt::format("read src {}·{} + write self {}·{}", num(src->elements()), num(src->type.bytes),
                num(self->elements()), num(self->type.bytes)));
    }
    case DataKind::ToCopy:
        return dataToCopy(name, args);
    case DataKind::Clone: {
        const ShapeArg* self = args.tensor(0);
        if (!self)
            return noModel(name, "self is not a tensor");
        return dataMoved(name, 2 * tensorBytes(self), self->type.precision,
            fmt::format("read {}·{} + write {}·{}", num(self->elements()), num(self->type.bytes), num(self->elements()),
                num(self->type.bytes)));
    }
    case DataKind::Cat: { // (tensors, dim)
        const ShapeArg* list = args.at(0);
        if (!list || !list->list)
            return noModel(name, "the first argument is not a TensorList");
        if (!list->listDimsKnown)
            return noModel(name, "the dims of its TensorList are not recorded");
        const auto s = dataListSize(list);
        if (!s)
            return noModel(name, kUntypedList);
        return dataMoved(name, 2 * s->bytes, s->precision,
            fmt::format("read {} tensors of {} elements ({} bytes) + write the same", num(s->tensors), num(s->elements),
                num(s->bytes)));
    }
    case DataKind::Fill: { // fill_(self, value), zero_(self)
        const ShapeArg* self = args.tensor(0);
        if (!self)
            return noModel(name, "self is not a tensor");
        const double value = tensorBytes(args.tensor(1));
        return dataMoved(name, tensorBytes(self) + value, self->type.precision,
            fmt::format("write {}·{}{}", num(self->elements()), num(self->type.bytes),
                value > 0 ? " + read the value " + num(value) : std::string()));
    }
    case DataKind::ScalarRead: {
        const ShapeArg* self = args.tensor(0);
        if (!self)
            return noModel(name, "self is not a tensor");
        return dataMoved(name, 2 * self->type.bytes, self->type.precision,
            fmt::format("read one element on the device ({}) + write it on the host ({})", num(self->type.bytes),
                num(self->type.bytes)));
    }
    case DataKind::Foreach:
    case DataKind::ForeachCopy:
    case DataKind::ForeachNorm:
        return dataForeach(name, args, dataKind);
    case DataKind::FusedAdam:
        return dataFusedAdam(name, args);
    }
    return noModel(name, "unknown data kind");
}

} // namespace ridgeline::core::shapes
