// SPDX-License-Identifier: MIT
// The one colour of each verdict (core::VerdictClass), for every view that shows verdicts.
#pragma once

#include "ridgeline/core/model/model.h"

#include <QColor>
#include <QStringView>

namespace ridgeline::ui {

// Readable on light and dark palettes; unknown verdicts are grey.
QColor verdictColor(core::VerdictClass verdict);
// The same for a verdict's text (core::toString); text that names no verdict is grey.
QColor verdictColor(QStringView verdict);

} // namespace ridgeline::ui
