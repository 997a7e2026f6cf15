// SPDX-License-Identifier: MIT
// The one colour of each verdict (core::verdict::*), for every view that shows verdicts.
#pragma once

#include <QColor>
#include <QStringView>

namespace ridgeline::ui {

// Readable on light and dark palettes; unknown and unrecognised verdicts are grey.
QColor verdictColor(QStringView verdict);

} // namespace ridgeline::ui
