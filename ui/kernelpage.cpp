// SPDX-License-Identifier: MIT
#include "kernelpage.h"

#include "kernelmodel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ridgeline::ui {

KernelPage::KernelPage(QWidget* parent)
    : QWidget(parent)
    , m_model(new KernelModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(KernelModel::SortRole);
    m_proxy->setFilterKeyColumn(KernelModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setPlaceholderText(tr("Filter kernels by name…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(KernelModel::TotalColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
}

void KernelPage::setRows(std::vector<core::KernelSummary> rows)
{
    m_model->setRows(std::move(rows));
    m_view->resizeColumnsToContents();
    // Long template names are elided in the middle; the full name is in the tooltip.
    m_view->setColumnWidth(KernelModel::NameColumn, std::min(m_view->columnWidth(KernelModel::NameColumn), 420));
}

} // namespace ridgeline::ui
