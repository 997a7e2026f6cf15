// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/model/model.h"

#include <QSet>
#include <QSortFilterProxyModel>
#include <optional>
#include <vector>

namespace ridgeline::ui {

class KernelRowSource;

// Filters kernel table rows by name text, verdict, device and rank. The source model must be a
// KernelRowSource: the filter is decided once per kernel summary and looked up per row, so a
// million launches filter in one pass of table lookups. With sortInSource the proxy hands
// sorting to the source model (LaunchModel sorts its compact vector far faster than a proxy).
class KernelFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit KernelFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;
    void setSortInSource(bool inSource) { m_sortInSource = inSource; }
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    void setTextFilter(const QString& text); // kernel name (demangled or mangled), case-insensitive
    void setVerdictFilter(std::optional<core::VerdictClass> verdict); // nullopt: every verdict
    void setDeviceFilter(std::optional<qint64> deviceId);
    void setRankFilter(std::optional<int> rank, const QSet<qint64>& devicesOfRank);
    QString textFilter() const { return m_text; }
    std::optional<core::VerdictClass> verdictFilter() const { return m_verdict; }
    void clearFilters();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool acceptsSummary(std::size_t index) const;
    void refilter();

    const KernelRowSource* m_rows = nullptr;
    bool m_sortInSource = false;
    QString m_text;
    std::optional<core::VerdictClass> m_verdict;
    std::optional<qint64> m_device;
    std::optional<int> m_rank;
    QSet<qint64> m_rankDevices;
    // Per summary: 0 unknown, 1 accepted, 2 rejected; cleared when a filter or the rows change.
    mutable std::vector<char> m_accepted;
    mutable const void* m_acceptedFor = nullptr;
};

} // namespace ridgeline::ui
