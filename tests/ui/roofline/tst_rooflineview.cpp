// SPDX-License-Identifier: MIT
// The roofline view and page over fixture sessions: what Qt Charts and the points layer hold is
// exactly core's view-model, and hover, click, external selection, zoom, baseline arrows,
// filters and export behave.
#include "common/verdictcolors.h"
#include "documents.h"
#include "qtwarnings.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "roofline/rooflineceilings.h"
#include "roofline/rooflineemptynote.h"
#include "roofline/rooflinepage.h"
#include "roofline/rooflinepointsitem.h"
#include "roofline/rooflineview.h"
#include "uitest.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QHelpEvent>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <set>

using namespace ridgeline;
using ui::RooflineView;

namespace {

// The offscreen platform cannot raise a tooltip window: a limit of the test platform, not of the view.
void recordWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (message != QLatin1String("This plugin does not support raise()"))
        testing::recordQtWarnings(type, context, message);
}

} // namespace

class TestRooflineView : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    ui::SessionDocumentPtr m_small;
    ui::SessionDocumentPtr m_nersc;

    static void showView(QWidget& view)
    {
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
    }
    static void mouse(QWidget* target, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons)
    {
        QMouseEvent event(type, pos, target->mapToGlobal(pos), Qt::LeftButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(target, &event);
    }
    // The view-model drawn by `view`, rebuilt here from the same document and options.
    static core::RooflineChart expectedChart(const ui::SessionDocument& doc, core::RooflinePointMode mode)
    {
        core::RooflineChartOptions options;
        options.mode = mode;
        return core::buildRooflineChart(doc.ceilings, doc.report.kernels, options);
    }
    static void expectViewHolds(
        const RooflineView& view, const core::RooflineChart& chart, const ui::SessionDocument& doc)
    {
        const auto& series = view.ceilings().series();
        QCOMPARE(series.size(), chart.memory.size() + chart.compute.size());
        std::size_t i = 0;
        for (const auto* lines : { &chart.memory, &chart.compute }) {
            for (const auto& line : *lines) {
                const auto* s = series[i++];
                QCOMPARE(s->name(), QString::fromStdString(line.label));
                QCOMPARE(s->points(), (QList<QPointF> { { line.x0, line.y0 }, { line.x1, line.y1 } }));
            }
        }
        QList<QPointF> ridges;
        for (const auto& r : chart.ridges)
            ridges.append({ r.intensity, r.flopsPerS });
        QCOMPARE(view.ceilings().ridges()->points(), ridges);
        const auto& markers = view.pointsItem()->markers();
        QCOMPARE(markers.size(), chart.points.size());
        for (std::size_t p = 0; p < markers.size(); ++p) {
            const auto& point = chart.points[p];
            const auto& analysis = doc.report.kernels[point.kernel].analysis;
            QCOMPARE(markers[p].value, QPointF(point.intensity, point.flopsPerS));
            QCOMPARE(markers[p].radius, float(core::rooflinePointRadius(point.timeShare)));
            if (point.precision.empty()) { // the combined point: core's achieved rate and intensity
                const double intensity = analysis.intensity.at(*core::resourceFromString(point.level));
                QCOMPARE(markers[p].value, QPointF(intensity, *analysis.achievedFlopsPerS));
            }
        }
        QCOMPARE(view.xAxis()->min(), chart.axes.xMin());
        QCOMPARE(view.yAxis()->max(), chart.axes.yMax());
    }

private Q_SLOTS:
    void initTestCase()
    {
        qInstallMessageHandler(recordWarnings);
        m_small = testing::smallFixtureDocument(m_dir);
        m_nersc = testing::ncuDocument(m_dir, "raw-nersc.csv");
        QVERIFY(m_small && m_nersc);
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void seriesHoldTheViewModel()
    {
        ui::SelectionModel selection;
        RooflineView view(&selection);
        view.setDocument(m_small);
        const auto chart = expectedChart(*m_small, core::RooflinePointMode::Combined);
        QCOMPARE(chart.points.size(), std::size_t(1));
        QCOMPARE(chart.memory.size() + chart.compute.size(), std::size_t(2));
        expectViewHolds(view, chart, *m_small);
        // Coloured by verdict: vectorAdd is memory-bound.
        const auto& marker = view.pointsItem()->markers().front();
        const auto& kernel = m_small->report.kernels[chart.points.front().kernel];
        QCOMPARE(kernel.analysis.verdict, core::VerdictClass::MemoryBound);
        QCOMPARE(ui::verdictColor(u"memory-bound"), QColor(0x4f, 0xa3, 0xe0));
        QCOMPARE(marker.color, quint8(1));
        view.setDocument(nullptr);
        QVERIFY(view.pointsItem()->markers().empty());
        QVERIFY(view.ceilings().series().empty());
    }

    void hierarchicalAndPerPrecisionPoints()
    {
        ui::SelectionModel selection;
        RooflineView view(&selection);
        view.setDocument(m_nersc);
        expectViewHolds(view, expectedChart(*m_nersc, core::RooflinePointMode::Combined), *m_nersc);
        std::set<ui::MarkerShape> shapes;
        for (const auto& m : view.pointsItem()->markers())
            shapes.insert(m.shape);
        QCOMPARE(shapes.size(), std::size_t(3)); // DRAM, L2 and L1 points
        view.setPointMode(core::RooflinePointMode::PerPrecision);
        const auto split = expectedChart(*m_nersc, core::RooflinePointMode::PerPrecision);
        expectViewHolds(view, split, *m_nersc);
        QVERIFY(split.points.size() > view.pointsItem()->markers().size() / 2);
        view.setLevels({ "DRAM" });
        for (const auto& p : view.chartModel().points)
            QCOMPARE(p.level, std::string("DRAM"));
    }

    void hoverNamesTheKernelShortThenInFull()
    {
        ui::SelectionModel selection;
        RooflineView view(&selection);
        view.setDocument(m_nersc);
        showView(view);
        const auto& points = view.chartModel().points;
        const auto templated = std::find_if(points.begin(), points.end(), [&](const auto& p) {
            const auto& k = m_nersc->report.kernels[p.kernel];
            return k.displayName() != k.name;
        });
        QVERIFY(templated != points.end());
        const auto& kernel = m_nersc->report.kernels[templated->kernel];
        const QString tip = view.toolTipAt(view.viewPosition(static_cast<int>(templated - points.begin())));
        QVERIFY2(tip.startsWith(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(kernel.displayName()))),
            qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromStdString(kernel.name).toHtmlEscaped()), qPrintable(tip));
    }

    void hoverShowsTheVerdictSentence()
    {
        ui::SelectionModel selection;
        RooflineView view(&selection);
        view.setDocument(m_small);
        showView(view);
        const QPoint at = view.viewPosition(0);
        const auto& kernel = m_small->report.kernels[view.chartModel().points[0].kernel];
        const QString tip = view.toolTipAt(at);
        QVERIFY2(tip.contains(QString::fromStdString(kernel.analysis.reason)), qPrintable(tip));
        QVERIFY(tip.startsWith(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(kernel.displayName()))));
        QVERIFY(tip.contains(QStringLiteral("vectorAdd")));
        QVERIFY(tip.contains(QStringLiteral("0.125 FLOP/byte")));
        QVERIFY(view.toolTipAt(QPoint(2, 2)).isEmpty());
        QHelpEvent help(QEvent::ToolTip, at, view.viewport()->mapToGlobal(at));
        QApplication::sendEvent(view.viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY(QToolTip::text().contains(QString::fromStdString(kernel.analysis.reason)));
        QToolTip::hideText();
    }

    void clickSelectsAndExternalSelectionHighlights()
    {
        ui::SelectionModel selection;
        RooflineView view(&selection);
        view.setDocument(m_nersc);
        showView(view);
        QSignalSpy spy(&selection, &ui::SelectionModel::selectionChanged);
        const auto& points = view.chartModel().points;
        const int target = static_cast<int>(points.size()) - 1; // painted last: on top
        const QPoint at = view.viewPosition(target);
        QCOMPARE(view.pointAt(at), target);
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.front().at(1).value<const QObject*>(), &view);
        const auto& p = points[static_cast<std::size_t>(target)];
        QCOMPARE(selection.current(), (ui::KernelSelection { p.nameId, p.deviceId, -1 }));
        // Every point of that kernel (one per memory level) is highlighted.
        std::vector<int> expected;
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (points[i].nameId == p.nameId && points[i].deviceId == p.deviceId)
                expected.push_back(static_cast<int>(i));
        }
        QCOMPARE(expected.size(), std::size_t(3));
        QCOMPARE(view.pointsItem()->highlighted(), expected);

        // A selection made elsewhere (the table) moves the highlight to the other kernel.
        const auto other
            = std::find_if(points.begin(), points.end(), [&](const auto& q) { return q.nameId != p.nameId; });
        QVERIFY(other != points.end());
        selection.select({ other->nameId, other->deviceId, 42 }, this);
        QVERIFY(!view.pointsItem()->highlighted().empty());
        for (const int i : view.pointsItem()->highlighted())
            QCOMPARE(points[static_cast<std::size_t>(i)].nameId, other->nameId);
        selection.clear(this);
        QVERIFY(view.pointsItem()->highlighted().empty());
        // A click on empty space selects nothing.
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(3, 3));
        QVERIFY(selection.current().isEmpty());
    }

    void rubberBandZoomsAndDoubleClickResets()
    {
        ui::SelectionModel selection;
        RooflineView view(&selection);
        view.setDocument(m_nersc);
        showView(view);
        const double fullMin = view.xAxis()->min(), fullMax = view.xAxis()->max();
        const QRectF plot = view.chart()->plotArea();
        const QPoint from = view.mapFromScene(view.chart()->mapToScene(plot.center() - QPointF(80, 60)));
        const QPoint to = view.mapFromScene(view.chart()->mapToScene(plot.center() + QPointF(80, 60)));
        mouse(view.viewport(), QEvent::MouseButtonPress, from, Qt::LeftButton);
        mouse(view.viewport(), QEvent::MouseMove, from + QPoint(20, 20), Qt::LeftButton);
        mouse(view.viewport(), QEvent::MouseMove, to, Qt::LeftButton);
        mouse(view.viewport(), QEvent::MouseButtonRelease, to, Qt::NoButton);
        QVERIFY(view.xAxis()->min() > fullMin);
        QVERIFY(view.xAxis()->max() < fullMax);
        // 160 of the plot's pixels: the decades shown shrink in proportion.
        const double decades = std::log10(view.xAxis()->max() / view.xAxis()->min());
        QVERIFY(std::abs(decades - std::log10(fullMax / fullMin) * 160.0 / plot.width()) < 0.05);
        QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, from);
        QCOMPARE(view.xAxis()->min(), fullMin);
        QCOMPARE(view.xAxis()->max(), fullMax);
        QVERIFY(selection.current().isEmpty()); // zooming selected nothing
    }

    void baselineArrowsLeadToTheCurrentPoints()
    {
        // The baseline: the same session with vectorAdd twice as slow (half the FLOP/s).
        auto baseline = std::make_shared<ui::SessionDocument>(*m_small);
        const int vectorAdd = testing::kernelIndex(*baseline, "vectorAdd(float const*, float const*, float*, int)");
        QVERIFY(vectorAdd >= 0);
        auto& slow = baseline->report.kernels[static_cast<std::size_t>(vectorAdd)].analysis;
        *slow.achievedFlopsPerS /= 2;
        ui::SelectionModel selection;
        RooflineView view(&selection);
        view.setDocument(m_small);
        QVERIFY(view.arrows().empty());
        view.setBaseline(baseline);
        QCOMPARE(view.arrows().size(), std::size_t(1));
        const auto& arrows = view.pointsItem()->arrows();
        QCOMPARE(arrows.size(), std::size_t(1));
        const auto& current = m_small->report.kernels[static_cast<std::size_t>(vectorAdd)].analysis;
        QCOMPARE(arrows[0].p1(), QPointF(current.intensity.at(core::Resource::DRAM), *slow.achievedFlopsPerS));
        QCOMPARE(arrows[0].p2(), QPointF(current.intensity.at(core::Resource::DRAM), *current.achievedFlopsPerS));
        view.setBaseline(nullptr);
        QVERIFY(view.pointsItem()->arrows().empty());
    }

    void pageFiltersByDeviceAndRank()
    {
        // Two ranks: device 0 on rank 0, device 1 on rank 1.
        auto doc = std::make_shared<ui::SessionDocument>(*m_small);
        QCOMPARE(doc->report.timeline.size(), std::size_t(2));
        for (auto& t : doc->report.timeline)
            t.rank = static_cast<int>(t.deviceId);
        ui::SelectionModel selection;
        ui::RooflinePage page(&selection);
        page.setDocument(doc);
        auto* view = page.view();
        QCOMPARE(page.deviceFilter()->count(), 3); // All, GPU 0, GPU 1
        QCOMPARE(page.rankFilter()->count(), 3); // All, 0, 1
        QCOMPARE(view->chartModel().points.size(), std::size_t(1));
        QCOMPARE(view->chartModel().unplotted.size(), std::size_t(4));
        page.deviceFilter()->setCurrentIndex(2); // GPU 1: no ceilings, three kernels without counters
        QVERIFY(view->chartModel().points.empty());
        QVERIFY(view->ceilings().series().empty());
        QCOMPARE(view->chartModel().unplotted.size(), std::size_t(3));
        QVERIFY(page.status()->text().contains(QStringLiteral("no hardware counters")));
        page.deviceFilter()->setCurrentIndex(0);
        page.rankFilter()->setCurrentIndex(1); // rank 0 -> GPU 0
        QCOMPARE(view->chartModel().points.size(), std::size_t(1));
        QCOMPARE(view->chartModel().unplotted.size(), std::size_t(1));
        page.deviceFilter()->setCurrentIndex(2); // rank 0 and GPU 1: nothing
        QVERIFY(view->chartModel().points.empty());
        QVERIFY(view->chartModel().unplotted.empty());
        page.deviceFilter()->setCurrentIndex(0);
        page.rankFilter()->setCurrentIndex(0);
        page.levelAction(QStringLiteral("DRAM"))->setChecked(false);
        QVERIFY(view->chartModel().points.empty()); // the fixture counts DRAM traffic only
        page.levelAction(QStringLiteral("DRAM"))->setChecked(true);
        page.pointMode()->setCurrentIndex(1);
        QCOMPARE(view->chartModel().points.front().precision, std::string("FP32"));
    }

    void emptyChartSaysWhyAndWhatToDo()
    {
        ui::SelectionModel selection;
        RooflineView view(&selection);
        showView(view);
        const auto* note = view.emptyNote();
        // No session: how to get one.
        QVERIFY(note->isVisible());
        QVERIFY(note->toPlainText().contains(QStringLiteral("Open a session")));
        // Points on the chart: no note.
        view.setDocument(m_small);
        QVERIFY(!view.chartModel().points.empty());
        QVERIFY(!note->isVisible());
        // Kernels without counters only (the small fixture's GPU 1): why, and where counters come from.
        auto doc = std::make_shared<ui::SessionDocument>(*m_small);
        std::erase_if(doc->report.kernels, [](const core::KernelSummary& k) { return k.analysis.hasCounters; });
        doc->ceilings.clear();
        QCOMPARE(doc->report.kernels.size(), std::size_t(4));
        view.setDocument(doc);
        QVERIFY(view.chartModel().points.empty());
        QVERIFY(note->isVisible());
        const QString text = note->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("None of the 4 kernel(s) of this session has hardware counters")),
            qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("ridgeline capture --metrics roofline")));
        QVERIFY(text.contains(QStringLiteral("No ceilings are drawn")));
        // The note sits inside the plot area.
        const QRectF plot = view.chart()->plotArea();
        QVERIFY(plot.contains(note->mapRectToScene(note->boundingRect()).center()));
        // Counters but no FLOPs: the per-kernel reason instead.
        auto noFlops = std::make_shared<ui::SessionDocument>(*m_small);
        for (auto& k : noFlops->report.kernels)
            k.analysis.flops.reset();
        view.setDocument(noFlops);
        QVERIFY(view.chartModel().points.empty());
        QVERIFY2(note->toPlainText().contains(QStringLiteral("no floating-point work counted")),
            qPrintable(note->toPlainText()));
        QVERIFY(!note->toPlainText().contains(QStringLiteral("No ceilings")));
    }

    void exportsPngAndSvg()
    {
        ui::SelectionModel selection;
        ui::RooflinePage page(&selection);
        page.setDocument(m_nersc);
        showView(page);
        const auto png = QString::fromStdString(m_dir.file("roofline.png"));
        const auto svg = QString::fromStdString(m_dir.file("roofline.svg"));
        QVERIFY(page.exportImage(png));
        QVERIFY(page.exportImage(svg));
        const QImage image(png);
        QCOMPARE(image.size(), page.view()->size());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.contains("DRAM")); // the ceiling labels are text
        QVERIFY(!page.exportImage(QString::fromStdString(m_dir.file("missing/dir/x.png"))));
    }

    void followsADarkPalette()
    {
        ui::SelectionModel selection;
        ui::RooflinePage page(&selection);
        const auto h100 = testing::ncuDocument(m_dir, "raw-roofline.csv");
        QVERIFY(h100);
        page.setDocument(h100);
        QCOMPARE(page.view()->chart()->theme(), QChart::ChartThemeLight);
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
        page.setPalette(dark);
        QCOMPARE(page.view()->chart()->theme(), QChart::ChartThemeDark);
        expectViewHolds(*page.view(), expectedChart(*h100, core::RooflinePointMode::Combined), *h100);
        showView(page);
        QVERIFY(testing::savePicture(page.grab(), QStringLiteral("roofline-h100-dark")));
    }

    void picturesAreNotEmpty()
    {
        ui::SelectionModel selection;
        const auto h100 = testing::ncuDocument(m_dir, "raw-roofline.csv");
        const auto details = testing::ncuDocument(m_dir, "details.csv");
        QVERIFY(h100 && details);
        for (const auto& [doc, name] :
            { std::pair { m_small, "roofline-small" }, std::pair { m_nersc, "roofline-nersc" },
                std::pair { h100, "roofline-h100" }, std::pair { details, "roofline-details" } }) {
            ui::RooflinePage page(&selection);
            page.setDocument(doc);
            showView(page);
            QVERIFY(testing::savePicture(page.grab(), QLatin1String(name)));
        }
        ui::RooflinePage empty(&selection);
        showView(empty);
        QVERIFY(testing::savePicture(empty.grab(), QStringLiteral("roofline-empty")));
    }
};

RIDGELINE_UI_TEST(tst_rooflineview, TestRooflineView)
#include "tst_rooflineview.moc"
