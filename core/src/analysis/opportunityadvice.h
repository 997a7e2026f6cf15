// SPDX-License-Identifier: MIT
// What to do about an opportunity (opportunities.h), from its verdict and what the session holds:
// an FP32 GEMM that tensor cores would run faster, a chain of memory-bound operators one fused
// kernel could do, attention scores written out between batched GEMMs, short launches, pageable
// copies. docs/ROOFLINE.md, "Opportunities", lists the rules.
#pragma once

#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/analysis/opportunities.h"

#include <string>
#include <vector>

namespace ridgeline::core::detail {

struct OpportunityContext {
    const OperatorShapes* shapes = nullptr; // the session's operator shape rows
    const ResourceMap<CeilingUsed>* roofs = nullptr; // every roof of the row's device
};

// Most useful first; never empty. `shape`: the operator shape row of an operator row.
std::vector<std::string> opportunityAdvice(
    const Opportunity& row, const OperatorShapeRow* shape, const OpportunityContext& context);

} // namespace ridgeline::core::detail
