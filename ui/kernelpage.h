// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/kernelsummary.h"

#include <QWidget>
#include <vector>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace ridgeline::ui {

class KernelModel;

// The kernel table: one row per kernel name and device, sortable, filterable by name.
class KernelPage final : public QWidget {
    Q_OBJECT
public:
    explicit KernelPage(QWidget* parent = nullptr);

    void setRows(std::vector<core::KernelSummary> rows);
    QTableView* view() const { return m_view; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

private:
    KernelModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTableView* m_view;
};

} // namespace ridgeline::ui
