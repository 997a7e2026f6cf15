// SPDX-License-Identifier: MIT
#include "shapeargs.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <utility>

namespace ridgeline::core::shapes {

namespace {

using nlohmann::json;

struct TypeNameEntry {
    std::string_view name;
    Precision precision;
    double bytes;
};

// The names c10 gives the element types (c10::demangle of the C++ type, as the profiler records
// them; older PyTorch wrote "long" where newer writes "long int").
constexpr std::array kTypeNames {
    TypeNameEntry { "c10::BFloat16", Precision::BF16, 2 },
    TypeNameEntry { "c10::Half", Precision::FP16, 2 },
    TypeNameEntry { "float", Precision::FP32, 4 },
    TypeNameEntry { "double", Precision::FP64, 8 },
    TypeNameEntry { "c10::Float8_e4m3fn", Precision::FP8, 1 },
    TypeNameEntry { "c10::Float8_e5m2", Precision::FP8, 1 },
    TypeNameEntry { "c10::Float8_e4m3fnuz", Precision::FP8, 1 },
    TypeNameEntry { "c10::Float8_e5m2fnuz", Precision::FP8, 1 },
    TypeNameEntry { "c10::Float8_e8m0fnu", Precision::FP8, 1 },
    TypeNameEntry { "c10::Float4_e2m1fn_x2", Precision::FP4, 1 },
    TypeNameEntry { "bool", Precision::Bool, 1 },
    TypeNameEntry { "unsigned char", Precision::UInt8, 1 },
    TypeNameEntry { "signed char", Precision::Int8, 1 },
    TypeNameEntry { "short", Precision::Int16, 2 },
    TypeNameEntry { "short int", Precision::Int16, 2 },
    TypeNameEntry { "unsigned short", Precision::UInt16, 2 },
    TypeNameEntry { "unsigned short int", Precision::UInt16, 2 },
    TypeNameEntry { "int", Precision::Int32, 4 },
    TypeNameEntry { "unsigned int", Precision::UInt32, 4 },
    TypeNameEntry { "long", Precision::Int64, 8 },
    TypeNameEntry { "long int", Precision::Int64, 8 },
    TypeNameEntry { "long long", Precision::Int64, 8 },
    TypeNameEntry { "long long int", Precision::Int64, 8 },
    TypeNameEntry { "unsigned long", Precision::UInt64, 8 },
    TypeNameEntry { "unsigned long int", Precision::UInt64, 8 },
    TypeNameEntry { "unsigned long long", Precision::UInt64, 8 },
    TypeNameEntry { "c10::complex<c10::Half>", Precision::Complex32, 4 },
    TypeNameEntry { "c10::complex<float>", Precision::Complex64, 8 },
    TypeNameEntry { "c10::complex<double>", Precision::Complex128, 16 },
    TypeNameEntry { "c10::qint8", Precision::Int8, 1 },
    TypeNameEntry { "c10::quint8", Precision::UInt8, 1 },
    TypeNameEntry { "c10::qint32", Precision::Int32, 4 },
};

// Names of arguments that are not tensors.
constexpr std::array<std::string_view, 9> kNotTensors { "", "Scalar", "ScalarList", "TensorList", "GenericList", "None",
    "Device", "Layout", "ScalarType" };

std::string_view shapeTrim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// One dimension: a non-negative integer below 2^53.
bool readShapeDim(const json& v, double& out, std::string& reason)
{
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (static_cast<double>(u) > kMaxElements) {
            reason = "a dimension is implausibly large";
            return false;
        }
        out = static_cast<double>(u);
        return true;
    }
    if (v.is_number_integer()) {
        reason = "a dimension is negative";
        return false;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < 0 || d != std::floor(d) || d > kMaxElements) {
            reason = "a dimension is not a non-negative integer";
            return false;
        }
        out = d;
        return true;
    }
    reason = "a dimension is not a number";
    return false;
}

// An array of dimensions.
bool readShapeDims(const json& v, Dims& out, std::string& reason)
{
    out.clear();
    out.reserve(v.size());
    double elements = 1;
    for (const auto& d : v) {
        double dim = 0;
        if (!readShapeDim(d, dim, reason))
            return false;
        out.push_back(dim);
        elements *= dim;
    }
    if (elements > kMaxElements) {
        reason = "a tensor has implausibly many elements";
        return false;
    }
    return true;
}

std::string concreteArgText(const json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_boolean())
        return v.get<bool>() ? "True" : "False";
    if (v.is_null())
        return "";
    return v.dump();
}

std::optional<json> parseShapeArray(std::string_view text, std::string_view what, std::string& reason)
{
    if (text.size() > kMaxTextBytes) {
        reason = fmt::format("{} is longer than {} bytes", what, kMaxTextBytes);
        return std::nullopt;
    }
    json j = json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded()) {
        reason = fmt::format("{} is not valid JSON", what);
        return std::nullopt;
    }
    if (!j.is_array()) {
        reason = fmt::format("{} is not a JSON array", what);
        return std::nullopt;
    }
    return j;
}

bool parseDimsArg(const json& v, ShapeArg& arg, std::string& reason)
{
    if (v.is_null())
        return true;
    if (!v.is_array()) {
        reason = "an Input Dims entry is not an array";
        return false;
    }
    const bool anyArray = std::any_of(v.begin(), v.end(), [](const json& e) { return e.is_array(); });
    if (!anyArray)
        return readShapeDims(v, arg.dims, reason);
    arg.list = true;
    arg.listDimsKnown = true;
    for (const auto& item : v) {
        if (!item.is_array() || std::any_of(item.begin(), item.end(), [](const json& e) { return !e.is_number(); })) {
            reason = "an Input Dims list holds something other than arrays of numbers";
            return false;
        }
        Dims dims;
        if (!readShapeDims(item, dims, reason))
            return false;
        arg.items.push_back(std::move(dims));
    }
    return true;
}

bool parseTypeArg(const json& v, ShapeArg& arg, std::string& reason)
{
    if (v.is_null())
        return true;
    if (v.is_string()) {
        arg.typeName = v.get<std::string>();
        if (arg.typeName == "TensorList" || arg.typeName == "GenericList")
            arg.list = true;
        arg.type = elementType(arg.typeName);
        return true;
    }
    if (v.is_array()) { // one type per tensor of a list (a caller that knows them)
        arg.list = true;
        for (const auto& t : v) {
            if (!t.is_string()) {
                reason = "an Input type list holds something other than names";
                return false;
            }
            const auto name = t.get<std::string>();
            arg.itemTypes.push_back(elementType(name));
            arg.typeName += arg.typeName.empty() ? name : "," + name;
        }
        return true;
    }
    reason = "an Input type entry is neither a name nor a list of names";
    return false;
}

std::optional<ShapeArgs> parseShapeArgsUnchecked(const OperatorCall& call, std::string& reason)
{
    if (shapeTrim(call.inputDims).empty()) {
        reason = "no Input Dims";
        return std::nullopt;
    }
    if (shapeTrim(call.inputTypes).empty()) {
        reason = "no Input type";
        return std::nullopt;
    }
    const auto dims = parseShapeArray(call.inputDims, "Input Dims", reason);
    if (!dims)
        return std::nullopt;
    const auto types = parseShapeArray(call.inputTypes, "Input type", reason);
    if (!types)
        return std::nullopt;
    if (types->size() != dims->size()) {
        reason = fmt::format("Input Dims has {} arguments but Input type {}", dims->size(), types->size());
        return std::nullopt;
    }
    std::optional<json> concrete;
    if (!shapeTrim(call.concreteInputs).empty()) {
        concrete = parseShapeArray(call.concreteInputs, "Concrete Inputs", reason);
        if (!concrete)
            return std::nullopt;
        if (concrete->size() != dims->size()) {
            reason = fmt::format("Input Dims has {} arguments but Concrete Inputs {}", dims->size(), concrete->size());
            return std::nullopt;
        }
    }
    ShapeArgs out;
    out.hasConcrete = concrete.has_value();
    out.args.resize(dims->size());
    for (std::size_t i = 0; i < dims->size(); ++i) {
        auto& arg = out.args[i];
        if (!parseDimsArg((*dims)[i], arg, reason) || !parseTypeArg((*types)[i], arg, reason))
            return std::nullopt;
        if (arg.list && !arg.itemTypes.empty() && arg.listDimsKnown && arg.itemTypes.size() != arg.items.size()) {
            reason = "a TensorList has a different number of types than of dims";
            return std::nullopt;
        }
        if (concrete)
            arg.concrete = concreteArgText((*concrete)[i]);
    }
    return out;
}

} // namespace

ElementType elementType(std::string_view typeName)
{
    for (const auto& e : kTypeNames) {
        if (e.name == typeName)
            return { e.precision, e.bytes };
    }
    if (std::find(kNotTensors.begin(), kNotTensors.end(), typeName) != kNotTensors.end())
        return {};
    return { Precision::Unknown, 0 };
}

std::optional<ElementType> elementTypeFromScalarType(long long scalarType)
{
    // c10/core/ScalarType.h, AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS, in order.
    switch (scalarType) {
    case 0:
        return ElementType { Precision::UInt8, 1 };
    case 1:
        return ElementType { Precision::Int8, 1 };
    case 2:
        return ElementType { Precision::Int16, 2 };
    case 3:
        return ElementType { Precision::Int32, 4 };
    case 4:
        return ElementType { Precision::Int64, 8 };
    case 5:
        return ElementType { Precision::FP16, 2 };
    case 6:
        return ElementType { Precision::FP32, 4 };
    case 7:
        return ElementType { Precision::FP64, 8 };
    case 8:
        return ElementType { Precision::Complex32, 4 };
    case 9:
        return ElementType { Precision::Complex64, 8 };
    case 10:
        return ElementType { Precision::Complex128, 16 };
    case 11:
        return ElementType { Precision::Bool, 1 };
    case 15:
        return ElementType { Precision::BF16, 2 };
    case 23:
    case 24:
    case 25:
    case 26:
        return ElementType { Precision::FP8, 1 };
    default:
        return std::nullopt;
    }
}

const char* precisionName(Precision p)
{
    switch (p) {
    case Precision::None:
        return "none";
    case Precision::Unknown:
        return "unknown";
    case Precision::Bool:
        return "bool";
    case Precision::Int8:
        return "int8";
    case Precision::UInt8:
        return "uint8";
    case Precision::Int16:
        return "int16";
    case Precision::UInt16:
        return "uint16";
    case Precision::Int32:
        return "int32";
    case Precision::UInt32:
        return "uint32";
    case Precision::Int64:
        return "int64";
    case Precision::UInt64:
        return "uint64";
    case Precision::FP4:
        return "fp4";
    case Precision::FP8:
        return "fp8";
    case Precision::FP16:
        return "fp16";
    case Precision::BF16:
        return "bf16";
    case Precision::FP32:
        return "fp32";
    case Precision::FP64:
        return "fp64";
    case Precision::Complex32:
        return "complex32";
    case Precision::Complex64:
        return "complex64";
    case Precision::Complex128:
        return "complex128";
    }
    return "unknown";
}

bool isFloating(Precision p)
{
    return p == Precision::FP4 || p == Precision::FP8 || p == Precision::FP16 || p == Precision::BF16
        || p == Precision::FP32 || p == Precision::FP64;
}

bool isComplex(Precision p)
{
    return p == Precision::Complex32 || p == Precision::Complex64 || p == Precision::Complex128;
}

bool isTensor(const ElementType& t)
{
    return t.bytes > 0;
}

std::optional<Resource> matrixPipe(Precision p)
{
    switch (p) {
    case Precision::BF16:
        return Resource::BF16Tensor;
    case Precision::FP16:
        return Resource::FP16Tensor;
    case Precision::FP32:
        return Resource::FP32;
    case Precision::FP8:
        return Resource::FP8Tensor;
    case Precision::FP64:
        return Resource::FP64Tensor;
    case Precision::Int8:
    case Precision::UInt8:
        return Resource::INT8Tensor;
    default:
        return std::nullopt;
    }
}

std::optional<Resource> vectorPipe(Precision p)
{
    switch (p) {
    case Precision::FP32:
        return Resource::FP32;
    case Precision::FP16:
    case Precision::BF16:
        return Resource::FP16;
    case Precision::FP64:
        return Resource::FP64;
    default:
        return std::nullopt;
    }
}

bool ShapeArg::isTypedList() const
{
    if (!list || !listDimsKnown)
        return false;
    if (!itemTypes.empty())
        return std::all_of(
            itemTypes.begin(), itemTypes.end(), [](const ElementType& t) { return shapes::isTensor(t); });
    return shapes::isTensor(type);
}

double ShapeArg::elements() const
{
    return product(dims);
}

const ShapeArg* ShapeArgs::tensor(std::size_t i) const
{
    const ShapeArg* a = at(i);
    return a && a->isTensor() ? a : nullptr;
}

std::optional<ShapeArgs> parseShapeArgs(const OperatorCall& call, std::string& reason)
{
    try {
        return parseShapeArgsUnchecked(call, reason);
    } catch (const std::exception& e) {
        reason = fmt::format("the shapes could not be read ({})", e.what());
    } catch (...) {
        reason = "the shapes could not be read";
    }
    return std::nullopt;
}

double product(const Dims& dims)
{
    double p = 1;
    for (const double d : dims)
        p *= d;
    return p;
}

double tensorBytes(const ShapeArg* t)
{
    return t ? t->elements() * t->type.bytes : 0;
}

std::optional<Dims> broadcastShapes(const std::vector<const Dims*>& shapes)
{
    std::size_t rank = 0;
    for (const auto* s : shapes)
        rank = std::max(rank, s->size());
    Dims out(rank, 1);
    for (const auto* s : shapes) {
        const std::size_t offset = rank - s->size();
        for (std::size_t i = 0; i < s->size(); ++i) {
            const double d = (*s)[i];
            double& o = out[offset + i];
            if (d == o || d == 1)
                continue;
            if (o != 1)
                return std::nullopt;
            o = d;
        }
    }
    return out;
}

std::optional<bool> concreteBool(const ShapeArg* arg)
{
    if (!arg)
        return std::nullopt;
    const auto t = shapeTrim(arg->concrete);
    if (t == "True" || t == "true" || t == "1")
        return true;
    if (t == "False" || t == "false" || t == "0")
        return false;
    return std::nullopt;
}

std::optional<double> concreteNumber(const ShapeArg* arg)
{
    if (!arg)
        return std::nullopt;
    const auto t = shapeTrim(arg->concrete);
    if (t.empty())
        return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<long long> concreteInt(const ShapeArg* arg)
{
    if (!arg)
        return std::nullopt;
    const auto t = shapeTrim(arg->concrete);
    long long v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size())
        return std::nullopt;
    return v;
}

std::optional<std::vector<long long>> concreteIntList(const ShapeArg* arg)
{
    if (!arg)
        return std::nullopt;
    auto t = shapeTrim(arg->concrete);
    if (t.empty())
        return std::nullopt;
    const bool bracketed = t.front() == '[' || t.front() == '(';
    if (bracketed) {
        if (t.size() < 2 || (t.back() != ']' && t.back() != ')'))
            return std::nullopt;
        t = shapeTrim(t.substr(1, t.size() - 2));
    }
    std::vector<long long> out;
    while (!t.empty()) {
        const auto comma = t.find(',');
        const auto item = shapeTrim(t.substr(0, comma));
        t = comma == std::string_view::npos ? std::string_view() : shapeTrim(t.substr(comma + 1));
        if (item.empty()) {
            if (comma == std::string_view::npos)
                break;
            return std::nullopt;
        }
        if (item == "True" || item == "true") {
            out.push_back(1);
            continue;
        }
        if (item == "False" || item == "false") {
            out.push_back(0);
            continue;
        }
        long long v = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (ec != std::errc() || end != item.data() + item.size())
            return std::nullopt;
        out.push_back(v);
        if (out.size() > 64) // no real argument list is this long
            return std::nullopt;
    }
    return out;
}

bool concreteEmpty(const ShapeArg* arg)
{
    if (!arg)
        return true;
    const auto t = shapeTrim(arg->concrete);
    return t.empty() || t == "None";
}

std::string num(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e18)
        return fmt::format("{}", static_cast<long long>(v));
    return fmt::format("{:.6g}", v);
}

std::string dimsText(const Dims& dims)
{
    if (dims.empty())
        return "[]";
    std::string out;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            out += "×";
        out += num(dims[i]);
    }
    return out;
}

OperatorModel noModel(std::string_view name, std::string_view why)
{
    OperatorModel m;
    m.reason = fmt::format("{}: {}", name, why);
    return m;
}

OperatorModel work(std::string family, double flops, double bytes, std::optional<Resource> pipe, Precision precision,
    std::string formula)
{
    OperatorModel m;
    OperatorWork w;
    w.flops = flops;
    w.bytes = bytes;
    w.pipe = flops > 0 ? pipe : std::nullopt;
    w.family = std::move(family);
    w.precision = precisionName(precision);
    w.formula = std::move(formula);
    m.work = std::move(w);
    return m;
}

} // namespace ridgeline::core::shapes
