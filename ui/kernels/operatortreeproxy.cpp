// SPDX-License-Identifier: MIT
#include "operatortreeproxy.h"

#include "kernelrowsource.h"
#include "operatortreemodel.h"

namespace ridgeline::ui {

OperatorTreeProxy::OperatorTreeProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
    setRecursiveFilteringEnabled(true);
}

void OperatorTreeProxy::setFilters(const QString& text, std::optional<core::VerdictClass> verdict,
    std::optional<qint64> device, std::optional<QSet<qint64>> rankDevices)
{
    if (text == m_text && verdict == m_verdict && device == m_device && rankDevices == m_rankDevices)
        return;
    m_text = text;
    m_verdict = verdict;
    m_device = device;
    m_rankDevices = std::move(rankDevices);
    invalidateFilter();
}

bool OperatorTreeProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* model = sourceModel();
    if (!sourceParent.isValid()) // a group: kept when one of its rows is (recursive filtering)
        return false;
    const QModelIndex row = model->index(sourceRow, OperatorTreeModel::NameColumn, sourceParent);
    const qint64 deviceId = model->index(sourceRow, OperatorTreeModel::DeviceColumn, sourceParent)
                                .data(SortRole)
                                .toLongLong();
    const bool kernel = row.data(NameIdRole).toLongLong() >= 0;
    if (m_device && deviceId != *m_device)
        return false;
    if (m_rankDevices && !m_rankDevices->contains(deviceId))
        return false;
    if (m_verdict && (!kernel || verdictOfRow(row) != m_verdict))
        return false;
    if (m_text.isEmpty())
        return true;
    return row.data().toString().contains(m_text, Qt::CaseInsensitive)
        || row.data(Qt::ToolTipRole).toString().contains(m_text, Qt::CaseInsensitive)
        || row.data(MangledNameRole).toString().contains(m_text, Qt::CaseInsensitive)
        || sourceParent.data().toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace ridgeline::ui

#include "moc_operatortreeproxy.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
