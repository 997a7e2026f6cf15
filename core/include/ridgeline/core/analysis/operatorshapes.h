// SPDX-License-Identifier: MIT
// FLOPs and bytes of a session's kernels from the shapes of the PyTorch operators that launched
// them (issue 33). Each kernel is linked to the innermost operator around its launching call
// (operatorlinks.h); the operator that owns its work is the outermost operator on that chain with
// a model (shapemodel.h), as TraceLens attributes it: aten::layer_norm rather than the
// aten::native_layer_norm it calls, aten::convolution rather than aten::cudnn_convolution, because
// the call a user made holds every argument (bias, is_causal, stride) in a documented order. A few
// composite operators (aten::linear, aten::matmul, aten::conv2d, ...) only dispatch to a modelled
// operator and give way to it. An operator call's FLOPs and bytes go to its kernels in proportion
// to their time. Computed when read, like the links: derived data that costs the import nothing.
#pragma once

#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/analysis/shapemodel.h"
#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ridgeline::core {

class SessionReader;
struct OperatorLinks;

// Launches of one kernel (name and device) that an operator shape row owns.
struct OwnedKernelRef {
    std::int64_t nameId = 0; // kernel_names.id
    std::int64_t deviceId = 0;
    std::int64_t launches = 0;
    std::int64_t timeNs = 0;
};

// The families whose work is memory traffic that a fused kernel would do once for a whole chain:
// elementwise, norm, softmax and reduction.
bool isFusableFamily(std::string_view family);

// One operator with one set of input shapes and types: the calls that own kernels.
struct OperatorShapeRow {
    std::string name; // "aten::addmm"
    // The trace's Input Dims, as compact JSON text ("[[512],[141,512]]"); as the trace wrote it when
    // it is no JSON or nests too deep (traceJsonNestsTooDeep).
    std::string inputDims;
    std::string inputTypes; // the trace's Input type, the same way
    std::int64_t calls = 0;
    std::int64_t kernels = 0; // launches it owns
    std::int64_t gpuTimeNs = 0; // of those launches
    std::optional<OperatorWork> work; // of one call (the first), when modelled
    std::string reason; // why there is no work ("no model for aten::gelu")
    double flops = 0; // of all calls
    double bytes = 0;
    std::int64_t deviceId = 0; // of its longest launch: whose ceilings judge it
    KernelAnalysis analysis; // the work over the GPU time, against the device's roofs (FigureSource::Shapes)
    std::vector<OwnedKernelRef> kernelRefs; // its launches by kernel name and device, most time first
    // Modelled calls of a fusable family (isFusableFamily) whose kernel runs right before or after the
    // kernel of another fusable call on the same device: links of a chain one fused kernel could do.
    std::int64_t callsInFusableChain = 0;
};

struct OperatorShapes {
    std::unordered_map<std::int64_t, ShapeFigures> byKernel; // kernels.id -> its share of its operator call's work
    std::vector<OperatorShapeRow> rows; // by GPU time, then name
    std::int64_t kernelTimeNs = 0; // every kernel of the session (collectives included)
    std::int64_t modelledTimeNs = 0; // of kernels owned by an operator call that has work
};

Result<OperatorShapes> modelOperatorShapes(SessionReader& reader, const OperatorLinks& links);

// Brackets nested deeper (16) than any argument list (a TensorList's [[[4, 1, 768], ...]] is 3):
// a hostile file's text, never parsed, since a JSON tree that deep is freed and written recursively.
bool traceJsonNestsTooDeep(std::string_view text);

// The modelled rows as the roofline draws kernels: one point per operator shape (the roofline's
// "Points: operators"). name: "aten::addmm [[512],[141,512],...]", nameId: -1 - its row's index
// (no kernel name), launches: its calls, totalNs: its kernel time, the analysis its row's.
std::vector<KernelSummary> shapeSummaries(const OperatorShapes& shapes);
// The same, linking the operators first (without verdicts: they are what this feeds).
Result<OperatorShapes> modelOperatorShapes(SessionReader& reader);

// modelOperatorShapes, worked out once per open reader and kept with it (SessionReader::derived):
// the kernel table, the operator views, `--by op`'s verdicts and the timeline of one session all
// need it. From `links` when given. Empty, at the cost of one index probe, when no operator can
// carry shapes (SessionReader::mayHaveOperatorShapes). Never null.
Result<std::shared_ptr<const OperatorShapes>> sessionOperatorShapes(
    SessionReader& reader, const OperatorLinks* links = nullptr);

} // namespace ridgeline::core
