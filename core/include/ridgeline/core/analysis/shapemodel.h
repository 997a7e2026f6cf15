// SPDX-License-Identifier: MIT
// The work of one PyTorch operator call worked out from its shapes (issue 33): a trace recorded
// with record_shapes=True gives each cpu_op its "Input Dims", "Input type" and "Concrete Inputs",
// from which FLOPs and bytes follow analytically, as Nsight Compute and TraceLens count them (an
// FMA is 2 FLOPs; every input read once and the output written once). One model per operator
// family, chosen by the operator's name from one table; every formula with its source is in
// docs/ROOFLINE.md. An operator without a model has none: it is never guessed.
#pragma once

#include "ridgeline/core/model/resource.h"

#include <optional>
#include <string>
#include <string_view>

namespace ridgeline::core {

// One operator call as the profiler wrote it. The texts are the trace's JSON, as stored
// (Operator::inputDims, ...): "[[512], [141, 512], [512, 512], [], []]", "[\"c10::BFloat16\", ...]",
// "[\"\", \"\", \"\", \"1\", \"1\"]". Any of them may be empty (not recorded).
// A TensorList argument (cat, foreach, fused optimizers) records its tensors' dims but not their
// element type ("TensorList"): such a call has no model unless the caller, knowing the type, puts
// it in inputTypes in place of "TensorList" ("c10::BFloat16", or one name per tensor).
struct OperatorCall {
    std::string_view name; // "aten::addmm"
    std::string_view inputDims;
    std::string_view inputTypes;
    std::string_view concreteInputs;
};

// What one call does.
struct OperatorWork {
    double flops = 0; // 0 for operators that only move data (copy_, cat, index_select, ...)
    double bytes = 0; // every input read once and the output written once, at their element sizes
    // The pipe its FLOPs run on against the datasheet: BF16Tensor for a bf16 GEMM, FP32 for float
    // elementwise, ...; nullopt when it does no arithmetic (or none a roof exists for: integers).
    std::optional<Resource> pipe;
    std::string family; // "GEMM", "attention", "convolution", "elementwise", "softmax", "norm", ...
    std::string precision; // "bf16", "fp16", "fp32", "fp64", "fp8", "int64", "bool", ... (of the inputs)
    std::string formula; // the formula with its numbers: "2·M·N·K + M·N (bias); M=141, N=512, K=512"
};

struct OperatorModel {
    std::optional<OperatorWork> work;
    std::string reason; // when there is no work: "no model for aten::foo", "aten::addmm: no Input Dims", ...
};

// Whether an operator of this name has a model (its call may still lack the shapes it needs).
bool hasShapeModel(std::string_view operatorName);

// Whether it only dispatches to other operators (aten::linear to aten::addmm, aten::to to
// aten::copy_, ...): the modelled operator it calls owns the work (operatorshapes.h).
bool isCompositeOperator(std::string_view operatorName);

// The work of one call, or why there is none. Never throws; hostile or malformed texts give a reason.
OperatorModel modelOperator(const OperatorCall& call);

} // namespace ridgeline::core
