// SPDX-License-Identifier: MIT
// The Cluster page: a whole job from its ranks' summaries (clusterloader.h). A line names the slow
// rank; a rank x time heat map shows busy, communication or idle time of every rank (as Nsight
// Systems' nccl_gpu_time_util_map); the per-rank table below is sortable, the slow ranks first.
// Clicking a rank on the map, or activating its row, asks for its own session to be opened
// (rankOpenRequested): one rank's launches are read only then.
#pragma once

#include "clusterloader.h"
#include "ridgeline/core/cluster/clustermap.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace ridgeline::ui {

class HeatMapView;
class RankTableModel;

class ClusterPage final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kHeatMapBins = 240;

    explicit ClusterPage(QWidget* parent = nullptr);

    // Null clears the page.
    void setDocument(ClusterDocumentPtr doc);
    ClusterDocumentPtr document() const { return m_doc; }

    void setValue(core::ClusterMapValue value);
    core::ClusterMapValue value() const;

    HeatMapView* heatMap() const { return m_heatMap; }
    RankTableModel* rankModel() const { return m_ranks; }
    QTableView* rankView() const { return m_rankView; }
    QLabel* summary() const { return m_summary; }

Q_SIGNALS:
    void rankOpenRequested(const QString& session, int rank);

private:
    void fillSummary();
    void drawMap();
    void openRow(int proxyRow);

    ClusterDocumentPtr m_doc;
    RankTableModel* m_ranks;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_rankView;
    HeatMapView* m_heatMap;
    QLabel* m_summary;
    QComboBox* m_value;
};

} // namespace ridgeline::ui
