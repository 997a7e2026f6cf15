// SPDX-License-Identifier: MIT
// The profiler-step selector of the timeline page (issue 35), offscreen, on real PyTorch traces
// imported here: it lists the session's steps, choosing one zooms the timeline to the step's window
// and the summary strip then covers that window (figures as `ridgeline report --step N` works them
// out), "Whole trace" goes back; View ▸ Profiler Step and Ctrl+] reach the same; a session without
// steps has the selector disabled. Windows and figures come from the session (SessionReader), not
// from the UI.
#include "common/timeticks.h"
#include "fixtures.h"
#include "qtwarnings.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "session/documentreader.h"
#include "tempdir.h"
#include "timeline/stepselector.h"
#include "timeline/timelinepage.h"
#include "timeline/timelineview.h"
#include "uitest.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace ridgeline;

namespace {

// Five steps (ProfilerStep#101..105), host ranges only.
const std::string kFiveSteps = std::string(RIDGELINE_TEST_DATA_DIR)
    + "/kineto/ns_resolution_trace/"
      "rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
// ProfilerStep#6 on the host and on the GPU (gpu_user_annotation).
const std::string kGpuSideStep
    = std::string(RIDGELINE_TEST_DATA_DIR) + "/kineto/tracelens-qwen-h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";

core::TimeWindow stepWindow(const std::string& session, std::int64_t step)
{
    auto reader = core::SessionReader::open(session);
    if (reader.hasError())
        qFatal("cannot open %s", session.c_str());
    auto window = core::profilerStepWindow(reader.value(), step);
    if (window.hasError())
        qFatal("no step %lld", static_cast<long long>(step));
    return window.value();
}

std::vector<core::TimelineSummary> stepFigures(const std::string& session, std::optional<std::int64_t> step)
{
    auto reader = core::SessionReader::open(session);
    if (reader.hasError())
        qFatal("cannot open %s", session.c_str());
    core::TimelineSelection selection;
    selection.step = step;
    auto rows = core::analyzeSessionTimeline(reader.value(), selection);
    if (rows.hasError())
        qFatal("%s", rows.error().message.c_str());
    return std::move(rows).value();
}

QString msText(const core::TimeWindow& w)
{
    return QString::number(static_cast<double>(w.endNs - w.startNs) / 1e6, 'f', 3) + QStringLiteral(" ms");
}

// The summary strip shows `rows`: span and busy of each row, as the page words them.
bool summaryShows(const QTableWidget& summary, const std::vector<core::TimelineSummary>& rows)
{
    if (summary.rowCount() != static_cast<int>(rows.size()) || rows.empty())
        return false;
    for (int r = 0; r < summary.rowCount(); ++r) {
        const auto& s = rows[static_cast<std::size_t>(r)];
        if (summary.item(r, 2)->text() != ui::durationText(static_cast<double>(s.spanNs))
            || !summary.item(r, 3)->text().startsWith(ui::durationText(static_cast<double>(s.busyNs))))
            return false;
    }
    return true;
}

} // namespace

class TestProfilerSteps : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    std::string m_fiveSteps;
    std::string m_gpuSide;

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        m_fiveSteps = m_dir.file("five-steps.ridge");
        m_gpuSide = m_dir.file("gpu-side.ridge");
        QVERIFY(collectors::importKineto({ kFiveSteps }, m_fiveSteps, false).ok());
        QVERIFY(collectors::importKineto({ kGpuSideStep }, m_gpuSide, false).ok());
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void selectorListsStepsAndZoomsToThem()
    {
        auto read = ui::readSessionDocument(QString::fromStdString(m_fiveSteps));
        QVERIFY(read.ok());
        const auto doc = std::make_shared<const ui::SessionDocument>(std::move(read).value());
        ui::TimelinePage page(nullptr);
        page.resize(1200, 700);
        page.show();
        page.setDocument(doc);
        auto* selector = page.stepSelector();
        QVERIFY(selector->isEnabled());
        const std::vector<std::int64_t> numbers { 101, 102, 103, 104, 105 }; // the trace's ProfilerStep#N
        QCOMPARE(selector->count(), static_cast<int>(numbers.size()) + 1);
        QCOMPARE(selector->currentIndex(), 0);
        QCOMPARE(selector->itemText(0), QStringLiteral("Whole trace"));
        QCOMPARE(page.summaryWindow()->text(), QStringLiteral("Whole trace"));
        QVERIFY(summaryShows(*page.summary(), doc->report.timeline));
        const auto whole = page.view()->visibleWindow();
        for (std::size_t i = 0; i < numbers.size(); ++i) {
            const auto w = stepWindow(m_fiveSteps, numbers[i]);
            QCOMPARE(selector->itemText(static_cast<int>(i) + 1),
                QStringLiteral("Step %1 (host range, %2 ms)")
                    .arg(numbers[i])
                    .arg(QString::number(static_cast<double>(w.endNs - w.startNs) / 1e6, 'f', 1)));
        }

        // Choosing step 103 as the user does: the view shows its window, the figures cover it.
        const auto window = stepWindow(m_fiveSteps, 103);
        QSignalSpy shown(&page, &ui::TimelinePage::summaryShown);
        selector->setCurrentIndex(3);
        QCOMPARE(selector->currentStep()->number, 103);
        QCOMPARE(page.view()->visibleWindow().startNs, window.startNs);
        QCOMPARE(page.view()->visibleWindow().endNs, window.endNs);
        QVERIFY(shown.count() > 0 || shown.wait(20000));
        QVERIFY(!page.summaryLoading());
        QCOMPARE(page.summaryWindow()->text(), QStringLiteral("Profiler step 103: %1, host range").arg(msText(window)));
        const auto figures = stepFigures(m_fiveSteps, 103);
        QVERIFY(summaryShows(*page.summary(), figures));
        QVERIFY(figures.front().spanNs <= window.endNs - window.startNs);
        QVERIFY(figures.front().spanNs < doc->report.timeline.front().spanNs);

        // Whole trace goes back: the view fitted, the whole session's figures.
        selector->chooseStep(std::nullopt);
        QCOMPARE(page.view()->visibleWindow().startNs, whole.startNs);
        QCOMPARE(page.view()->visibleWindow().endNs, whole.endNs);
        QCOMPARE(page.summaryWindow()->text(), QStringLiteral("Whole trace"));
        QVERIFY(summaryShows(*page.summary(), doc->report.timeline));
        // Back to step 103: its figures are kept, shown at once.
        QVERIFY(selector->chooseStep(103));
        QVERIFY(!page.summaryLoading());
        QVERIFY(summaryShows(*page.summary(), figures));
        QVERIFY(!selector->chooseStep(7)); // no such step: nothing changes
        QCOMPARE(selector->currentStep()->number, 103);
        // Two steps chosen quickly: the last one's figures are shown.
        QVERIFY(selector->chooseStep(104));
        QVERIFY(selector->chooseStep(105));
        QTRY_VERIFY_WITH_TIMEOUT(!page.summaryLoading(), 20000);
        QVERIFY(summaryShows(*page.summary(), stepFigures(m_fiveSteps, 105)));
        QCOMPARE(page.view()->visibleWindow().startNs, stepWindow(m_fiveSteps, 105).startNs);
        // Another session resets to the whole trace.
        page.setDocument(doc);
        QCOMPARE(selector->currentIndex(), 0);
    }

    void viewMenuChoosesGpuSideStep()
    {
        ui::MainWindow window;
        window.show();
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(QString::fromStdString(m_gpuSide));
        QVERIFY(opened.wait(30000));
        auto* page = window.findChild<ui::TimelinePage*>(QStringLiteral("timelinePage"));
        auto* menu = window.findChild<QMenu*>(QStringLiteral("stepMenu"));
        QVERIFY(page && menu);
        QCOMPARE(page->stepSelector()->count(), 2);
        Q_EMIT menu->aboutToShow();
        QAction* step6 = nullptr;
        for (auto* action : menu->actions()) {
            if (action->text().startsWith(QStringLiteral("Step 6 (GPU-side range, ")))
                step6 = action;
        }
        QVERIFY(step6);
        QSignalSpy shown(&window, &ui::MainWindow::timelineSummaryShown);
        step6->trigger();
        QCOMPARE(testing::pagesOf(window)->currentWidget(), page);
        const auto w = stepWindow(m_gpuSide, 6);
        QCOMPARE(page->view()->visibleWindow().startNs, w.startNs);
        QCOMPARE(page->view()->visibleWindow().endNs, w.endNs);
        QVERIFY(shown.count() > 0 || shown.wait(20000));
        QCOMPARE(page->summaryWindow()->text(), QStringLiteral("Profiler step 6: %1, GPU-side range").arg(msText(w)));
        QVERIFY(summaryShows(*page->summary(), stepFigures(m_gpuSide, 6)));
        // The menu shows the choice; Ctrl+[ from the only step stays on it; Whole Trace goes back.
        Q_EMIT menu->aboutToShow();
        for (auto* action : menu->actions()) {
            if (action->text().startsWith(QStringLiteral("Step 6")))
                QVERIFY(action->isChecked());
        }
        QVERIFY(window.chooseProfilerStep(std::nullopt));
        QCOMPARE(page->summaryWindow()->text(), QStringLiteral("Whole trace"));
        QTest::keyClick(&window, Qt::Key_BracketRight, Qt::ControlModifier);
        QCOMPARE(page->stepSelector()->currentStep()->number, 6);
        QVERIFY(!window.chooseProfilerStep(7));
        QTRY_VERIFY_WITH_TIMEOUT(!window.timelineSummaryLoading(), 20000);
    }

    void sessionWithoutStepsDisablesTheSelector()
    {
        const auto path = m_dir.file("no-steps.ridge");
        QVERIFY(testing::writeSmallFixture(path).ok());
        auto read = ui::readSessionDocument(QString::fromStdString(path));
        QVERIFY(read.ok());
        QVERIFY(read.value().steps.empty());
        ui::TimelinePage page(nullptr);
        page.setDocument(std::make_shared<const ui::SessionDocument>(std::move(read).value()));
        QVERIFY(!page.stepSelector()->isEnabled());
        QCOMPARE(page.stepSelector()->count(), 1);
        QVERIFY(page.stepSelector()->toolTip().contains(QStringLiteral("no PyTorch profiler steps")));
    }
};

RIDGELINE_UI_TEST(tst_profilersteps, TestProfilerSteps)
#include "tst_profilersteps.moc"
