// SPDX-License-Identifier: MIT
// Everything the app shows of a session's PyTorch operators (issue 17), worked out once when the
// session is opened: the per-launch lookup (operatorlookup.h) for the details pane and the
// timeline, and the kernel table grouped by operator and by module (operatorgroups.h), from one
// link of the GPU ops to their operators (operatorlinks.h). The links themselves are dropped.
#pragma once

#include "ridgeline/core/analysis/operatorlookup.h"
#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/output/operatorgroups.h"

#include <cstddef>
#include <optional>

namespace ridgeline::core {

class SessionReader;

struct SessionOperators {
    OperatorLookup lookup;
    OperatorGroups byOperator;
    OperatorGroups byModule;
    // One roofline point per modelled operator shape (operatorshapes.h: shapeSummaries).
    std::vector<KernelSummary> shapePoints;
    // External id against time containment, as the report gives them (OperatorReport).
    std::int64_t byExternalId = 0, externalIdDisagrees = 0;
    std::size_t memoryBytes() const;
};

// Empty (no error) when the session has no operators: nothing is linked then.
Result<std::optional<SessionOperators>> loadSessionOperators(SessionReader& reader);

} // namespace ridgeline::core
