// SPDX-License-Identifier: MIT
#include "tablecopy.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QStringList>
#include <QTableView>
#include <algorithm>

namespace ridgeline::ui {

namespace {

QString clean(QString text)
{
    // A tab or newline inside a cell would shift the columns of the paste.
    return text.replace(u'\t', u' ').replace(u'\n', u' ');
}

} // namespace

QString selectedRowsAsText(const QAbstractItemView* view)
{
    const auto* model = view->model();
    if (!model || !view->selectionModel())
        return {};
    QModelIndexList rows = view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return {};
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });

    // Columns in the order the header shows them, hidden ones left out.
    QList<int> columns;
    const auto* table = qobject_cast<const QTableView*>(view);
    const QHeaderView* header = table ? table->horizontalHeader() : nullptr;
    for (int visual = 0; visual < model->columnCount(); ++visual) {
        const int logical = header ? header->logicalIndex(visual) : visual;
        if (!header || !header->isSectionHidden(logical))
            columns.append(logical);
    }
    QStringList lines;
    QStringList cells;
    for (int column : columns)
        cells.append(clean(model->headerData(column, Qt::Horizontal).toString()));
    lines.append(cells.join(u'\t'));
    for (const auto& row : rows) {
        cells.clear();
        for (int column : columns)
            cells.append(clean(model->index(row.row(), column).data().toString()));
        lines.append(cells.join(u'\t'));
    }
    return lines.join(u'\n') + u'\n';
}

} // namespace ridgeline::ui
