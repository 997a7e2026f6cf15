// SPDX-License-Identifier: MIT
// The roofline page's collectives chart (ui/roofline/collectivechartview.h) on real traces,
// offscreen: one point per collective type, process group and size at (S, busbw), under the link's
// roof; hidden when no collective has sizes. Expected numbers come from the trace's own arguments.
#include "commdocuments.h"
#include "common/selectionmodel.h"
#include "gunzip.h"
#include "qtwarnings.h"
#include "roofline/collectivechartview.h"
#include "roofline/rooflinepage.h"
#include "testutil.h"
#include "uitest.h"

#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTest>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

using namespace ridgeline;

class TestCollectiveChart : public testing::CommDocumentsTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(loadDocuments()); }

    void pointsSitAtTheirBusBandwidthUnderTheLinkRoof()
    {
        // Independently: (collective, S) -> calls and ns; two ranks, so busbw = algbw for both types.
        const auto doc = nlohmann::json::parse(
            testing::gunzipFile(testing::testDataPath("kineto/nccl_parser_config/nccl_data.json.gz")));
        std::map<std::string, std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>>> byType;
        for (const auto& ev : doc["traceEvents"]) {
            if (ev.value("cat", "") != "kernel" || ev.value("name", "").rfind("ncclKernel", 0) != 0)
                continue;
            const auto& a = ev["args"];
            const std::int64_t bytes = a["In msg nelems"].get<std::int64_t>() * (a["dtype"] == "Float" ? 4 : 8);
            auto& c = byType[a["Collective name"].get<std::string>()][bytes];
            c.first += 1;
            c.second += ev["dur"].is_number_integer() ? ev["dur"].get<std::int64_t>() * 1000
                                                      : std::llround(ev["dur"].get<double>() * 1000.0);
        }
        ui::CollectiveChartView view;
        view.resize(900, 500);
        view.setDocument(m_one);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.pointSeries().size(), byType.size());
        for (auto* series : view.pointSeries()) {
            const auto& expected = byType.at(series->name().toStdString());
            QCOMPARE(static_cast<std::size_t>(series->count()), expected.size());
            for (const QPointF& p : series->points()) {
                const auto it = expected.find(static_cast<std::int64_t>(std::llround(p.x())));
                QVERIFY(it != expected.end());
                const double busbw
                    = p.x() * static_cast<double>(it->second.first) / (static_cast<double>(it->second.second) / 1e9);
                QVERIFY(std::abs(p.y() - busbw) <= busbw * 1e-9);
                QVERIFY(p.x() >= view.xAxis()->min() && p.x() <= view.xAxis()->max());
                QVERIFY(p.y() >= view.yAxis()->min() && p.y() <= view.yAxis()->max());
            }
        }
        QCOMPARE(view.roofSeries().size(), std::size_t { 1 });
        const auto* roof = view.roofSeries().front();
        QCOMPARE(roof->name(), QStringLiteral("NVLink 300 GB/s")); // the A100 SXM4 40GB's datasheet NVLink
        QCOMPARE(roof->at(0).y(), 300e9);
        QCOMPARE(roof->at(1).y(), 300e9);
        // Hovering the largest point tells its numbers.
        const QPoint at = view.viewPosition(0);
        QCOMPARE(view.pointAt(at), 0);
        const QString tip = view.toolTipAt(at);
        QVERIFY2(tip.contains(QStringLiteral("busbw")) && tip.contains(QStringLiteral("of NVLink 300 GB/s")),
            qPrintable(tip));
        QVERIFY(view.toolTipAt(QPoint(2, 2)).isEmpty());
        testing::saveScreenshot(view, QStringLiteral("collective-chart"));
    }

    void rooflinePageShowsTheChartOnlyWithSizes()
    {
        ui::SelectionModel selection;
        ui::RooflinePage page(&selection);
        page.resize(1200, 900);
        page.setDocument(m_one);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.collectiveChart()->isVisible());
        QVERIFY(!page.collectiveChart()->chartModel().empty());
        testing::saveScreenshot(page, QStringLiteral("roofline-page-collectives"));
        page.setDocument(m_two); // SendRecv without sizes: nothing to place
        QVERIFY(!page.collectiveChart()->isVisible());
        QVERIFY(page.collectiveChart()->chartModel().empty());
        page.setDocument(nullptr);
        QVERIFY(!page.collectiveChart()->isVisible());
    }
};

RIDGELINE_UI_TEST(tst_collectivechart, TestCollectiveChart)
#include "tst_collectivechart.moc"
