// SPDX-License-Identifier: MIT
// core's numbers and words as Qt text, one definition each for the models and the details pane:
// durations as core::formatDuration writes them, verdicts as core::verdictText, and the same
// escaped for the details pane's HTML.
#pragma once

#include "ridgeline/core/model/model.h"

#include <QString>
#include <cstdint>
#include <string>

namespace ridgeline::ui {

QString durationLabel(double ns);
QString durationLabel(std::int64_t ns);
QString verdictLabel(core::VerdictClass verdict, const std::string& boundBy);
// What a latency-bound opportunity's time is recoverable by (the Opportunities page, Details).
QString latencyRecoverableNote();

// Text for HTML: `text` with &, < and > escaped.
QString htmlText(const std::string& text);
QString htmlDuration(double ns);
QString htmlDuration(std::int64_t ns);

} // namespace ridgeline::ui
