// SPDX-License-Identifier: MIT
// The arguments of one PyTorch operator call as the shape models read them (issue 33): the
// trace's "Input Dims", "Input type" and "Concrete Inputs" JSON texts parsed into one ShapeArg per
// argument, the element size and precision of each type name, and the small helpers every family
// shares (element counts, broadcasting, the pipes, the numbers in a formula). Private to the
// analysis folder; shapemodel.cpp holds the one table of operators.
#pragma once

#include "ridgeline/core/analysis/shapemodel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core::shapes {

// The element types of the trace's "Input type" ("c10::BFloat16", "float", "long int", ...).
enum class Precision : std::uint8_t {
    None, // not a tensor: "Scalar", "ScalarList", "TensorList" without its element type, ""
    Unknown, // a type name the models do not know
    Bool,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    FP4, // c10::Float4_e2m1fn_x2: two values packed in one byte
    FP8,
    FP16,
    BF16,
    FP32,
    FP64,
    Complex32,
    Complex64,
    Complex128,
};

struct ElementType {
    Precision precision = Precision::None;
    double bytes = 0; // per element; 0 when not a tensor or unknown
};

ElementType elementType(std::string_view typeName);
// From a ScalarType number as Concrete Inputs writes a dtype argument ("15" is bfloat16).
std::optional<ElementType> elementTypeFromScalarType(long long scalarType);
const char* precisionName(Precision p); // "bf16", "fp32", "int64", ...
bool isFloating(Precision p); // fp4 .. fp64 (complex not included)
bool isComplex(Precision p);
bool isTensor(const ElementType& t);

// Pipes against the datasheet: a matrix unit (GEMM, attention, convolution) or the CUDA cores
// (elementwise, norms, softmax, reductions). nullopt for integers, bools and complex.
std::optional<Resource> matrixPipe(Precision p);
std::optional<Resource> vectorPipe(Precision p);

using Dims = std::vector<double>;

struct ShapeArg {
    bool list = false; // a TensorList (Input Dims gave an array of arrays, or its type is "TensorList")
    bool listDimsKnown = false; // the list's tensors' dims were recorded (older traces give [])
    Dims dims; // a tensor's dims; [] for scalars, absent optionals and 0-dim tensors
    std::vector<Dims> items; // a list's tensors' dims
    std::string typeName; // "c10::BFloat16", "Scalar", "TensorList", "" (an array of names for a typed list: joined)
    ElementType type; // a tensor's type, or a typed list's element type
    std::vector<ElementType> itemTypes; // a list's per-tensor types when given one by one
    std::string concrete; // "", "1", "0.", "False", "[16, 16]"

    bool isTensor() const { return !list && shapes::isTensor(type); }
    bool isTypedList() const;
    double elements() const; // a tensor's elements (1 for a 0-dim tensor)
};

struct ShapeArgs {
    std::vector<ShapeArg> args;
    bool hasConcrete = false; // Concrete Inputs was recorded

    std::size_t size() const { return args.size(); }
    // The argument at i, or nullptr past the end (a shorter overload).
    const ShapeArg* at(std::size_t i) const { return i < args.size() ? &args[i] : nullptr; }
    // The tensor at i, or nullptr when argument i is absent or not a tensor.
    const ShapeArg* tensor(std::size_t i) const;
};

// Caps: a text longer than this is refused; a tensor of more elements is implausible.
inline constexpr std::size_t kMaxTextBytes = 4u << 20;
inline constexpr double kMaxElements = 9007199254740992.0; // 2^53

// Parses the three texts. Input Dims is required; Input type is required (element sizes);
// Concrete Inputs may be empty. Never throws: a malformed or hostile text gives nullopt and the
// reason (without the operator's name).
std::optional<ShapeArgs> parseShapeArgs(const OperatorCall& call, std::string& reason);

double product(const Dims& dims); // 1 for []
double tensorBytes(const ShapeArg* t); // elements × element size; 0 for nullptr
// The broadcast of shapes as NumPy and PyTorch define it; nullopt when they do not broadcast.
std::optional<Dims> broadcastShapes(const std::vector<const Dims*>& shapes);

// Concrete Inputs texts.
std::optional<bool> concreteBool(const ShapeArg* arg); // "True", "False", "1", "0"
std::optional<double> concreteNumber(const ShapeArg* arg); // "0.", "1", "9.9999999999999998e-13"
std::optional<long long> concreteInt(const ShapeArg* arg);
// "[16, 16]", "[]", "16" (one value); bool lists ("[True, False, True]") as 1 and 0.
std::optional<std::vector<long long>> concreteIntList(const ShapeArg* arg);
bool concreteEmpty(const ShapeArg* arg); // "" or "None" or absent: the argument was None or not recorded

// A number in a formula: integers exactly ("814080"), others to 6 significant digits.
std::string num(double v);
std::string dimsText(const Dims& dims); // "141×512"; "[]" for a 0-dim tensor

// A model's result.
OperatorModel noModel(std::string_view name, std::string_view why); // reason "<name>: <why>"
OperatorModel work(std::string family, double flops, double bytes, std::optional<Resource> pipe, Precision precision,
    std::string formula);

} // namespace ridgeline::core::shapes
