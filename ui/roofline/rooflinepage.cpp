// SPDX-License-Identifier: MIT
#include "rooflinepage.h"

#include "collectivechartview.h"
#include "rooflineview.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>
#include <map>
#include <set>

namespace ridgeline::ui {

namespace {

constexpr qint64 kNoDevice = -1; // a device id no session has: the filter matches nothing

} // namespace

RooflinePage::RooflinePage(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_view(new RooflineView(selection, this))
    , m_collectives(new CollectiveChartView(this))
    , m_charts(new QSplitter(Qt::Vertical, this))
    , m_device(new QComboBox(this))
    , m_rank(new QComboBox(this))
    , m_source(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_colour(new QComboBox(this))
    , m_status(new QLabel(this))
{
    auto* toolbar = new QToolBar(this);
    toolbar->addWidget(new QLabel(tr("GPU "), toolbar));
    toolbar->addWidget(m_device);
    toolbar->addWidget(new QLabel(tr("  Rank "), toolbar));
    toolbar->addWidget(m_rank);
    toolbar->addWidget(new QLabel(tr("  Points "), toolbar));
    m_source->addItem(tr("Kernels"), int(RooflinePoints::Kernels));
    m_source->addItem(tr("Operators"), int(RooflinePoints::Operators));
    m_source->setToolTip(tr("Kernels: one point per kernel (name and device). Operators: one point per PyTorch "
                            "operator, input dims and types, its FLOPs and bytes worked out from its shapes (hollow: "
                            "from shapes, not counted; traces recorded with record_shapes=True)."));
    toolbar->addWidget(m_source);
    m_mode->addItem(tr("Combined"), int(core::RooflinePointMode::Combined));
    m_mode->addItem(tr("Per precision"), int(core::RooflinePointMode::PerPrecision));
    m_mode->setToolTip(tr("Combined: one point per kernel and memory level, all its FLOPs against the ceiling of "
                          "its precision mix. Per precision: one point per precision (FP32, FP16 tensor, ...)."));
    toolbar->addWidget(m_mode);
    toolbar->addWidget(new QLabel(tr("  Colour "), toolbar));
    m_colour->addItem(tr("Verdict"), int(RooflineColouring::Verdict));
    m_colour->addItem(tr("Operator"), int(RooflineColouring::Operator));
    m_colour->setToolTip(tr("Verdict: what bounds each kernel. Operator: the PyTorch operator that launched most of "
                            "each kernel's GPU time (sessions imported from PyTorch profiler traces)."));
    toolbar->addWidget(m_colour);
    toolbar->addSeparator();
    for (const char* level : { "DRAM", "L2", "L1" }) {
        auto* action = toolbar->addAction(QLatin1String(level));
        action->setCheckable(true);
        action->setChecked(true);
        action->setToolTip(tr("Kernel points against %1 traffic").arg(QLatin1String(level)));
        connect(action, &QAction::toggled, this, &RooflinePage::applyLevels);
        m_levels.append(action);
    }
    toolbar->addSeparator();
    auto* reset = toolbar->addAction(tr("Reset zoom"));
    reset->setToolTip(tr("Show the whole chart again (or double-click it); drag a rectangle to zoom in"));
    connect(reset, &QAction::triggered, m_view, &RooflineView::resetZoom);

    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar);
    m_charts->addWidget(m_view);
    m_charts->addWidget(m_collectives);
    layout->addWidget(m_charts, 1);
    layout->addWidget(m_status);

    connect(m_device, &QComboBox::currentIndexChanged, this, &RooflinePage::applyFilter);
    connect(m_rank, &QComboBox::currentIndexChanged, this, &RooflinePage::applyFilter);
    connect(m_mode, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setPointMode(core::RooflinePointMode(m_mode->currentData().toInt())); });
    connect(m_source, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setPointSource(RooflinePoints(m_source->currentData().toInt())); });
    connect(m_colour, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setColouring(RooflineColouring(m_colour->currentData().toInt())); });
    connect(m_view, &RooflineView::chartRebuilt, this, &RooflinePage::updateStatus);
    setDocument(nullptr);
}

void RooflinePage::setDocument(SessionDocumentPtr doc)
{
    m_doc = std::move(doc);
    const QSignalBlocker deviceBlock(m_device), rankBlock(m_rank);
    m_device->clear();
    m_rank->clear();
    m_device->addItem(tr("All"), kNoDevice);
    m_rank->addItem(tr("All"), -1);
    if (m_doc) {
        for (const auto& d : m_doc->report.devices) {
            QString label = tr("%1: %2").arg(d.ordinal).arg(QString::fromStdString(d.name));
            if (!d.host.empty())
                label += QStringLiteral(" (%1)").arg(QString::fromStdString(d.host));
            m_device->addItem(label, qint64(d.id));
        }
        std::set<int> ranks;
        for (const auto& t : m_doc->report.timeline) {
            if (t.rank >= 0)
                ranks.insert(t.rank);
        }
        for (const int rank : ranks)
            m_rank->addItem(QString::number(rank), rank);
    }
    m_device->setEnabled(m_device->count() > 2);
    m_rank->setEnabled(m_rank->count() > 2);
    m_colour->setEnabled(m_doc && m_doc->operators);
    m_source->setEnabled(m_doc && m_doc->operators && !m_doc->operators->shapePoints.empty());
    m_view->setDocument(m_doc);
    m_collectives->setDocument(m_doc);
    m_collectives->setVisible(!m_collectives->chartModel().empty());
    // Without kernel points the collectives get the larger share.
    const bool kernels = !m_view->chartModel().points.empty();
    m_charts->setSizes({ kernels ? 3000 : 2000, kernels ? 2000 : 3000 });
}

void RooflinePage::setBaseline(SessionDocumentPtr baseline)
{
    m_view->setBaseline(std::move(baseline));
}

bool RooflinePage::exportImage(const QString& path)
{
    return m_view->exportImage(path);
}

QWidget* RooflinePage::exportWidget()
{
    return m_view;
}

QAction* RooflinePage::levelAction(const QString& level) const
{
    for (auto* action : m_levels) {
        if (action->text() == level)
            return action;
    }
    return nullptr;
}

void RooflinePage::applyFilter()
{
    std::vector<qint64> devices;
    const qint64 device = m_device->currentData().toLongLong();
    const int rank = m_rank->currentData().toInt();
    if (device != kNoDevice)
        devices.push_back(device);
    if (rank >= 0 && m_doc) {
        // The devices this rank ran on (the timeline analysis knows each device's rank).
        std::vector<qint64> ofRank;
        for (const auto& t : m_doc->report.timeline) {
            if (t.rank == rank && (device == kNoDevice || t.deviceId == device))
                ofRank.push_back(t.deviceId);
        }
        devices = ofRank.empty() ? std::vector<qint64> { kNoDevice } : ofRank;
    }
    m_view->setDeviceFilter(std::move(devices));
}

void RooflinePage::applyLevels()
{
    std::vector<std::string> levels;
    for (auto* action : m_levels) {
        if (action->isChecked())
            levels.push_back(action->text().toStdString());
    }
    m_view->setLevels(std::move(levels));
}

void RooflinePage::updateStatus()
{
    if (!m_doc) {
        m_status->setText(tr("No session open."));
        return;
    }
    const auto& chart = m_view->chartModel();
    std::set<std::size_t> plotted;
    for (const auto& p : chart.points)
        plotted.insert(p.kernel);
    std::map<std::string, int> reasons;
    for (const auto& u : chart.unplotted)
        ++reasons[u.reason];
    const bool operators = m_view->showsOperators();
    QString text = operators
        ? tr("%n operator shape(s) on the chart as %1 point(s), hollow (from shapes), sized by their share of kernel "
             "time.",
            nullptr, int(plotted.size()))
              .arg(chart.points.size())
        : tr("%n kernel(s) on the chart as %1 point(s), sized by their share of kernel time.", nullptr,
            int(plotted.size()))
              .arg(chart.points.size());
    for (const auto& [reason, count] : reasons)
        text += QLatin1Char(' ')
            + (operators ? tr("%n operator shape(s) not on the chart: %1.", nullptr, count)
                         : tr("%n kernel(s) not on the chart: %1.", nullptr, count))
                  .arg(QString::fromStdString(reason));
    if (!m_view->arrows().empty())
        text += QLatin1Char(' ') + tr("%n arrow(s) from the baseline session.", nullptr, int(m_view->arrows().size()));
    m_status->setText(text);
}

} // namespace ridgeline::ui

#include "moc_rooflinepage.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
