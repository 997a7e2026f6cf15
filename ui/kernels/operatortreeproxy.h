// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/model/model.h"

#include <QSet>
#include <QSortFilterProxyModel>
#include <optional>

namespace ridgeline::ui {

// Sorts and filters the operator tree (OperatorTreeModel) with the kernel table's filters: a kernel
// row stays when its name (or its group's name) holds the text and its verdict, device and rank
// match; a copy row only without verdict, device or rank filter; a group stays while any of its
// rows does (recursive filtering).
class OperatorTreeProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit OperatorTreeProxy(QObject* parent = nullptr);

    void setFilters(const QString& text, std::optional<core::VerdictClass> verdict, std::optional<qint64> device,
        std::optional<QSet<qint64>> rankDevices);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    std::optional<core::VerdictClass> m_verdict;
    std::optional<qint64> m_device;
    std::optional<QSet<qint64>> m_rankDevices;
};

} // namespace ridgeline::ui
