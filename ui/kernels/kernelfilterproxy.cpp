// SPDX-License-Identifier: MIT
#include "kernelfilterproxy.h"

#include "kernelrowsource.h"

namespace ridgeline::ui {

KernelFilterProxy::KernelFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
}

void KernelFilterProxy::setSourceModel(QAbstractItemModel* model)
{
    m_rows = dynamic_cast<const KernelRowSource*>(model);
    Q_ASSERT(model == nullptr || m_rows != nullptr);
    m_accepted.clear();
    // Summaries change with a reset: drop the cache before the proxy asks again.
    if (model)
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_accepted.clear(); });
    QSortFilterProxyModel::setSourceModel(model);
}

void KernelFilterProxy::sort(int column, Qt::SortOrder order)
{
    if (m_sortInSource && sourceModel()) {
        sourceModel()->sort(column, order);
        return;
    }
    QSortFilterProxyModel::sort(column, order);
}

void KernelFilterProxy::setTextFilter(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    refilter();
}

void KernelFilterProxy::setVerdictFilter(std::optional<core::VerdictClass> verdict)
{
    if (verdict == m_verdict)
        return;
    m_verdict = verdict;
    refilter();
}

void KernelFilterProxy::setDeviceFilter(std::optional<qint64> deviceId)
{
    if (deviceId == m_device)
        return;
    m_device = deviceId;
    refilter();
}

void KernelFilterProxy::setRankFilter(std::optional<int> rank, const QSet<qint64>& devicesOfRank)
{
    if (rank == m_rank && devicesOfRank == m_rankDevices)
        return;
    m_rank = rank;
    m_rankDevices = devicesOfRank;
    refilter();
}

void KernelFilterProxy::clearFilters()
{
    m_text.clear();
    m_verdict.reset();
    m_device.reset();
    m_rank.reset();
    m_rankDevices.clear();
    refilter();
}

void KernelFilterProxy::refilter()
{
    m_accepted.clear();
    invalidateFilter();
}

bool KernelFilterProxy::acceptsSummary(std::size_t index) const
{
    const auto& s = m_rows->summaries()[index];
    if (m_device && s.deviceId != *m_device)
        return false;
    if (m_rank && !m_rankDevices.contains(s.deviceId))
        return false;
    if (m_verdict && s.analysis.verdict != *m_verdict)
        return false;
    if (!m_text.isEmpty() && !QString::fromStdString(s.name).contains(m_text, Qt::CaseInsensitive)
        && !QString::fromStdString(s.mangledName).contains(m_text, Qt::CaseInsensitive))
        return false;
    return true;
}

bool KernelFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (sourceParent.isValid() || !m_rows)
        return false;
    // The plain QSortFilterProxyModel filter (setFilterFixedString and friends) applies as well.
    if (!filterRegularExpression().pattern().isEmpty()
        && !QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent))
        return false;
    const auto& summaries = m_rows->summaries();
    if (m_acceptedFor != summaries.data() || m_accepted.size() != summaries.size()) {
        m_accepted.assign(summaries.size(), 0);
        m_acceptedFor = summaries.data();
    }
    const auto index = static_cast<std::size_t>(m_rows->summaryIndex(sourceRow));
    char& decided = m_accepted[index];
    if (decided == 0)
        decided = acceptsSummary(index) ? 1 : 2;
    return decided == 1;
}

} // namespace ridgeline::ui

#include "moc_kernelfilterproxy.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
