// SPDX-License-Identifier: MIT
#include "ranktablemodel.h"

#include "common/timeticks.h"

#include <QFileInfo>
#include <QFont>
#include <algorithm>
#include <limits>
#include <map>

namespace ridgeline::ui {

namespace {

QString share(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? QStringLiteral("%1 (%2 %)")
                           .arg(durationText(static_cast<double>(part)))
                           .arg(100.0 * static_cast<double>(part) / static_cast<double>(whole), 0, 'f', 0)
                     : durationText(static_cast<double>(part));
}

} // namespace

RankTableModel::RankTableModel(QObject* parent)
    : RowTableModel(kTitles, kTips, parent)
{ }

void RankTableModel::setReport(const core::ClusterReport* report)
{
    beginResetModel();
    m_rows.clear();
    if (report) {
        std::map<int, std::pair<const core::SlowRank*, int>> slow;
        for (std::size_t i = 0; i < report->slowRanks.size(); ++i)
            slow[report->slowRanks[i].rank] = { &report->slowRanks[i], static_cast<int>(i) };
        for (const auto& rank : report->ranks) {
            auto it = slow.find(rank.summary.rank);
            m_rows.push_back({ &rank, it != slow.end() ? it->second.first : nullptr,
                it != slow.end() ? it->second.second : std::numeric_limits<int>::max() });
        }
        // The slow ranks first, worst first; then by rank.
        std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) {
            return a.slowOrder != b.slowOrder ? a.slowOrder < b.slowOrder : a.rank->summary.rank < b.rank->summary.rank;
        });
    }
    endResetModel();
}

int RankTableModel::rowOfRank(int rank) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].rank->summary.rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

QVariant RankTableModel::display(const Row& row, int column) const
{
    const auto& s = row.rank->summary;
    switch (column) {
    case RankColumn:
        return s.rank < 0 ? tr("(no rank)") : QString::number(s.rank);
    case HostColumn:
        return QString::fromStdString(s.host);
    case LateColumn:
        return row.slow
            ? tr("%1 in %2 instances").arg(durationText(static_cast<double>(row.slow->lateNs))).arg(row.slow->instances)
            : QString();
    case CommWaitColumn:
        return durationText(static_cast<double>(row.rank->commWaitNs));
    case SpanColumn:
        return durationText(static_cast<double>(s.spanNs));
    case BusyColumn:
        return share(s.busyNs, s.spanNs);
    case IdleColumn:
        return share(s.idleNs, s.spanNs);
    case ComputeColumn:
        return share(s.computeNs, s.spanNs);
    case CommunicationColumn:
        return share(s.communicationNs, s.spanNs);
    case RecoverableColumn:
        return s.rankedNs > 0 ? share(s.recoverableNs, s.rankedNs) : QStringLiteral("-");
    case TopKernelColumn:
        return s.topKernels.empty() ? QString()
                                    : tr("%1 (%2)").arg(QString::fromStdString(s.topKernels.front().name),
                                        durationText(static_cast<double>(s.topKernels.front().timeNs)));
    case SessionColumn:
        return QFileInfo(QString::fromStdString(s.session)).fileName();
    default:
        return {};
    }
}

QVariant RankTableModel::sortKey(const Row& row, int column) const
{
    const auto& s = row.rank->summary;
    switch (column) {
    case RankColumn:
        return s.rank;
    case HostColumn:
        return QString::fromStdString(s.host);
    case LateColumn:
        return qint64(row.slow ? row.slow->lateNs : 0);
    case CommWaitColumn:
        return qint64(row.rank->commWaitNs);
    case SpanColumn:
        return qint64(s.spanNs);
    case BusyColumn:
        return qint64(s.busyNs);
    case IdleColumn:
        return qint64(s.idleNs);
    case ComputeColumn:
        return qint64(s.computeNs);
    case CommunicationColumn:
        return qint64(s.communicationNs);
    case RecoverableColumn:
        return qint64(s.recoverableNs);
    case TopKernelColumn:
        return qint64(s.topKernels.empty() ? 0 : s.topKernels.front().timeNs);
    case SessionColumn:
        return QString::fromStdString(s.session);
    default:
        return {};
    }
}

QVariant RankTableModel::rowData(const Row& row, const QModelIndex& index, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        return sortKey(row, index.column());
    case RankRole:
        return row.rank->summary.rank;
    case SessionRole:
        return QString::fromStdString(row.rank->summary.session);
    case Qt::FontRole:
        if (row.slowOrder == 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == SessionColumn)
            return QString::fromStdString(row.rank->summary.session);
        if (row.slow)
            return tr("Rank %1 started last in %2 collective instances, %3 in all after the earliest rank: the "
                      "others wait for it. Double-click to open its timeline.")
                .arg(row.rank->summary.rank)
                .arg(row.slow->instances)
                .arg(durationText(static_cast<double>(row.slow->lateNs)));
        return tr("Double-click to open rank %1's timeline.").arg(row.rank->summary.rank);
    case Qt::TextAlignmentRole: {
        const bool text = index.column() == RankColumn || index.column() == HostColumn
            || index.column() == TopKernelColumn || index.column() == SessionColumn;
        return QVariant::fromValue(Qt::Alignment((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    }
    default:
        return {};
    }
}

// QT_TR_NOOP: RowTableModel translates them in this class's context.
const char* const RankTableModel::kTitles[ColumnCount] = { QT_TR_NOOP("Rank"), QT_TR_NOOP("Host"), QT_TR_NOOP("Late"),
    QT_TR_NOOP("Comm wait"), QT_TR_NOOP("Span"), QT_TR_NOOP("Busy"), QT_TR_NOOP("Idle"), QT_TR_NOOP("Compute"),
    QT_TR_NOOP("Communication"), QT_TR_NOOP("Recoverable"), QT_TR_NOOP("Top kernel"), QT_TR_NOOP("Session") };
const char* const RankTableModel::kTips[ColumnCount] = {
    QT_TR_NOOP("The ranks that make the others wait come first, worst first"),
    QT_TR_NOOP("The host the rank ran on"),
    QT_TR_NOOP("Where this rank started a collective instance last: how long after the earliest rank, summed"),
    QT_TR_NOOP("Time this rank waited in collectives for later ranks"),
    QT_TR_NOOP("First GPU op start to last GPU op end, summed over the rank's GPUs"),
    QT_TR_NOOP("Time some op ran on the rank's GPUs (share of the span)"),
    QT_TR_NOOP("Span - busy"),
    QT_TR_NOOP("Time compute kernels ran"),
    QT_TR_NOOP("Time collectives ran"),
    QT_TR_NOOP("GPU time the rank's operators, kernels and copies would give back at their roofs (share of the GPU "
               "time that has a roof; the Opportunities page ranks them)"),
    QT_TR_NOOP("The kernel with the most time on this rank"),
    QT_TR_NOOP("The session file the rank came from"),
};

} // namespace ridgeline::ui

#include "moc_ranktablemodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
