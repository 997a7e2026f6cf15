// SPDX-License-Identifier: MIT
// Draws a horizontal bar behind a cell's text, as long as the cell's share (a 0..1 number in
// `barRole`) of the column's width: the Opportunities page's recoverable time against the largest.
#pragma once

#include <QStyledItemDelegate>

namespace ridgeline::ui {

class RecoverableBarDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    RecoverableBarDelegate(int barRole, QObject* parent);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_barRole;
};

} // namespace ridgeline::ui
