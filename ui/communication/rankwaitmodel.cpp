// SPDX-License-Identifier: MIT
#include "rankwaitmodel.h"

#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"

#include <QFont>

namespace ridgeline::ui {

namespace {

double averageWait(const core::RankWait& w)
{
    return w.instances > 0 ? static_cast<double>(w.waitNs) / static_cast<double>(w.instances) : 0.0;
}

} // namespace

RankWaitModel::RankWaitModel(QObject* parent)
    : RowTableModel(kTitles, kTips, parent)
{ }

int RankWaitModel::slowRank() const
{
    return !m_rows.empty() && m_rows.front().lastArrivals > 0 ? m_rows.front().rank : -1;
}

QVariant RankWaitModel::rowData(const core::RankWait& w, const QModelIndex& index, int role) const
{
    const bool slow = w.rank == slowRank();
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case RankColumn:
            return slow ? tr("%1 (arrives last)").arg(w.rank) : QString::number(w.rank);
        case LastArrivalsColumn:
            return tr("%1 of %2").arg(w.lastArrivals).arg(w.instances);
        case WaitedColumn:
            return durationLabel(static_cast<double>(w.waitNs));
        case AverageWaitColumn:
            return durationLabel(averageWait(w));
        case InstancesColumn:
            return QString::number(w.instances);
        default:
            return {};
        }
    case SortRole:
        switch (index.column()) {
        case RankColumn:
            return w.rank;
        case LastArrivalsColumn:
            return qint64(w.lastArrivals);
        case WaitedColumn:
            return qint64(w.waitNs);
        case AverageWaitColumn:
            return averageWait(w);
        case InstancesColumn:
            return qint64(w.instances);
        default:
            return {};
        }
    case RankRole:
        return w.rank;
    case Qt::FontRole:
        if (slow) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        return slow ? tr("Rank %1 starts last in %2 of %3 collective instances: the other ranks wait for it.")
                          .arg(w.rank)
                          .arg(w.lastArrivals)
                          .arg(w.instances)
                    : tr("Rank %1 waited %2 in all for later ranks (%3 per instance).")
                          .arg(w.rank)
                          .arg(durationLabel(static_cast<double>(w.waitNs)), durationLabel(averageWait(w)));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment((index.column() == RankColumn ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    default:
        return {};
    }
}

// QT_TR_NOOP: RowTableModel translates them in this class's context.
const char* const RankWaitModel::kTitles[ColumnCount] = { QT_TR_NOOP("Rank"), QT_TR_NOOP("Last arrivals"),
    QT_TR_NOOP("Waited"), QT_TR_NOOP("Wait per instance"), QT_TR_NOOP("Instances") };
const char* const RankWaitModel::kTips[ColumnCount] = {
    QT_TR_NOOP("The rank that arrives last most often comes first"),
    QT_TR_NOOP("Instances at which this rank started last, of those it took part in"),
    QT_TR_NOOP("Time this rank waited for later ranks: latest start - its start, summed (TraceLens)"),
    QT_TR_NOOP("Waited / instances"),
    QT_TR_NOOP("Collective instances matched across ranks that this rank took part in"),
};

} // namespace ridgeline::ui

#include "moc_rankwaitmodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
