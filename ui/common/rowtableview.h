// SPDX-License-Identifier: MIT
// A table of rows as the pages show them: sortable, one row selected at a time, read-only, no row
// header, alternating colours, the last column taking the rest of the width; and its sorting proxy.
#pragma once

class QAbstractItemModel;
class QObject;
class QSortFilterProxyModel;
class QTableView;
class QWidget;

namespace ridgeline::ui {

QTableView* makeRowTableView(QWidget* parent, QAbstractItemModel* model);
// A proxy that sorts `source` by its Qt::UserRole (the flat table models' SortRole).
QSortFilterProxyModel* makeSortProxy(QObject* parent, QAbstractItemModel* source);

} // namespace ridgeline::ui
