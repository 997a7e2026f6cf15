// SPDX-License-Identifier: MIT
// The one colour of each verdict (core::VerdictClass), for every view that shows verdicts.
#pragma once

#include "ridgeline/core/model/model.h"

#include <QColor>
#include <QStringView>
#include <QVariant>

namespace ridgeline::ui {

// Readable on light and dark palettes; unknown verdicts are grey.
QColor verdictColor(core::VerdictClass verdict);
// The same for a verdict's text (core::toString); text that names no verdict is grey.
QColor verdictColor(QStringView verdict);
// Background and foreground (Qt::BackgroundRole / Qt::ForegroundRole) of a table cell showing a
// verdict: filled with the verdict's colour, text picked for contrast; "unknown" (and anything
// unrecognised) is grey text without a fill, so that the real verdicts stand out.
QVariant verdictCellData(core::VerdictClass verdict, int role);
QVariant verdictCellData(QStringView verdict, int role);

} // namespace ridgeline::ui
