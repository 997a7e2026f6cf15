// SPDX-License-Identifier: MIT
#include "clusterpage.h"

#include "common/heatmapview.h"
#include "common/timeticks.h"
#include "common/verdictcolors.h"
#include "ranktablemodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ridgeline::ui {

ClusterPage::ClusterPage(QWidget* parent)
    : QWidget(parent)
    , m_ranks(new RankTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_rankView(new QTableView(this))
    , m_heatMap(new HeatMapView(this))
    , m_summary(new QLabel(this))
    , m_value(new QComboBox(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_value->addItem(tr("Busy"), int(core::ClusterMapValue::Busy));
    m_value->addItem(tr("Communication"), int(core::ClusterMapValue::Communication));
    m_value->addItem(tr("Idle"), int(core::ClusterMapValue::Idle));
    m_value->setToolTip(tr("The share of each time bin shown for every rank"));
    connect(m_value, &QComboBox::currentIndexChanged, this, &ClusterPage::drawMap);

    m_proxy->setSourceModel(m_ranks);
    m_proxy->setSortRole(RankTableModel::SortRole);
    m_rankView->setModel(m_proxy);
    m_rankView->setSortingEnabled(true);
    m_rankView->sortByColumn(-1, Qt::AscendingOrder); // the model's order: slow ranks first
    m_rankView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rankView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_rankView->verticalHeader()->hide();
    m_rankView->horizontalHeader()->setStretchLastSection(true);
    m_rankView->setAlternatingRowColors(true);
    connect(m_rankView, &QTableView::activated, this, [this](const QModelIndex& index) { openRow(index.row()); });

    m_heatMap->setToolTip(tr("Click a rank to open its timeline"));
    connect(m_heatMap, &HeatMapView::cellClicked, this, [this](int row, core::TimeWindow) {
        if (!m_doc || row < 0 || static_cast<std::size_t>(row) >= m_doc->report.ranks.size())
            return;
        const int sourceRow = m_ranks->rowOfRank(m_doc->report.ranks[static_cast<std::size_t>(row)].summary.rank);
        const auto proxyIndex = m_proxy->mapFromSource(m_ranks->index(sourceRow, 0));
        m_rankView->selectRow(proxyIndex.row());
        openRow(proxyIndex.row());
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(m_value);
    bar->addStretch(1);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(bar);
    topLayout->addWidget(m_heatMap, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_rankView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    setDocument(nullptr);
}

void ClusterPage::setDocument(ClusterDocumentPtr doc)
{
    m_doc = std::move(doc);
    m_ranks->setReport(m_doc ? &m_doc->report : nullptr);
    m_rankView->sortByColumn(-1, Qt::AscendingOrder);
    m_rankView->resizeColumnsToContents();
    fillSummary();
    drawMap();
}

void ClusterPage::setValue(core::ClusterMapValue value)
{
    m_value->setCurrentIndex(m_value->findData(int(value)));
}

core::ClusterMapValue ClusterPage::value() const
{
    return static_cast<core::ClusterMapValue>(m_value->currentData().toInt());
}

void ClusterPage::fillSummary()
{
    if (!m_doc) {
        m_summary->setText(tr("Open a folder of rank sessions, or several sessions at once, with File ▸ Open "
                              "Cluster: every rank of the job at a glance, the slow rank first."));
        return;
    }
    const auto& r = m_doc->report;
    QString text = tr("%n rank(s) in %1 session(s)", nullptr, static_cast<int>(r.ranks.size())).arg(m_doc->sessions);
    if (m_doc->fromStored > 0)
        text += tr(" (%1 from stored summaries)").arg(m_doc->fromStored);
    text += tr("; %n collective instance(s) matched across ranks.", nullptr, static_cast<int>(r.instances));
    if (!r.slowRanks.empty()) {
        const auto& slow = r.slowRanks.front();
        text += QLatin1Char(' ')
            + tr("Rank %1 makes the others wait: it starts last in %2 instance(s), %3 in all after the earliest rank.")
                  .arg(slow.rank)
                  .arg(slow.instances)
                  .arg(durationText(static_cast<double>(slow.lateNs)));
    }
    if (!r.warnings.empty())
        text += QLatin1Char(' ')
            + tr("%n warning(s): %1", nullptr, static_cast<int>(r.warnings.size()))
                  .arg(QString::fromStdString(r.warnings.front()));
    m_summary->setText(text);
}

void ClusterPage::drawMap()
{
    const auto v = value();
    m_heatMap->setColor(v == core::ClusterMapValue::Communication ? verdictColor(core::VerdictClass::CommunicationBound)
            : v == core::ClusterMapValue::Idle                    ? palette().color(QPalette::Mid)
                                                                  : verdictColor(core::VerdictClass::ComputeBound));
    m_heatMap->setValueName(v == core::ClusterMapValue::Busy ? tr("busy")
            : v == core::ClusterMapValue::Communication      ? tr("in collectives")
                                                             : tr("idle"));
    if (!m_doc) {
        m_heatMap->setMap({});
        m_heatMap->setHighlightedRow(-1);
        return;
    }
    m_heatMap->setMap(core::clusterActivityMap(m_doc->report, v, kHeatMapBins));
    int slowRow = -1;
    if (!m_doc->report.slowRanks.empty()) {
        const auto& ranks = m_doc->report.ranks;
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            if (ranks[i].summary.rank == m_doc->report.slowRanks.front().rank)
                slowRow = static_cast<int>(i);
        }
    }
    m_heatMap->setHighlightedRow(slowRow);
}

void ClusterPage::openRow(int proxyRow)
{
    const auto index = m_proxy->index(proxyRow, 0);
    if (!index.isValid())
        return;
    Q_EMIT rankOpenRequested(
        index.data(RankTableModel::SessionRole).toString(), index.data(RankTableModel::RankRole).toInt());
}

} // namespace ridgeline::ui

#include "moc_clusterpage.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
