// SPDX-License-Identifier: MIT
// The roofline page: the chart and its toolbar (device, rank, combined or per-precision points,
// colour by verdict or by operator, memory levels, zoom reset), and a line saying which kernels are not on the chart and why. Below
// it, when the session has collectives with message sizes, their bus bandwidth against the link
// roof (collectivechartview.h).
#pragma once

#include "common/chartexporter.h"
#include "common/selectionmodel.h"
#include "session/sessiondocument.h"

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QSplitter;

namespace ridgeline::ui {

class CollectiveChartView;
class RooflineView;

class RooflinePage final : public QWidget, public ChartExporter {
    Q_OBJECT
public:
    explicit RooflinePage(SelectionModel* selection, QWidget* parent = nullptr);

    void setDocument(SessionDocumentPtr doc);
    void setBaseline(SessionDocumentPtr baseline);
    bool exportImage(const QString& path) override;
    QWidget* exportWidget();

    RooflineView* view() const { return m_view; }
    CollectiveChartView* collectiveChart() const { return m_collectives; }
    QComboBox* deviceFilter() const { return m_device; }
    QComboBox* rankFilter() const { return m_rank; }
    QComboBox* pointMode() const { return m_mode; }
    QComboBox* pointSource() const { return m_source; } // kernels, or PyTorch operator shapes
    QComboBox* colouring() const { return m_colour; } // by verdict, or by PyTorch operator
    QAction* levelAction(const QString& level) const; // "DRAM", "L2", "L1"
    QLabel* status() const { return m_status; }

private:
    void applyFilter();
    void applyLevels();
    void updateStatus();

    SessionDocumentPtr m_doc;
    RooflineView* m_view;
    CollectiveChartView* m_collectives;
    QSplitter* m_charts;
    QComboBox* m_device;
    QComboBox* m_rank;
    QComboBox* m_source;
    QComboBox* m_mode;
    QComboBox* m_colour;
    QList<QAction*> m_levels;
    QLabel* m_status;
};

} // namespace ridgeline::ui
