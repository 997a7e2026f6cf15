// SPDX-License-Identifier: MIT
// The tooltip of a view that names what is under the cursor (a cell, a bar, a point).
#pragma once

#include <QPoint>
#include <QString>
#include <functional>

class QEvent;
class QWidget;

namespace ridgeline::ui {

// For a QEvent::ToolTip: shows textAt(the cursor's position in `widget`) over `widget`, or hides the
// tooltip where that is empty, and returns true. Returns false, doing nothing, for any other event.
bool showToolTip(QEvent* event, QWidget* widget, const std::function<QString(QPoint)>& textAt);

} // namespace ridgeline::ui
