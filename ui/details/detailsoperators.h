// SPDX-License-Identifier: MIT
// The details pane's PyTorch section (issue 17): which operators launched the selected kernel, and
// the operator stack of one launch (the selected one, or the kernel's longest launch that has an
// operator): innermost operator up to the top level, with module path, input shapes and types, and
// the call stack. The stack's texts are read back from the session off the GUI thread, a few
// operator chunks only (core::OperatorLookup, SessionReader::operatorsInChunks).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/output/sessionoperators.h"

#include <QString>
#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::core {
class SessionReader;
}

namespace ridgeline::ui {

struct OperatorStack {
    std::int64_t launchId = -1; // the launch whose stack this is; -1: the kernel has no launch
    std::int64_t launchNs = 0; // its duration
    bool longest = false; // the kernel's longest launch with an operator, not a selected launch
    std::vector<core::Operator> operators; // innermost first; empty: no operator launched it
    std::vector<std::string> modules; // per operator, its module path (empty: none)
};

// `launchId` >= 0: that launch; -1: the kernel's longest launch with an operator (else its longest).
core::Result<OperatorStack> loadOperatorStack(core::SessionReader& reader, const core::OperatorLookup& lookup,
    std::int64_t nameId, std::int64_t deviceId, std::int64_t launchId);

struct OperatorDetails {
    const core::SessionOperators* operators = nullptr; // null: the session has none (no section)
    std::int64_t nameId = -1;
    std::int64_t deviceId = -1;
    bool launch = false; // one launch is selected, not the kernel
    const OperatorStack* stack = nullptr; // null while loading (or when it failed: error)
    QString error;
};

QString operatorSection(const OperatorDetails& details);

} // namespace ridgeline::ui
