// SPDX-License-Identifier: MIT
// The Cluster page (ui/cluster/) on the real trace_filter pair, each rank a session of its own,
// offscreen: the loader reads only their summaries, the table (under QAbstractItemModelTester)
// puts the late rank first with the lateness worked out from the traces' own NCCL kernel starts,
// the heat map draws each rank's busy and communication time, and a rank clicked on the map opens
// its session on the timeline through the main window. A folder with no session is one error.
#include "cluster/clusterloader.h"
#include "cluster/clusterpage.h"
#include "cluster/ranktablemodel.h"
#include "commdocuments.h"
#include "common/heatmapview.h"
#include "qtwarnings.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "testutil.h"
#include "uitest.h"
#include "window/mainwindow.h"
#include "window/taskprogress.h"
#include "windowparts.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <algorithm>
#include <array>
#include <filesystem>

using namespace ridgeline;

namespace {

// The lateness of each rank: over the NCCL kernels paired in order, the start skew where it
// started last.
std::array<std::int64_t, 2> expectedLateness()
{
    const auto starts = testing::twoRankNcclStarts();
    std::array<std::int64_t, 2> late { 0, 0 };
    for (std::size_t i = 0; i < std::min(starts[0].size(), starts[1].size()); ++i) {
        if (starts[0][i] != starts[1][i])
            late[starts[1][i] > starts[0][i] ? 1 : 0] += std::abs(starts[1][i] - starts[0][i]);
    }
    return late;
}

} // namespace

class TestClusterPage : public QObject {
    Q_OBJECT

private:
    testing::TempDir m_dir;
    ui::ClusterDocumentPtr m_doc;

    ui::ClusterDocumentPtr load(const QStringList& inputs)
    {
        ui::ClusterLoader loader;
        QSignalSpy loaded(&loader, &ui::ClusterLoader::loaded);
        QSignalSpy failed(&loader, &ui::ClusterLoader::failed);
        loader.load(inputs);
        if (!loaded.wait(60000))
            return nullptr;
        return loaded.front().front().value<ui::ClusterDocumentPtr>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        QStandardPaths::setTestModeEnabled(true); // the main window's settings stay out of the user's
        qRegisterMetaType<ui::ClusterDocumentPtr>();
        std::filesystem::create_directories(m_dir.file("job"));
        for (int r = 0; r < 2; ++r) {
            const auto trace = testing::testDataPath(
                r == 0 ? "kineto/trace_filter/sampled_rank-0.json.gz" : "kineto/trace_filter/sampled_rank-1.json.gz");
            QVERIFY(collectors::importKineto({ trace }, m_dir.file("job/rank-" + std::to_string(r) + ".ridge"), false)
                        .ok());
        }
        m_doc = load({ QString::fromStdString(m_dir.file("job")) });
        QVERIFY(m_doc);
    }

    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void loaderReadsEverySessionOfTheFolder()
    {
        QCOMPARE(m_doc->sessions, std::size_t(2));
        QCOMPARE(m_doc->fromStored, std::size_t(0)); // imported, never summarized: computed
        QCOMPARE(m_doc->report.ranks.size(), std::size_t(2));
        QCOMPARE(m_doc->report.ranks[0].summary.rank, 0);
        QCOMPARE(m_doc->report.ranks[1].summary.rank, 1);
        QVERIFY(m_doc->report.instances > 0);
    }

    void tableNamesTheLateRankFirst()
    {
        ui::ClusterPage page;
        QAbstractItemModelTester tester(page.rankModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.setDocument(m_doc);
        const auto late = expectedLateness();
        const std::size_t slow = late[1] > late[0] ? 1 : 0;
        QVERIFY(late[slow] > 0);
        auto* view = page.rankView();
        QCOMPARE(view->model()->rowCount(), 2);
        QCOMPARE(view->model()->index(0, 0).data(ui::RankTableModel::RankRole).toInt(), static_cast<int>(slow));
        QCOMPARE(
            view->model()->index(0, ui::RankTableModel::LateColumn).data(ui::RankTableModel::SortRole).toLongLong(),
            late[slow]);
        QVERIFY(page.summary()->text().contains(
            QStringLiteral("Rank %1 makes the others wait").arg(static_cast<int>(slow))));
        // Sortable: by busy time, largest first.
        view->sortByColumn(ui::RankTableModel::BusyColumn, Qt::DescendingOrder);
        const auto busy = [&](int row) {
            return view->model()
                ->index(row, ui::RankTableModel::BusyColumn)
                .data(ui::RankTableModel::SortRole)
                .toLongLong();
        };
        QVERIFY(busy(0) >= busy(1));
        QCOMPARE(view->model()
                     ->index(0, ui::RankTableModel::SessionColumn)
                     .data()
                     .toString()
                     .endsWith(QStringLiteral(".ridge")),
            true);
        testing::saveScreenshot(page, QStringLiteral("cluster-page"));
    }

    void heatMapDrawsEachRanksTime()
    {
        ui::ClusterPage page;
        page.resize(900, 600);
        page.setDocument(m_doc);
        const auto& map = page.heatMap()->map();
        QCOMPARE(map.rowCount(), std::size_t(2));
        const double window = static_cast<double>(map.window().endNs - map.window().startNs);
        for (std::size_t r = 0; r < 2; ++r) {
            const auto& s = m_doc->report.ranks[r].summary;
            QCOMPARE(map.row(r).rank, s.rank);
            QVERIFY(qAbs(map.rowShare(r) - static_cast<double>(s.busyNs) / window) < 1e-9);
        }
        const auto late = expectedLateness();
        QCOMPARE(page.heatMap()->highlightedRow(), late[1] > late[0] ? 1 : 0);
        page.setValue(core::ClusterMapValue::Communication);
        for (std::size_t r = 0; r < 2; ++r) {
            const auto& s = m_doc->report.ranks[r].summary;
            QVERIFY(s.communicationNs > 0);
            QVERIFY(qAbs(page.heatMap()->map().rowShare(r) - static_cast<double>(s.communicationNs) / window) < 1e-9);
        }
        page.setValue(core::ClusterMapValue::Idle);
        QVERIFY(page.heatMap()->map().rowShare(0) > 0);
        page.setDocument(nullptr);
        QVERIFY(page.heatMap()->map().empty());
    }

    // A thousand ranks in a few hundred pixels: each pixel row is the mean of its ranks, so one busy
    // rank among idle ones still shows; the highlighted rank's label is drawn.
    void heatMapOfMoreRanksThanPixels()
    {
        core::RankTimeMap map({ 0, 100 }, 10);
        for (int r = 0; r < 1000; ++r)
            map.addRow({ "rank " + std::to_string(r), r, -1 },
                r == 500 ? std::vector<core::TimeInterval> { { 0, 100 } } : std::vector<core::TimeInterval> {});
        ui::HeatMapView view;
        view.resize(600, 300);
        view.setMap(std::move(map));
        view.setHighlightedRow(500);
        const QImage image = view.grab().toImage();
        const QColor base = view.cellColor(0.0), full = view.cellColor(1.0);
        // A pixel that is a blend of the two at t (0 < t < 1) in every channel alike: an averaged cell.
        const auto blendOf = [&](QColor c) {
            const double t[] = { (c.red() - base.red()) / double(full.red() - base.red()),
                (c.green() - base.green()) / double(full.green() - base.green()),
                (c.blue() - base.blue()) / double(full.blue() - base.blue()) };
            const bool alike = std::abs(t[0] - t[1]) < 0.03 && std::abs(t[1] - t[2]) < 0.03;
            return alike ? t[0] : -1.0;
        };
        int averaged = 0;
        for (int y = 0; y < image.height(); ++y) {
            const QColor pixel = image.pixelColor(image.width() - 20, y);
            QVERIFY(pixel != full); // no pixel row is the one busy rank alone: it is averaged
            const double t = blendOf(pixel);
            averaged += t > 0.1 && t < 0.9 ? 1 : 0;
        }
        QVERIFY(averaged >= 1);
        QVERIFY(averaged <= 2);
        testing::saveScreenshot(view, QStringLiteral("heatmap-1000-ranks"));
    }

    void clickingARankOpensItsTimeline()
    {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::clusterOpened);
        QSignalSpy session(&window, &ui::MainWindow::sessionOpened);
        window.openFiles({ QString::fromStdString(m_dir.file("job/rank-0.ridge")),
            QString::fromStdString(m_dir.file("job/rank-1.ridge")) });
        QVERIFY(opened.wait(60000));
        QCOMPARE(testing::pagesOf(window)->currentWidget(), testing::clusterPageOf(window));
        QCOMPARE(session.count(), 0); // no rank's launches were read
        Q_EMIT testing::clusterPageOf(window)->heatMap()->cellClicked(1, core::TimeWindow { 0, 1 });
        QCOMPARE(
            window.statusBar()->currentMessage(), QStringLiteral("Opening rank 1 (rank-1.ridge)…")); // not its path
        QVERIFY(session.wait(60000));
        QCOMPARE(session.front().front().toString(), QString::fromStdString(m_dir.file("job/rank-1.ridge")));
        QCOMPARE(testing::pagesOf(window)->tabText(testing::pagesOf(window)->currentIndex()).remove(QLatin1Char('&')),
            QStringLiteral("Timeline"));
    }

    // A job given as many long paths: the progress names the first file and how many more, and its
    // label stays narrow (elided, the whole text in its tooltip) beside the status bar's message.
    void aClusterOfManyFilesIsNamedByItsFirst()
    {
        QStringList inputs;
        const QString folder = QString::fromStdString(m_dir.file("missing/")) + QString(200, QLatin1Char('d'));
        for (int r = 0; r < 1000; ++r)
            inputs << QStringLiteral("%1/rank-%2.ridge").arg(folder).arg(r);
        ui::MainWindow window;
        QSignalSpy failed(&window, &ui::MainWindow::clusterFailed);
        window.openCluster(inputs);
        auto* label = window.findChild<QLabel*>(QStringLiteral("taskProgressLabel"));
        QVERIFY(label);
        QCOMPARE(label->toolTip(), QStringLiteral("Opening the cluster (rank-0.ridge and 999 more)"));
        QVERIFY(label->fontMetrics().horizontalAdvance(label->text()) <= label->maximumWidth());
        QVERIFY(failed.wait(60000)); // the files do not exist

        ui::TaskProgress progress;
        const QString longTitle = QStringLiteral("Opening ") + folder + QStringLiteral("/rank-0.ridge");
        progress.begin(longTitle);
        progress.setProgress(500, QStringLiteral("checking values"));
        auto* own = progress.findChild<QLabel*>(QStringLiteral("taskProgressLabel"));
        QVERIFY(own);
        QCOMPARE(progress.text(), longTitle + QStringLiteral(": checking values"));
        QCOMPARE(own->toolTip(), progress.text());
        QVERIFY(own->text() != progress.text()); // elided
        QVERIFY(own->text().endsWith(QStringLiteral("checking values"))); // in the middle
        QVERIFY(own->fontMetrics().horizontalAdvance(own->text()) <= own->maximumWidth());
    }

    void aFolderWithNoSessionIsOneError()
    {
        std::filesystem::create_directories(m_dir.file("empty"));
        ui::MainWindow window;
        QSignalSpy failed(&window, &ui::MainWindow::clusterFailed);
        window.openCluster({ QString::fromStdString(m_dir.file("empty")) });
        QVERIFY(failed.wait(60000));
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("No sessions")));
    }
};

RIDGELINE_UI_TEST(tst_clusterpage, TestClusterPage)
#include "tst_clusterpage.moc"
