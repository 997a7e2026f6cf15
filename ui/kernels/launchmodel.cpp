// SPDX-License-Identifier: MIT
#include "launchmodel.h"

#include "common/columnheader.h"
#include "common/verdictcolors.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ridgeline::ui {

namespace {

const std::vector<core::KernelSummary> kNoSummaries;

// Rank of each text in sorted order, case-insensitive; equal texts are ordered by `tieBreak` where given.
std::vector<int> ranksOf(const std::vector<QString>& texts, const std::vector<QString>* tieBreak = nullptr)
{
    std::vector<int> order(texts.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const int c = QString::compare(texts[std::size_t(a)], texts[std::size_t(b)], Qt::CaseInsensitive);
        if (c != 0 || !tieBreak)
            return c < 0;
        return QString::compare((*tieBreak)[std::size_t(a)], (*tieBreak)[std::size_t(b)], Qt::CaseInsensitive) < 0;
    });
    std::vector<int> rank(texts.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        rank[std::size_t(order[i])] = static_cast<int>(i);
    return rank;
}

} // namespace

LaunchModel::LaunchModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void LaunchModel::setLaunches(SessionDocumentPtr document, std::vector<LaunchRow> rows)
{
    beginResetModel();
    m_document = std::move(document);
    m_timeline = m_document ? m_document->timeline.get() : nullptr;
    m_rows = std::move(rows);
    if (!m_timeline)
        std::vector<LaunchRow>().swap(m_rows);
    m_originNs = 0;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_originNs = i == 0 ? startOf(m_rows[i]) : std::min(m_originNs, startOf(m_rows[i]));
    cacheSummaryTexts();
    endResetModel();
}

void LaunchModel::cacheSummaryTexts()
{
    const auto& all = summaries();
    m_names.clear();
    m_shortNames.clear();
    m_devices.clear();
    m_verdicts.clear();
    for (const auto& s : all) {
        m_names.push_back(QString::fromStdString(s.name));
        m_shortNames.push_back(QString::fromStdString(s.displayName()));
        m_devices.push_back(s.deviceName.empty()
                ? QString::number(s.deviceId)
                : QStringLiteral("%1: %2").arg(s.deviceId).arg(QString::fromStdString(s.deviceName)));
        m_verdicts.push_back(QString::fromLatin1(core::toString(s.analysis.verdict)));
    }
    m_nameRank = ranksOf(m_shortNames, &m_names); // sorted as shown, kernels of one short name by full name
    m_verdictRank = ranksOf(m_verdicts);
}

const std::vector<core::KernelSummary>& LaunchModel::summaries() const
{
    return m_document ? m_document->report.kernels : kNoSummaries;
}

int LaunchModel::rowOf(std::int64_t nameId, std::int64_t deviceId, std::int64_t launchId) const
{
    if (launchId >= 0) {
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            if (idOf(m_rows[i]) == launchId)
                return static_cast<int>(i);
        }
        return -1;
    }
    const auto& all = summaries();
    const auto summary = std::find_if(all.begin(), all.end(),
        [&](const core::KernelSummary& s) { return s.nameId == nameId && s.deviceId == deviceId; });
    if (summary == all.end())
        return -1;
    const auto wanted = static_cast<std::int32_t>(summary - all.begin());
    const auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const LaunchRow& r) { return r.summary == wanted; });
    return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

int LaunchModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LaunchModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LaunchModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& row = m_rows[static_cast<std::size_t>(index.row())];
    const auto summary = static_cast<std::size_t>(row.summary);
    if (auto value = rowRoleData(summaries()[summary], idOf(row), role))
        return *value;
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        return static_cast<qlonglong>(sortKey(row, index.column()));
    case Qt::ToolTipRole:
        return index.column() == NameColumn ? m_names[summary]
                                            : QString::fromStdString(summaries()[summary].analysis.reason);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        return index.column() == VerdictColumn ? verdictCellData(summaries()[summary].analysis.verdict, role)
                                               : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == NameColumn || index.column() == VerdictColumn || index.column() == DeviceColumn)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant LaunchModel::display(const LaunchRow& row, int column) const
{
    const auto summary = static_cast<std::size_t>(row.summary);
    switch (column) {
    case StartColumn:
        return QString::fromStdString(core::formatDuration(static_cast<double>(startOf(row) - m_originNs)));
    case DurationColumn:
        return QString::fromStdString(core::formatDuration(static_cast<double>(endOf(row) - startOf(row))));
    case NameColumn:
        return m_shortNames[summary];
    case DeviceColumn:
        return m_devices[summary];
    case StreamColumn:
        return QString::number(streamOf(row));
    case VerdictColumn:
        return m_verdicts[summary];
    default:
        return {};
    }
}

std::int64_t LaunchModel::sortKey(const LaunchRow& row, int column) const
{
    const auto summary = static_cast<std::size_t>(row.summary);
    switch (column) {
    case StartColumn:
        return startOf(row);
    case DurationColumn:
        return endOf(row) - startOf(row);
    case NameColumn:
        return m_nameRank[summary];
    case DeviceColumn:
        return summaries()[summary].deviceId;
    case StreamColumn:
        return streamOf(row);
    case VerdictColumn:
        return m_verdictRank[summary];
    default:
        return 0;
    }
}

namespace {

// A launch with its sort key and start, read from the timeline once (not per comparison).
struct KeyedLaunch {
    std::int64_t key;
    std::int64_t startNs;
    LaunchRow row;
};

std::uint64_t opKey(const core::TimelineGpuOpRef& op)
{
    return (std::uint64_t { op.row } << 32U) | op.index;
}

} // namespace

void LaunchModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Persistent indexes (selection, current) follow their launch to its new row.
    const QModelIndexList before = persistentIndexList();
    std::vector<std::uint64_t> opsBefore;
    std::unordered_map<std::uint64_t, int> newRowOf;
    for (const auto& index : before) {
        opsBefore.push_back(opKey(m_rows[std::size_t(index.row())].op));
        newRowOf.emplace(opsBefore.back(), -1);
    }
    std::vector<KeyedLaunch> keyed;
    keyed.reserve(m_rows.size());
    for (const auto& r : m_rows)
        keyed.push_back({ sortKey(r, column), startOf(r), r });
    // Ties go in start order, then timeline order: equal keys stay in time order.
    std::sort(keyed.begin(), keyed.end(), [&](const KeyedLaunch& a, const KeyedLaunch& b) {
        if (a.key != b.key)
            return order == Qt::AscendingOrder ? a.key < b.key : a.key > b.key;
        if (a.startNs != b.startNs)
            return a.startNs < b.startNs;
        return opKey(a.row.op) < opKey(b.row.op);
    });
    for (std::size_t i = 0; i < keyed.size(); ++i)
        m_rows[i] = keyed[i].row;
    std::vector<KeyedLaunch>().swap(keyed);
    if (!newRowOf.empty()) {
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            if (auto it = newRowOf.find(opKey(m_rows[i].op)); it != newRowOf.end())
                it->second = static_cast<int>(i);
        }
        QModelIndexList after;
        for (qsizetype i = 0; i < before.size(); ++i)
            after.append(index(newRowOf[opsBefore[std::size_t(i)]], before[i].column()));
        changePersistentIndexList(before, after);
    }
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QVariant LaunchModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char* const kTitles[ColumnCount] = { QT_TR_NOOP("Start"), QT_TR_NOOP("Duration"), QT_TR_NOOP("Kernel"),
        QT_TR_NOOP("Kernel verdict"), QT_TR_NOOP("Device"), QT_TR_NOOP("Stream") };
    static const char* const kTips[ColumnCount]
        = { QT_TR_NOOP("Start time after the first launch of the session"), nullptr, nullptr,
              QT_TR_NOOP("The verdict of the kernel (name on its device) this launch belongs to"), nullptr, nullptr };
    return columnHeader(staticMetaObject.className(), kTitles, kTips, section, orientation, role).value_or(QVariant());
}

} // namespace ridgeline::ui

#include "moc_launchmodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
