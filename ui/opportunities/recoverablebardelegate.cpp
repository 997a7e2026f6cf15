// SPDX-License-Identifier: MIT
#include "recoverablebardelegate.h"

#include <QApplication>
#include <QPainter>
#include <algorithm>

namespace ridgeline::ui {

RecoverableBarDelegate::RecoverableBarDelegate(int barRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_barRole(barRole)
{ }

void RecoverableBarDelegate::paint(
    QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QVariant share = index.data(m_barRole);
    if (share.isValid()) {
        // The selection's highlight first, then the bar, then the text over both.
        QStyleOptionViewItem background = option;
        initStyleOption(&background, index);
        background.text.clear();
        const QWidget* widget = option.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);
        const QRect area = option.rect.adjusted(2, 3, -2, -3);
        const int width = static_cast<int>(std::clamp(share.toDouble(), 0.0, 1.0) * area.width() + 0.5);
        if (width > 0) {
            QColor bar = option.palette.color(QPalette::Highlight);
            bar.setAlpha(option.state & QStyle::State_Selected ? 110 : 70);
            painter->fillRect(QRect(area.topLeft(), QSize(width, area.height())), bar);
        }
        QStyleOptionViewItem text = option;
        initStyleOption(&text, index);
        text.backgroundBrush = Qt::NoBrush;
        text.state &= ~QStyle::State_Selected; // the highlight is drawn already
        text.palette.setColor(QPalette::Text,
            option.state & QStyle::State_Selected ? option.palette.color(QPalette::HighlightedText)
                                                  : option.palette.color(QPalette::Text));
        style->drawItemText(painter, option.rect.adjusted(4, 0, -4, 0), int(text.displayAlignment), text.palette, true,
            text.text, QPalette::Text);
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

QSize RecoverableBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.data(m_barRole).isValid())
        size.setWidth(std::max(size.width() + 40, 120)); // room for the bar to be read
    return size;
}

} // namespace ridgeline::ui

#include "moc_recoverablebardelegate.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
