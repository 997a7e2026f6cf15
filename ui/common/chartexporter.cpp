// SPDX-License-Identifier: MIT
#include "chartexporter.h"

#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace ridgeline::ui {

bool exportWidgetImage(QWidget* widget, const QString& path)
{
    if (QFileInfo(path).suffix().compare(u"svg", Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(widget->size());
        svg.setViewBox(widget->rect());
        svg.setTitle(widget->windowTitle());
        QPainter painter;
        if (!painter.begin(&svg))
            return false;
        widget->render(&painter);
        return painter.end() && QFileInfo(path).size() > 0;
    }
    return widget->grab().save(path);
}

} // namespace ridgeline::ui
