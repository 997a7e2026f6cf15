// SPDX-License-Identifier: MIT
// The Communication page (ui/communication/) on real two-rank and one-rank Kineto traces, offscreen:
// its models under QAbstractItemModelTester, the slow rank first and named, the instances sorted by
// skew, the heat map of time in collectives, and a selected instance drawn on the timeline (in a
// page pair and through the main window). Expected figures come from the traces' own events.
#include "commdocuments.h"
#include "common/heatmapview.h"
#include "common/selectionmodel.h"
#include "communication/collectivemodel.h"
#include "communication/communicationpage.h"
#include "communication/instancemodel.h"
#include "communication/rankwaitmodel.h"
#include "qtwarnings.h"
#include "timeline/instanceoverlay.h"
#include "timeline/timelinepage.h"
#include "timeline/timelineview.h"
#include "uitest.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <algorithm>

using namespace ridgeline;

namespace {

struct Expected {
    std::int64_t wait[2] = { 0, 0 };
    std::int64_t last[2] = { 0, 0 };
    std::int64_t maxSkew = 0;
    int slow = 0;
};

Expected expectedWaits()
{
    const auto starts = testing::twoRankNcclStarts();
    Expected e;
    for (std::size_t i = 0; i < starts[0].size(); ++i) {
        const std::int64_t latest = std::max(starts[0][i], starts[1][i]);
        for (int r = 0; r < 2; ++r)
            e.wait[r] += latest - starts[static_cast<std::size_t>(r)][i];
        if (starts[0][i] != starts[1][i])
            ++e.last[starts[1][i] > starts[0][i] ? 1 : 0];
        e.maxSkew = std::max(e.maxSkew, std::abs(starts[0][i] - starts[1][i]));
    }
    e.slow = e.last[1] > e.last[0] ? 1 : 0;
    return e;
}

int countColor(const QImage& image, QRgb color)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            n += image.pixel(x, y) == color ? 1 : 0;
    }
    return n;
}

} // namespace

class TestCommunicationPage : public testing::CommDocumentsTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(loadDocuments());
        QVERIFY(m_two->collectives && m_two->timeline);
        QVERIFY(m_one->collectives);
        m_expected = expectedWaits();
        QVERIFY(m_expected.last[m_expected.slow] > 0);
    }

    void modelsPassTheModelTester()
    {
        ui::CommunicationPage page;
        QAbstractItemModelTester collectives(page.collectiveModel());
        QAbstractItemModelTester ranks(page.rankModel());
        QAbstractItemModelTester instances(page.instanceModel());
        QAbstractItemModelTester collectiveProxy(page.collectiveView()->model());
        QAbstractItemModelTester instanceProxy(page.instanceView()->model());
        for (const auto& doc : { m_two, m_one, ui::SessionDocumentPtr {}, m_two }) {
            page.setDocument(doc);
            for (int c = 0; c < ui::CollectiveModel::ColumnCount; ++c)
                page.collectiveView()->sortByColumn(c, c % 2 ? Qt::AscendingOrder : Qt::DescendingOrder);
            for (int c = 0; c < ui::InstanceModel::ColumnCount; ++c)
                page.instanceView()->sortByColumn(c, Qt::AscendingOrder);
        }
    }

    void showsTheSlowRankFirstWithItsWaits()
    {
        ui::CommunicationPage page;
        page.setDocument(m_two);
        const auto* ranks = page.rankModel();
        QCOMPARE(ranks->rowCount(), 2);
        QCOMPARE(ranks->slowRank(), m_expected.slow);
        // First in the view too (the page keeps core's order: the rank that arrives last first).
        const auto* view = page.rankView()->model();
        QCOMPARE(view->index(0, 0).data(ui::RankWaitModel::RankRole).toInt(), m_expected.slow);
        for (int row = 0; row < 2; ++row) {
            const int rank = ranks->index(row, 0).data(ui::RankWaitModel::RankRole).toInt();
            QCOMPARE(ranks->index(row, ui::RankWaitModel::WaitedColumn).data(ui::RankWaitModel::SortRole).toLongLong(),
                m_expected.wait[rank]);
            QCOMPARE(ranks->index(row, ui::RankWaitModel::LastArrivalsColumn).data().toString(),
                QStringLiteral("%1 of 10").arg(m_expected.last[rank]));
        }
        QVERIFY(ranks->index(0, 0).data().toString().contains(QStringLiteral("arrives last")));
        const QString summary = page.summary()->text();
        QVERIFY2(summary.contains(QStringLiteral("Rank %1 makes the others wait: it starts last in %2 of 10")
                                      .arg(m_expected.slow)
                                      .arg(m_expected.last[m_expected.slow])),
            qPrintable(summary));
        // The collectives table: one row (SendRecv without sizes), its reason naming the slow rank.
        QCOMPARE(page.collectiveModel()->rowCount(), 1);
        const QString reason = page.collectiveModel()->index(0, 0).data(ui::CollectiveModel::ReasonRole).toString();
        QVERIFY2(reason.contains(QStringLiteral("waiting for rank %1").arg(m_expected.slow)), qPrintable(reason));
        QCOMPARE(
            page.collectiveModel()->index(0, ui::CollectiveModel::BusBwColumn).data().toString(), QStringLiteral("–"));
        testing::saveScreenshot(page, QStringLiteral("communication-two-ranks"));
    }

    void instancesAreSortedByStartSkew()
    {
        ui::CommunicationPage page;
        page.setDocument(m_two);
        auto* model = page.instanceView()->model();
        QCOMPARE(model->rowCount(), 10);
        QCOMPARE(model->index(0, ui::InstanceModel::StartSkewColumn).data(ui::InstanceModel::SortRole).toLongLong(),
            m_expected.maxSkew);
        for (int row = 1; row < model->rowCount(); ++row)
            QVERIFY(
                model->index(row - 1, ui::InstanceModel::StartSkewColumn).data(ui::InstanceModel::SortRole).toLongLong()
                >= model->index(row, ui::InstanceModel::StartSkewColumn)
                       .data(ui::InstanceModel::SortRole)
                       .toLongLong());
        const int skewed = page.mostSkewedInstance();
        QCOMPARE(page.instanceModel()->instances()[static_cast<std::size_t>(skewed)].startSkewNs, m_expected.maxSkew);
    }

    void heatMapShowsTimeInCollectivesPerRank()
    {
        ui::CommunicationPage page;
        page.resize(1200, 800);
        page.setDocument(m_two);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* heat = page.heatMap();
        const auto& map = heat->map();
        QCOMPARE(static_cast<int>(map.rowCount()), 2);
        QCOMPARE(map.bins(), ui::CommunicationPage::kHeatMapBins);
        QCOMPARE(map.row(static_cast<std::size_t>(heat->highlightedRow())).rank, m_expected.slow);
        // Time in collectives per rank: at least the NCCL kernels' own spans are covered somewhere.
        for (std::size_t r = 0; r < map.rowCount(); ++r)
            QVERIFY(map.rowShare(r) > 0.0 && map.rowShare(r) < 1.0);
        // The busiest cell is drawn darker than an empty one, and says what it is.
        int busiest = 0;
        for (int b = 1; b < map.bins(); ++b)
            busiest = map.value(0, b) > map.value(0, busiest) ? b : busiest;
        QVERIFY(heat->cellColor(map.value(0, busiest)).lightness() < heat->cellColor(0.0).lightness());
        const QRect area = heat->rect();
        for (int x = area.left(); x < area.right(); x += 2) {
            const auto cell = heat->cellAt(QPoint(x, heat->height() / 4));
            if (cell && cell->second == busiest) {
                const QString tip = heat->toolTipAt(QPoint(x, heat->height() / 4));
                QVERIFY2(tip.contains(QStringLiteral("in collectives")), qPrintable(tip));
                QVERIFY2(tip.contains(QString::fromStdString(map.row(0).label).toHtmlEscaped()), qPrintable(tip));
                // A click there selects an instance that runs in that bin.
                QSignalSpy selected(&page, &ui::CommunicationPage::instanceSelected);
                QTest::mouseClick(heat, Qt::LeftButton, {}, QPoint(x, heat->height() / 4));
                QCOMPARE(selected.count(), 1);
                const auto instance = selected.takeFirst().at(0).value<core::CollectiveInstance>();
                const auto bin = map.binWindow(busiest);
                QVERIFY(std::any_of(instance.members.begin(), instance.members.end(),
                    [&](const auto& m) { return m.startNs < bin.endNs && m.endNs >= bin.startNs; }));
                QVERIFY(heat->markedWindow().has_value());
                break;
            }
        }
        QVERIFY(page.selectedInstance().has_value());
        testing::saveScreenshot(*heat, QStringLiteral("communication-heatmap"));
    }

    void selectedInstanceIsDrawnAcrossTheRanksTimelines()
    {
        ui::SelectionModel selection;
        ui::CommunicationPage page;
        ui::TimelinePage timeline(&selection);
        QObject::connect(
            &page, &ui::CommunicationPage::instanceSelected, &timeline, &ui::TimelinePage::showCollectiveInstance);
        timeline.resize(1280, 900);
        timeline.setDocument(m_two);
        page.setDocument(m_two);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        const int skewed = page.mostSkewedInstance();
        page.selectInstance(skewed);
        const auto& overlay = timeline.view()->collectiveInstance();
        QVERIFY(!overlay.empty());
        QCOMPARE(static_cast<int>(overlay.members().size()), 2);
        const auto& instance = page.instanceModel()->instances()[static_cast<std::size_t>(skewed)];
        QCOMPARE(overlay.instance().startSkewNs, m_expected.maxSkew);
        for (const auto& m : overlay.members()) {
            QVERIFY(m.op.has_value());
            QCOMPARE(timeline.view()->data()->laneOfRow(m.op->row).rank, m.rank);
        }
        // Zoomed to the instance: its whole span in view, and not the whole session.
        const auto w = timeline.view()->visibleWindow();
        QVERIFY(w.startNs <= overlay.span().startNs && w.endNs >= overlay.span().endNs);
        QVERIFY(w.endNs - w.startNs < m_two->timeline->extent().endNs - m_two->timeline->extent().startNs);
        QCOMPARE(overlay.latestStartNs(), std::max(instance.members[0].startNs, instance.members[1].startNs));
        // Drawn: the outline colour and the waits' shade are on screen.
        QImage image = timeline.view()->viewport()->grab().toImage();
        QVERIFY(countColor(image, ui::InstanceOverlay::color().rgb()) > 20);
        testing::saveScreenshot(timeline, QStringLiteral("timeline-instance"));
        // Clearing the selection clears the drawing.
        page.selectInstance(-1);
        QVERIFY(timeline.view()->collectiveInstance().empty());
        image = timeline.view()->viewport()->grab().toImage();
        QCOMPARE(countColor(image, ui::InstanceOverlay::color().rgb()), 0);
    }

    void oneRankHasNoInstancesButBusBandwidth()
    {
        ui::CommunicationPage page;
        page.setDocument(m_one);
        QCOMPARE(page.instanceModel()->rowCount(), 0);
        QCOMPARE(page.rankModel()->slowRank(), -1);
        QVERIFY(page.summary()->text().contains(QStringLiteral("no waits across ranks")));
        QVERIFY(page.collectiveModel()->rowCount() > 2);
        for (int row = 0; row < page.collectiveModel()->rowCount(); ++row) {
            const auto& r = page.collectiveModel()->rows()[static_cast<std::size_t>(row)];
            QVERIFY(r.busBytesPerS.has_value());
            QCOMPARE(page.collectiveModel()->index(row, ui::CollectiveModel::LinkColumn).data().toString(),
                QStringLiteral("NVLink 300 GB/s")); // the A100 SXM4 40GB's datasheet NVLink
            QCOMPARE(page.collectiveModel()
                         ->index(row, ui::CollectiveModel::BusBwColumn)
                         .data(ui::CollectiveModel::SortRole)
                         .toDouble(),
                *r.busBytesPerS);
        }
        // Sorted by busbw through the view's proxy.
        page.collectiveView()->sortByColumn(ui::CollectiveModel::BusBwColumn, Qt::DescendingOrder);
        auto* model = page.collectiveView()->model();
        for (int row = 1; row < model->rowCount(); ++row)
            QVERIFY(
                model->index(row - 1, ui::CollectiveModel::BusBwColumn).data(ui::CollectiveModel::SortRole).toDouble()
                >= model->index(row, ui::CollectiveModel::BusBwColumn).data(ui::CollectiveModel::SortRole).toDouble());
        testing::saveScreenshot(page, QStringLiteral("communication-one-rank"));
    }

    void mainWindowWiresThePageToTheTimeline()
    {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(m_two->path);
        QVERIFY(opened.wait(30000));
        QVERIFY(window.showView(QStringLiteral("communication")));
        auto* page = qobject_cast<ui::CommunicationPage*>(testing::pagesOf(window)->currentWidget());
        QVERIFY(page);
        QCOMPARE(page->rankModel()->slowRank(), m_expected.slow);
        page->selectInstance(page->mostSkewedInstance());
        ui::TimelinePage* timeline = nullptr;
        for (int i = 0; i < testing::pagesOf(window)->count(); ++i)
            timeline = timeline ? timeline : qobject_cast<ui::TimelinePage*>(testing::pagesOf(window)->widget(i));
        QVERIFY(timeline);
        QVERIFY(!timeline->view()->collectiveInstance().empty());
        // Double-click (or Enter) goes to the timeline.
        Q_EMIT page->showOnTimelineRequested();
        QCOMPARE(testing::pagesOf(window)->currentWidget(), timeline);
    }

private:
    Expected m_expected;
};

RIDGELINE_UI_TEST(tst_communicationpage, TestCommunicationPage)
#include "tst_communicationpage.moc"
