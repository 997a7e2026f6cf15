// SPDX-License-Identifier: MIT
// The Communication page: the rank that makes the others wait first (the ranks' waits and last
// arrivals), the collectives table (bus bandwidth against the link, as `ridgeline report --by
// collective`), the instances matched across ranks and a rank x time heat map of the time in
// collectives (as Nsight Systems' nccl_gpu_time_util_map). Selecting an instance emits
// instanceSelected, which the main window hands to the timeline to draw it across the ranks.
#pragma once

#include "session/sessiondocument.h"

#include <QWidget>
#include <optional>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace ridgeline::ui {

class CollectiveModel;
class HeatMapView;
class InstanceModel;
class RankWaitModel;

class CommunicationPage final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kHeatMapBins = 240;

    explicit CommunicationPage(QWidget* parent = nullptr);

    // Null clears the page.
    void setDocument(SessionDocumentPtr doc);

    CollectiveModel* collectiveModel() const { return m_collectives; }
    RankWaitModel* rankModel() const { return m_ranks; }
    InstanceModel* instanceModel() const { return m_instances; }
    QTableView* collectiveView() const { return m_collectiveView; }
    QTableView* rankView() const { return m_rankView; }
    QTableView* instanceView() const { return m_instanceView; }
    HeatMapView* heatMap() const { return m_heatMap; }
    QLabel* summary() const { return m_summary; }

    // Selects instance `index` (into the report's instances) in the table; -1 clears.
    void selectInstance(int index);
    // The most skewed instance (largest start skew); -1 when there is none.
    int mostSkewedInstance() const;
    std::optional<int> selectedInstance() const;

Q_SIGNALS:
    // An instance was selected (members empty: the selection was cleared).
    void instanceSelected(const ridgeline::core::CollectiveInstance& instance);
    // The user asked to see the selected instance on the timeline (double-click, Enter, the button).
    void showOnTimelineRequested();

private:
    void fillSummary();
    void instanceChanged();
    void selectInstanceNear(int heatMapRow, core::TimeWindow window);

    SessionDocumentPtr m_doc;
    CollectiveModel* m_collectives;
    RankWaitModel* m_ranks;
    InstanceModel* m_instances;
    QSortFilterProxyModel* m_collectiveProxy;
    QSortFilterProxyModel* m_rankProxy;
    QSortFilterProxyModel* m_instanceProxy;
    QTableView* m_collectiveView;
    QTableView* m_rankView;
    QTableView* m_instanceView;
    HeatMapView* m_heatMap;
    QLabel* m_summary;
    QLabel* m_instanceNote;
};

} // namespace ridgeline::ui
