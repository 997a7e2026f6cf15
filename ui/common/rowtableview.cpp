// SPDX-License-Identifier: MIT
#include "rowtableview.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace ridgeline::ui {

QTableView* makeRowTableView(QWidget* parent, QAbstractItemModel* model)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSortIndicatorShown(true);
    view->setWordWrap(false);
    return view;
}

QSortFilterProxyModel* makeSortProxy(QObject* parent, QAbstractItemModel* source)
{
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setSortRole(Qt::UserRole);
    return proxy;
}

} // namespace ridgeline::ui
