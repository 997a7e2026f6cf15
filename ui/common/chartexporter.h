// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QWidget;

namespace ridgeline::ui {

// A page whose content is a chart implements this so that File ▸ Export ▸ Current Chart saves
// the chart itself (at its own resolution, SVG as vectors). Pages without it are rendered as
// widgets.
class ChartExporter {
public:
    virtual ~ChartExporter() = default;
    // PNG or SVG by the path's extension; false when the file could not be written.
    virtual bool exportImage(const QString& path) = 0;
};

// Renders any widget to PNG or SVG (by extension); false when the file could not be written.
bool exportWidgetImage(QWidget* widget, const QString& path);

} // namespace ridgeline::ui
