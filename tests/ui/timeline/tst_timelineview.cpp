// SPDX-License-Identifier: MIT
// The timeline page and view (ui/timeline/) on the bundled two-rank example session, offscreen:
// what it shows, zoom and pan, hover and hit-testing, selection both ways, and a grabbed image.
#include "common/selectionmodel.h"
#include "common/timeticks.h"
#include "common/verdictcolors.h"
#include "qtwarnings.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "session/sessiondocument.h"
#include "tempdir.h"
#include "timeline/timelinepage.h"
#include "timeline/timelineview.h"
#include "uitest.h"

#include <QImage>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QWheelEvent>
#include <cstdint>

using namespace ridgeline;

namespace {

ui::SessionDocumentPtr loadDocument(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    if (reader.hasError())
        return nullptr;
    auto report = core::buildKernelReport(reader.value());
    auto timeline = core::loadTimelineData(reader.value());
    if (report.hasError() || timeline.hasError())
        return nullptr;
    auto doc = std::make_shared<ui::SessionDocument>();
    doc->path = QString::fromStdString(path);
    doc->report = std::move(report).value();
    doc->timeline = std::make_shared<const core::TimelineData>(std::move(timeline).value());
    return doc;
}

double timeAt(const ui::TimelineView& view, int x)
{
    const auto w = view.visibleWindow();
    return static_cast<double>(w.startNs)
        + (x - view.labelWidth()) * static_cast<double>(w.endNs - w.startNs) / view.timeAreaWidth();
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        m_doc = loadDocument(RIDGELINE_EXAMPLE_SESSION);
        QVERIFY(m_doc);
        QVERIFY(m_doc->timeline->gpuOpCount() > 0);
    }
    void init()
    {
        m_selection = std::make_unique<ui::SelectionModel>();
        m_page = std::make_unique<ui::TimelinePage>(m_selection.get());
        m_page->resize(1280, 720);
        m_page->setDocument(m_doc);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
        m_page->view()->fit();
    }
    void cleanup()
    {
        m_page.reset();
        m_selection.reset();
        RIDGELINE_VERIFY_NO_QT_WARNINGS();
    }

    void showsBothRanksAndTheSummary()
    {
        auto* view = m_page->view();
        int rankHeaders = 0;
        for (const auto& band : view->layout().bands())
            rankHeaders += band.kind == ui::TimelineBand::Kind::RankHeader ? 1 : 0;
        QCOMPARE(rankHeaders, 2);
        QCOMPARE(m_page->summary()->rowCount(), static_cast<int>(m_doc->report.timeline.size()));
        QVERIFY(m_page->summary()->rowCount() >= 2);
        // Fitted: the whole session is in view.
        const auto w = view->visibleWindow();
        QVERIFY(w.startNs <= m_doc->timeline->extent().startNs);
        QVERIFY(w.endNs >= m_doc->timeline->extent().endNs);
    }

    void grabbedPageShowsTheOpsInVerdictColours()
    {
        const QImage image = m_page->grab().toImage();
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), m_page->size());
        QVERIFY(image.save(QStringLiteral("/tmp/ridgeline-timeline-page.png")));
        QVERIFY(m_page->view()->itemsPaintedLastFrame() > 0);
        // The example's collectives are communication-bound: their colour must be on screen.
        const QRgb comm = ui::verdictColor(u"communication-bound").rgb();
        int found = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                found += image.pixel(x, y) == comm ? 1 : 0;
        }
        QVERIFY2(found > 20, qPrintable(QString::number(found)));
    }

    void wheelZoomsAroundTheCursor()
    {
        auto* view = m_page->view();
        const int x = view->labelWidth() + view->timeAreaWidth() / 3;
        const double before = timeAt(*view, x);
        const auto length = view->visibleWindow().endNs - view->visibleWindow().startNs;
        QWheelEvent wheel(QPointF(x, 100), view->viewport()->mapToGlobal(QPointF(x, 100)), QPoint(), QPoint(0, 480),
            Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        const auto newLength = view->visibleWindow().endNs - view->visibleWindow().startNs;
        QVERIFY(newLength < length / 2); // 480 units zoom in by 1.0015^480, about 2
        QVERIFY(newLength > length / 3);
        const double nsPerPixel = static_cast<double>(newLength) / view->timeAreaWidth();
        QVERIFY(std::abs(timeAt(*view, x) - before) <= nsPerPixel);
        view->zoomBy(0.5, x); // and back out
        QVERIFY(std::abs(timeAt(*view, x) - before) <= 2 * static_cast<double>(length) / view->timeAreaWidth());
    }

    void dragAndKeysPanAndZoom()
    {
        auto* view = m_page->view();
        view->zoomBy(8);
        const auto w0 = view->visibleWindow();
        const double nsPerPixel = static_cast<double>(w0.endNs - w0.startNs) / view->timeAreaWidth();
        const QPoint from(view->labelWidth() + 400, 200), to(view->labelWidth() + 300, 200);
        QMouseEvent press(QEvent::MouseButtonPress, from, view->viewport()->mapToGlobal(from), Qt::LeftButton,
            Qt::LeftButton, Qt::NoModifier);
        QMouseEvent move(
            QEvent::MouseMove, to, view->viewport()->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QMouseEvent release(QEvent::MouseButtonRelease, to, view->viewport()->mapToGlobal(to), Qt::LeftButton,
            Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &press);
        QApplication::sendEvent(view->viewport(), &move);
        QApplication::sendEvent(view->viewport(), &release);
        const auto w1 = view->visibleWindow();
        // Dragged 100 px to the left: later times come into view.
        QVERIFY(std::abs(static_cast<double>(w1.startNs - w0.startNs) - 100 * nsPerPixel) <= 1);
        QCOMPARE(w1.endNs - w1.startNs, w0.endNs - w0.startNs);
        QVERIFY(m_selection->current().isEmpty()); // a drag is not a click

        QTest::keyClick(view, Qt::Key_Left);
        QVERIFY(view->visibleWindow().startNs < w1.startNs);
        QTest::keyClick(view, Qt::Key_Plus);
        QVERIFY(view->visibleWindow().endNs - view->visibleWindow().startNs < w1.endNs - w1.startNs);
        QTest::keyClick(view, Qt::Key_Minus);
        // W/A/S/D as in Perfetto: zoom in and out, pan earlier and later.
        const auto w2 = view->visibleWindow();
        QTest::keyClick(view, Qt::Key_W);
        const auto w3 = view->visibleWindow();
        QVERIFY(w3.endNs - w3.startNs < w2.endNs - w2.startNs);
        QTest::keyClick(view, Qt::Key_A);
        QVERIFY(view->visibleWindow().startNs < w3.startNs);
        QTest::keyClick(view, Qt::Key_D);
        QCOMPARE(view->visibleWindow().startNs, w3.startNs);
        QTest::keyClick(view, Qt::Key_S);
        QVERIFY(view->visibleWindow().endNs - view->visibleWindow().startNs > w3.endNs - w3.startNs);
        QTest::keyClick(view, Qt::Key_F);
        QVERIFY(view->visibleWindow().startNs <= m_doc->timeline->extent().startNs);
        QVERIFY(view->visibleWindow().endNs >= m_doc->timeline->extent().endNs);
    }

    void selectedLaunchIsLinkedToItsLaunchingCall()
    {
        // A launch of the real trace and the call that launched it, read from the file directly.
        auto reader = core::SessionReader::open(RIDGELINE_EXAMPLE_SESSION);
        QVERIFY(reader.ok());
        auto kernels = reader.value().kernels();
        QVERIFY(kernels.ok() && kernels.value().size() > 100);
        const core::Kernel launch = kernels.value()[kernels.value().size() / 2];
        auto call = reader.value().launchingCall(launch);
        QVERIFY(call.ok() && call.value());
        auto* view = m_page->view();
        m_selection->select({ launch.nameId, launch.deviceId, launch.id }, nullptr);
        QVERIFY(view->selectedOp());
        const auto linked = view->launchingCallOp();
        QVERIFY(linked);
        const auto& row = m_doc->timeline->row(linked->row);
        QCOMPARE(row.sourceId(linked->index), call.value()->id);
        QCOMPARE(row.startNs(linked->index), call.value()->startNs);
        const auto& lane = m_doc->timeline->laneOfRow(linked->row);
        QCOMPARE(lane.kind, core::TimelineLaneKind::HostThread);
        QCOMPARE(lane.threadId, call.value()->threadId);
        QCOMPARE(m_doc->timeline->name(row.nameIndex(linked->index)), std::string_view(call.value()->name));
        QVERIFY(!view->grab().isNull()); // the arrow is painted without trouble
        // The kernel as a whole (no launch), and no selection: no link.
        m_selection->select({ launch.nameId, launch.deviceId, -1 }, nullptr);
        QVERIFY(!view->launchingCallOp());
        m_selection->clear(nullptr);
        QVERIFY(!view->launchingCallOp());
    }

    void hoverFindsTheOpUnderTheCursor()
    {
        auto* view = m_page->view();
        const auto ref = longestKernel();
        QVERIFY(ref.has_value());
        zoomOnto(*ref);
        const auto point = view->pointOf(*ref);
        QVERIFY(point.has_value());
        QCOMPARE(view->opAt(*point), ref);
        const auto item = m_doc->timeline->row(ref->row).item(ref->index);
        const QString tip = view->toolTipAt(*point);
        QVERIFY2(
            tip.contains(QString::fromUtf8(m_doc->timeline->name(item.nameIndex)).toHtmlEscaped()), qPrintable(tip));
        QVERIFY(tip.contains(QLatin1String(core::toString(item.verdict))));
        // The label column and the ruler are not ops.
        QVERIFY(!view->opAt(QPoint(10, point->y())).has_value());
        QVERIFY(!view->opAt(QPoint(point->x(), 5)).has_value());
        QVERIFY(view->toolTipAt(QPoint(10, point->y())).isEmpty());
    }

    void clickingAKernelSelectsItAndItsLaunches()
    {
        auto* view = m_page->view();
        const auto ref = longestKernel();
        QVERIFY(ref.has_value());
        zoomOnto(*ref);
        QSignalSpy changed(m_selection.get(), &ui::SelectionModel::selectionChanged);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, *view->pointOf(*ref));
        QCOMPARE(changed.count(), 1);
        const auto item = m_doc->timeline->row(ref->row).item(ref->index);
        const auto& lane = m_doc->timeline->laneOfRow(ref->row);
        const auto selected = m_selection->current();
        QCOMPARE(selected.nameId, m_doc->timeline->kernelNameId(item.nameIndex));
        QCOMPARE(selected.deviceId, lane.deviceId);
        QCOMPARE(selected.launchId, item.sourceId);
        QCOMPARE(changed.first().at(1).value<const QObject*>(), static_cast<const QObject*>(view));
        QCOMPARE(view->selectedOp(), ref);
        QCOMPARE(view->highlighted().count, m_doc->timeline->launchesOf(selected.nameId, selected.deviceId).count);
        // Clicking empty space (the time after the last op) clears the selection.
        view->setVisibleWindow({ m_doc->timeline->extent().endNs + 10, m_doc->timeline->extent().endNs + 100'000 });
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, *view->pointOf(*ref) + QPoint(0, 0));
        QVERIFY(m_selection->current().isEmpty());
        QVERIFY(view->highlighted().empty());
    }

    void aSelectionFromElsewhereHighlightsAndScrollsToTheFirstLaunch()
    {
        auto* view = m_page->view();
        const auto ref = longestKernel();
        QVERIFY(ref.has_value());
        const auto item = m_doc->timeline->row(ref->row).item(ref->index);
        const auto& lane = m_doc->timeline->laneOfRow(ref->row);
        const auto nameId = m_doc->timeline->kernelNameId(item.nameIndex);
        const auto launches = m_doc->timeline->launchesOf(nameId, lane.deviceId);
        QVERIFY(launches.earliest.has_value());
        // Look at the very end first, zoomed in, so that the first launch is out of view.
        const auto e = m_doc->timeline->extent();
        view->setVisibleWindow({ e.endNs - 50'000, e.endNs });
        QObject table; // stands for the kernel table
        m_selection->select({ nameId, lane.deviceId, -1 }, &table);
        QCOMPARE(view->highlighted().count, launches.count);
        QVERIFY(launches.count >= 1);
        QVERIFY(view->pointOf(*launches.earliest).has_value());
        QVERIFY(!view->selectedOp().has_value());
        // One launch chosen (e.g. from the per-launch table): that op is the selected one.
        m_selection->select({ nameId, lane.deviceId, item.sourceId }, &table);
        QCOMPARE(view->selectedOp(), ref);
        QVERIFY(view->pointOf(*ref).has_value());
        view->zoomBy(1.0 / 16); // with the neighbouring launches in view
        const QImage image = m_page->grab().toImage(); // paints the outlines
        QVERIFY(image.save(QStringLiteral("/tmp/ridgeline-timeline-selected.png")));
        QVERIFY(view->itemsPaintedLastFrame() > 0);
    }

    void paintWorkIsBoundedByPixelsNotEvents()
    {
        auto* view = m_page->view();
        int rows = 0;
        for (const auto& band : view->layout().bands())
            rows += band.kind == ui::TimelineBand::Kind::Row ? 1 : 0;
        for (const double zoom : { 1.0, 4.0, 64.0, 4096.0 }) {
            view->fit();
            view->zoomBy(zoom);
            (void)m_page->grab();
            QVERIFY(view->itemsPaintedLastFrame() <= rows * view->timeAreaWidth());
        }
        QVERIFY(m_page->view()->itemsPaintedLastFrame() >= 0);
    }

    void noDocumentClearsTheView()
    {
        m_page->setDocument(nullptr);
        QVERIFY(m_page->view()->data() == nullptr);
        QVERIFY(m_page->view()->layout().bands().empty());
        QVERIFY(!m_page->view()->opAt(QPoint(400, 200)).has_value());
        const QImage image = m_page->grab().toImage();
        QVERIFY(!image.isNull());
        QCOMPARE(m_page->view()->itemsPaintedLastFrame(), 0);
        m_page->setDocument(m_doc); // and back
        QVERIFY(m_page->view()->data() != nullptr);
    }

    void rulerTicksAreNiceSteps()
    {
        QCOMPARE(ui::niceTickStep(0.2), std::int64_t { 1 });
        QCOMPARE(ui::niceTickStep(1.01), std::int64_t { 2 });
        QCOMPARE(ui::niceTickStep(3), std::int64_t { 5 });
        QCOMPARE(ui::niceTickStep(7), std::int64_t { 10 });
        QCOMPARE(ui::niceTickStep(90 * 1.176e6), std::int64_t { 200'000'000 }); // 90 px at 1.176 ms/px
        QCOMPARE(ui::tickLabel(0, 5), QStringLiteral("0"));
        QCOMPARE(ui::tickLabel(400'000'000, 200'000'000), QStringLiteral("400 ms"));
        QCOMPARE(ui::tickLabel(1'500'000, 500'000), QStringLiteral("1500 µs"));
        QCOMPARE(ui::tickLabel(3'000'000'000, 1'000'000'000), QStringLiteral("3 s"));
        QCOMPARE(ui::tickLabel(-20, 10), QStringLiteral("-20 ns"));
        QCOMPARE(ui::durationText(850), QStringLiteral("850 ns"));
        QCOMPARE(ui::durationText(1'234'567), QStringLiteral("1.235 ms"));
    }

    void brokenAndEmptySessionsPaintWithoutTrouble()
    {
        testing::TempDir dir;
        for (const bool broken : { false, true }) {
            const std::string path = dir.file(broken ? "broken.ridge" : "empty.ridge");
            auto writer = core::SessionWriter::create(path);
            QVERIFY(writer.ok());
            QVERIFY(writer.value().setMeta("source", "fixture").ok());
            core::Device device;
            QVERIFY(writer.value().addDevice(device).ok());
            if (broken) {
                // An end before its start and times at the ends of int64, as a corrupt file may hold.
                const auto name = writer.value().internKernelName("k").value();
                std::vector<core::Kernel> kernels(3);
                const std::int64_t times[3][2] { { 500, 100 }, { INT64_MIN + 1, INT64_MAX },
                    { INT64_MAX - 5, INT64_MAX } };
                for (std::size_t i = 0; i < kernels.size(); ++i) {
                    kernels[i].nameId = name;
                    kernels[i].streamId = static_cast<std::int64_t>(i % 2);
                    kernels[i].startNs = times[i][0];
                    kernels[i].endNs = times[i][1];
                }
                QVERIFY(writer.value().addKernels(kernels).ok());
            }
            QVERIFY(writer.value().finish(core::SessionStatus::Complete).ok());
            auto doc = loadDocument(path);
            QVERIFY(doc);
            m_page->setDocument(doc);
            auto* view = m_page->view();
            for (const double zoom : { 1e-12, 1.0, 1e12 }) {
                view->fit();
                view->zoomBy(zoom);
                view->panByPixels(100'000);
                view->panByPixels(-300'000);
                QVERIFY(view->visibleWindow().endNs > view->visibleWindow().startNs);
                QVERIFY(!m_page->grab().toImage().isNull());
                QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(600, 80));
            }
            QCOMPARE(view->layout().bands().empty(), !broken);
        }
    }

private:
    // The longest kernel of the session: wide enough to hit at any zoom once it is in view.
    std::optional<core::TimelineGpuOpRef> longestKernel() const
    {
        std::optional<core::TimelineGpuOpRef> best;
        std::int64_t longest = -1;
        const auto& d = *m_doc->timeline;
        for (std::uint32_t r = 0; r < d.rowCount(); ++r) {
            if (d.laneOfRow(r).kind != core::TimelineLaneKind::Stream)
                continue;
            for (std::uint32_t i = 0; i < d.row(r).size(); ++i) {
                const auto it = d.row(r).item(i);
                if (d.kernelNameId(it.nameIndex) >= 0 && it.endNs - it.startNs > longest) {
                    longest = it.endNs - it.startNs;
                    best = core::TimelineGpuOpRef { r, i };
                }
            }
        }
        return best;
    }
    void zoomOnto(core::TimelineGpuOpRef ref)
    {
        const auto& row = m_doc->timeline->row(ref.row);
        const auto s = row.startNs(ref.index), e = row.endNs(ref.index);
        m_page->view()->setVisibleWindow({ s - (e - s), e + (e - s) });
        const auto* band = m_page->view()->layout().bandOfRow(ref.row);
        m_page->view()->verticalScrollBar()->setValue(band->y - 100);
    }

    ui::SessionDocumentPtr m_doc;
    std::unique_ptr<ui::SelectionModel> m_selection;
    std::unique_ptr<ui::TimelinePage> m_page;
};

RIDGELINE_UI_TEST(tst_timelineview, TestTimelineView)
#include "tst_timelineview.moc"
