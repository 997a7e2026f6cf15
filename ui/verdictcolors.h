// SPDX-License-Identifier: MIT
// The one colour per verdict that every view uses (table, roofline, timeline, details).
#pragma once

#include <QColor>
#include <QStringView>

namespace ridgeline::ui {

// Mid-tone hues that stay readable on light and dark palettes; unknown verdicts are grey.
QColor verdictColor(QStringView verdict);

} // namespace ridgeline::ui
