// SPDX-License-Identifier: MIT
#include "tooltip.h"

#include <QHelpEvent>
#include <QToolTip>

namespace ridgeline::ui {

bool showToolTip(QEvent* event, QWidget* widget, const std::function<QString(QPoint)>& textAt)
{
    if (event->type() != QEvent::ToolTip)
        return false;
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = textAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, widget);
    return true;
}

} // namespace ridgeline::ui
