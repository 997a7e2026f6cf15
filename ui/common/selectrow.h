// SPDX-License-Identifier: MIT
// Following the one selection in a table or tree view.
#pragma once

#include <QAbstractItemView>
#include <QItemSelectionModel>

namespace ridgeline::ui {

// Makes the row of `index` the current and only selected row of `view` and scrolls to it; an
// invalid index clears the selection.
inline void selectRow(QAbstractItemView* view, const QModelIndex& index)
{
    if (index.isValid()) {
        view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        view->scrollTo(index);
    } else {
        view->selectionModel()->clear();
    }
}

} // namespace ridgeline::ui
