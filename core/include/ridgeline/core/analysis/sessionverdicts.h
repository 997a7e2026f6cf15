// SPDX-License-Identifier: MIT
// A session's verdicts recomputed after an amendment: the store amends the file and writes the
// rows (store/sessionamend.h), the analysis computes the verdicts (roofline.h) in between.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/store/sessionamend.h"

#include <string>

namespace ridgeline::core {

// amendSession, then the verdicts table replaced with the analysis of every kernel (after the
// amendment's ceilings): the launcher's merged capture and `ridgeline import --gpu`. Only for
// files the caller owns. AmendmentResult::verdicts counts the verdicts written.
Result<AmendmentResult> amendSessionAndVerdicts(const std::string& path, const SessionAmendment& amendment);

} // namespace ridgeline::core
