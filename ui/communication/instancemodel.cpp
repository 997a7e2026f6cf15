// SPDX-License-Identifier: MIT
#include "instancemodel.h"

#include "common/displaytext.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>

namespace ridgeline::ui {

InstanceModel::InstanceModel(QObject* parent)
    : RowTableModel(kTitles, kTips, parent)
{ }

void InstanceModel::setInstances(std::vector<core::CollectiveInstance> instances, std::int64_t originNs)
{
    beginResetModel();
    m_rows = std::move(instances);
    m_origin = originNs;
    endResetModel();
}

std::int64_t InstanceModel::startOf(const core::CollectiveInstance& instance) const
{
    std::int64_t start = instance.members.empty() ? 0 : instance.members.front().startNs;
    for (const auto& m : instance.members)
        start = std::min(start, m.startNs);
    return start - m_origin;
}

QVariant InstanceModel::rowData(const core::CollectiveInstance& i, const QModelIndex& index, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case CollectiveColumn:
            return QString::fromStdString(i.collective);
        case IndexColumn:
            return QString::number(i.index);
        case StartColumn:
            return durationLabel(startOf(i));
        case StartSkewColumn:
            return durationLabel(i.startSkewNs);
        case EndSkewColumn:
            return durationLabel(i.endSkewNs);
        case LastRankColumn:
            return i.lastRank >= 0 ? QString::number(i.lastRank) : QStringLiteral("–");
        case RanksColumn:
            return QString::number(i.members.size());
        case ProcessGroupColumn:
            return i.processGroup.empty() ? QStringLiteral("–") : QString::fromStdString(i.processGroup);
        default:
            return {};
        }
    case SortRole:
        switch (index.column()) {
        case IndexColumn:
            return qint64(i.index);
        case StartColumn:
            return qint64(startOf(i));
        case StartSkewColumn:
            return qint64(i.startSkewNs);
        case EndSkewColumn:
            return qint64(i.endSkewNs);
        case LastRankColumn:
            return i.lastRank;
        case RanksColumn:
            return qint64(i.members.size());
        default:
            return data(index, Qt::DisplayRole);
        }
    case InstanceRole:
        return index.row();
    case Qt::ToolTipRole: {
        QString tip = tr("<b>%1 #%2</b>").arg(QString::fromStdString(i.collective).toHtmlEscaped()).arg(i.index);
        for (const auto& m : i.members)
            tip += QStringLiteral("<br>")
                + tr("rank %1: starts at %2, waits %3")
                      .arg(m.rank)
                      .arg(durationLabel(m.startNs - m_origin), durationLabel(m.waitNs));
        return tip;
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment((index.column() == CollectiveColumn || index.column() == ProcessGroupColumn ? Qt::AlignLeft
                                                                                                      : Qt::AlignRight)
                | Qt::AlignVCenter));
    default:
        return {};
    }
}

// QT_TR_NOOP: RowTableModel translates them in this class's context.
const char* const InstanceModel::kTitles[ColumnCount]
    = { QT_TR_NOOP("Collective"), QT_TR_NOOP("#"), QT_TR_NOOP("Start"), QT_TR_NOOP("Start skew"),
          QT_TR_NOOP("End skew"), QT_TR_NOOP("Last rank"), QT_TR_NOOP("Ranks"), QT_TR_NOOP("Process group") };
const char* const InstanceModel::kTips[ColumnCount] = {
    QT_TR_NOOP("The collective of this instance"),
    QT_TR_NOOP("Seq within the process group, or the instance's order in it when the trace has no Seq"),
    QT_TR_NOOP("When the first rank starts, from the start of the session's timeline"),
    QT_TR_NOOP("Latest start - earliest start: how long the first rank waits for the last"),
    QT_TR_NOOP("Latest end - earliest end"),
    QT_TR_NOOP("The rank that started last (none when every rank started at once)"),
    QT_TR_NOOP("Ranks seen in this instance"),
    QT_TR_NOOP("The process group, when the trace names it"),
};

} // namespace ridgeline::ui

#include "moc_instancemodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
