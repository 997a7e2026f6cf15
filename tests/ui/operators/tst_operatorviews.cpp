// SPDX-License-Identifier: MIT
// The PyTorch operators in the details pane, the timeline and the roofline (issue 17), offscreen:
// the operator stack of a launch with its module path, shapes, types and call stack (a synthetic
// trace whose values are written here by hand), the operators that launched a kernel, operator lanes
// and the highlight of a launch's operators on the timeline (also on a real trace, against the
// brute-force link of its JSON), and the roofline coloured by operator.
#include "../roofline/documents.h"
#include "common/selectionmodel.h"
#include "details/detailspane.h"
#include "kinetobrute.h"
#include "operatortrace.h"
#include "qtwarnings.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "roofline/rooflinepage.h"
#include "roofline/rooflinepointsitem.h"
#include "roofline/rooflineview.h"
#include "session/documentreader.h"
#include "tempdir.h"
#include "timeline/timelinepage.h"
#include "timeline/timelineview.h"
#include "uitest.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>
#include <algorithm>
#include <fstream>
#include <map>

using namespace ridgeline;
using namespace ridgeline::testing::kineto;

namespace {

using ridgeline::testing::kSyntheticOperatorTrace; // tests/support/operatortrace.h

ui::SessionDocumentPtr importAndRead(const std::string& trace, const std::string& session)
{
    if (collectors::importKineto({ trace }, session, false).hasError())
        return nullptr;
    auto doc = ui::readSessionDocument(QString::fromStdString(session));
    return doc.ok() ? std::make_shared<const ui::SessionDocument>(std::move(doc).value()) : nullptr;
}

} // namespace

class TestOperatorViews : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    ui::SessionDocumentPtr m_synthetic;
    std::map<std::int64_t, core::Kernel> m_kernelOf; // correlation -> kernel of the synthetic session

    const core::KernelSummary& summaryOf(std::int64_t correlation) const
    {
        const auto& k = m_kernelOf.at(correlation);
        for (const auto& s : m_synthetic->report.kernels) {
            if (s.nameId == k.nameId && s.deviceId == k.deviceId)
                return s;
        }
        qFatal("no summary");
    }
    static bool selectAndWait(ui::SelectionModel& selection, ui::DetailsPane& pane, const ui::KernelSelection& s)
    {
        QSignalSpy loaded(&pane, &ui::DetailsPane::detailsLoaded);
        selection.select(s, nullptr);
        return loaded.count() > 0 || loaded.wait(10000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        const auto trace = m_dir.file("synthetic.json");
        std::ofstream(trace) << kSyntheticOperatorTrace;
        m_synthetic = importAndRead(trace, m_dir.file("synthetic.ridge"));
        QVERIFY(m_synthetic && m_synthetic->operators);
        auto reader = core::SessionReader::open(m_dir.file("synthetic.ridge"));
        QVERIFY(reader.ok());
        auto kernels = reader.value().kernels();
        QVERIFY(kernels.ok());
        for (const auto& k : kernels.value())
            m_kernelOf[k.correlationId] = k;
        QCOMPARE(m_kernelOf.size(), std::size_t(3));
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void detailsOfALaunchShowItsOperatorStack()
    {
        ui::SelectionModel selection;
        ui::DetailsPane pane(&selection);
        pane.setDocument(m_synthetic);
        const auto& gemm = m_kernelOf.at(7);
        QVERIFY(selectAndWait(selection, pane, { gemm.nameId, gemm.deviceId, gemm.id }));
        const QString text = pane.browser()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Operator stack of launch #%1").arg(gemm.id)), qPrintable(text));
        // Innermost first, up to the top level.
        const auto at = [&text](const char* s) { return text.indexOf(QLatin1String(s)); };
        QVERIFY(at("aten::addmm") >= 0);
        QVERIFY(at("aten::addmm") < at("aten::linear"));
        QVERIFY(at("aten::linear") < at("nn.Module: Linear_0"));
        QVERIFY(at("nn.Module: Linear_0") < at("nn.Module: Net_0"));
        QVERIFY(text.contains(QStringLiteral("shapes [[8, 4], [2, 4]]")));
        QVERIFY(text.contains(QStringLiteral("types [float, float]")));
        QVERIFY(text.contains(QStringLiteral("module Net_0.Linear_0")));
        QVERIFY(text.contains(QStringLiteral("Call stack (of aten::linear)")));
        QVERIFY(at("model.py(3): forward") < at("train.py(9): step"));
        QVERIFY(!text.contains(QStringLiteral("Launched by:"))); // for a kernel, not a launch
        pane.resize(480, 900);
        QVERIFY(testing::savePicture(pane.grab(), QStringLiteral("operator-details")));
    }

    void detailsOfAKernelListTheOperatorsThatLaunchedIt()
    {
        ui::SelectionModel selection;
        ui::DetailsPane pane(&selection);
        pane.setDocument(m_synthetic);
        const auto& gemm2 = summaryOf(8);
        QVERIFY(selectAndWait(selection, pane, { gemm2.nameId, gemm2.deviceId, -1 }));
        const QString text = pane.browser()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Launched by:")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("aten::mm")));
        QVERIFY(text.contains(QStringLiteral("100.0 %")));
        QVERIFY(text.contains(QStringLiteral("of its longest launch with an operator, #%1").arg(m_kernelOf.at(8).id)));
        QVERIFY(text.contains(QStringLiteral("module top.Net.fc2")));

        const auto& nccl = summaryOf(9);
        QVERIFY(selectAndWait(selection, pane, { nccl.nameId, nccl.deviceId, -1 }));
        const QString unattributed = pane.browser()->toPlainText();
        QVERIFY2(unattributed.contains(QStringLiteral("no operator (unattributed)")), qPrintable(unattributed));
        QVERIFY(unattributed.contains(QStringLiteral("No operator launched any launch of this kernel")));
    }

    void detailsWithoutOperatorsHaveNoOperatorSection()
    {
        auto doc = ui::readSessionDocument(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/v1-small.ridge"));
        QVERIFY(doc.ok());
        auto plain = std::make_shared<const ui::SessionDocument>(std::move(doc).value());
        ui::SelectionModel selection;
        ui::DetailsPane pane(&selection);
        pane.setDocument(plain);
        const auto& k = plain->report.kernels.front();
        QVERIFY(selectAndWait(selection, pane, { k.nameId, k.deviceId, -1 }));
        QVERIFY(!pane.browser()->toPlainText().contains(QStringLiteral("PyTorch operators")));
    }

    // The operator lane of thread 1 nests the operators; selecting gemm's launch outlines its four
    // operators, innermost first; the tooltip of aten::mm names its module.
    void timelineDrawsOperatorLanesAndHighlightsALaunchsOperators()
    {
        ui::SelectionModel selection;
        ui::TimelinePage page(&selection);
        page.resize(1280, 720);
        page.setDocument(m_synthetic);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* view = page.view();
        const auto* data = view->data();
        const core::TimelineLane* lane = nullptr;
        for (const auto& l : data->lanes()) {
            if (l.kind == core::TimelineLaneKind::Operators)
                lane = &l;
        }
        QVERIFY(lane);
        QCOMPARE(QString::fromStdString(lane->label), QStringLiteral("Operators · thread 1"));
        QCOMPARE(lane->rowCount, 4u); // Net_0 > Linear_0 > aten::linear > aten::addmm
        const auto& gemm = m_kernelOf.at(7);
        selection.select({ gemm.nameId, gemm.deviceId, gemm.id }, nullptr);
        const auto& ops = view->launchingOperators();
        QCOMPARE(ops.size(), std::size_t(4));
        const char* expected[] = { "aten::addmm", "aten::linear", "nn.Module: Linear_0", "nn.Module: Net_0" };
        for (std::size_t i = 0; i < ops.size(); ++i) {
            QCOMPARE(data->laneOfRow(ops[i].row).kind, core::TimelineLaneKind::Operators);
            QCOMPARE(QString::fromUtf8(data->name(data->row(ops[i].row).nameIndex(ops[i].index))),
                QString::fromLatin1(expected[i]));
        }
        QVERIFY(view->launchingCallOp().has_value());
        // The highlight is drawn: the innermost operator's outline in the highlight colour.
        view->fit();
        const auto point = view->pointOf(ops.front());
        QVERIFY(point.has_value());
        QVERIFY(testing::savePicture(page.grab(), QStringLiteral("operator-timeline")));
        // aten::mm's tooltip names its module.
        const auto& gemm2 = m_kernelOf.at(8);
        selection.select({ gemm2.nameId, gemm2.deviceId, gemm2.id }, nullptr);
        QCOMPARE(view->launchingOperators().size(), std::size_t(2)); // aten::mm inside nn.Module: Net_0
        const auto mm = view->pointOf(view->launchingOperators().front());
        QVERIFY(mm.has_value());
        const QString tip = view->toolTipAt(*mm);
        QVERIFY2(tip.contains(QStringLiteral("aten::mm")) && tip.contains(QStringLiteral("Module: top.Net.fc2")),
            qPrintable(tip));
        // A launch no operator launched: nothing outlined.
        const auto& nccl = m_kernelOf.at(9);
        selection.select({ nccl.nameId, nccl.deviceId, nccl.id }, nullptr);
        QVERIFY(view->launchingOperators().empty());
    }

    // On a real trace: for launches across the session, the outlined innermost operator is the one
    // the brute-force link of the JSON names (name, thread and times).
    void timelineHighlightMatchesBruteForceOnARealTrace()
    {
        const std::string trace = RIDGELINE_TEST_DATA_DIR "/kineto/trace_filter/sampled_rank-0.json.gz";
        const auto session = m_dir.file("rank0.ridge");
        auto doc = importAndRead(trace, session);
        QVERIFY(doc && doc->operators);
        const Trace t = readTrace(trace);
        const Links links = linkGpuOps(t);
        std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> gpuOpOf; // (correlation, start)
        for (std::size_t i = 0; i < t.gpuOps.size(); ++i)
            gpuOpOf.emplace(std::pair { t.gpuOps[i].correlation, t.gpuOps[i].start }, i);
        auto reader = core::SessionReader::open(session);
        QVERIFY(reader.ok());
        auto kernels = reader.value().kernels();
        QVERIFY(kernels.ok());

        ui::SelectionModel selection;
        ui::TimelineView view(&selection);
        view.resize(1200, 700);
        view.setOperators(doc->operators);
        view.setData(doc->timeline);
        int checked = 0, unattributed = 0;
        for (std::size_t i = 0; i < kernels.value().size(); i += 7) {
            const auto& k = kernels.value()[i];
            const auto& op = links.opOfGpuOp.at(gpuOpOf.at({ k.correlationId, k.startNs }));
            selection.select({ k.nameId, k.deviceId, k.id }, nullptr);
            const auto& outlined = view.launchingOperators();
            if (!op) {
                QVERIFY(outlined.empty());
                ++unattributed;
                continue;
            }
            QVERIFY(!outlined.empty());
            const auto& row = view.data()->row(outlined.front().row);
            const auto item = row.item(outlined.front().index);
            QCOMPARE(QString::fromUtf8(view.data()->name(item.nameIndex)), QString::fromStdString(t.ops[*op].name));
            QVERIFY(item.startNs == t.ops[*op].start);
            QVERIFY(item.endNs == t.ops[*op].end);
            QVERIFY(view.data()->laneOfRow(outlined.front().row).threadId == t.ops[*op].tid);
            ++checked;
        }
        QVERIFY(checked > 50);
        Q_UNUSED(unattributed);
    }

    // Colour by operator: each kernel takes the colour of the operator that launched most of its time;
    // the legend names the operators; kernels without one are grey ("no operator").
    void rooflineColoursPointsByOperator()
    {
        auto base = testing::ncuDocument(m_dir, "raw-nersc.csv");
        QVERIFY(base);
        ui::SelectionModel selection;
        ui::RooflinePage page(&selection);
        page.resize(1000, 700);
        page.show(); // the legend's markers are visible only in a shown chart
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setDocument(base);
        QVERIFY(!page.colouring()->isEnabled()); // no operators in an Nsight Compute session
        // Two kernels on the chart get operators.
        std::vector<std::size_t> plotted;
        for (const auto& p : page.view()->chartModel().points) {
            if (std::find(plotted.begin(), plotted.end(), p.kernel) == plotted.end())
                plotted.push_back(p.kernel);
        }
        QVERIFY(plotted.size() >= 2);
        auto doc = std::make_shared<ui::SessionDocument>(*base);
        auto operators = std::make_shared<core::SessionOperators>();
        const auto& kernels = doc->report.kernels;
        const core::KernelSummary* k[] = { &kernels[plotted[0]], &kernels[plotted[1]] };
        const auto child = [](const core::KernelSummary& s, std::int64_t ns) {
            core::OperatorGroupChild c;
            c.nameId = s.nameId;
            c.deviceId = s.deviceId;
            c.gpuTimeNs = ns;
            c.gpuOps = 1;
            return c;
        };
        core::OperatorGroup mm, conv;
        mm.row.name = "aten::mm";
        mm.row.gpuTimeNs = 300;
        mm.children = { child(*k[0], 200), child(*k[1], 100) };
        conv.row.name = "aten::convolution";
        conv.row.gpuTimeNs = 250;
        conv.children = { child(*k[1], 250) }; // most of k[1]'s time
        operators->byOperator.groups = { mm, conv };
        doc->operators = operators;

        page.setDocument(doc);
        QVERIFY(page.colouring()->isEnabled());
        page.colouring()->setCurrentIndex(page.colouring()->findData(int(ui::RooflineColouring::Operator)));
        auto* view = page.view();
        QCOMPARE(view->colouring(), ui::RooflineColouring::Operator);
        const auto& colours = view->operatorColours();
        QCOMPARE(colours.names().first(), QStringLiteral("aten::mm"));
        QVERIFY(view->legendNames().contains(QStringLiteral("aten::mm")));
        QVERIFY(view->legendNames().contains(QStringLiteral("aten::convolution")));
        QVERIFY(!view->legendNames().contains(QStringLiteral("memory"))); // no verdict entries
        const auto& markers = view->pointsItem()->markers();
        const auto& points = view->chartModel().points;
        QVERIFY(!points.empty());
        for (std::size_t i = 0; i < points.size(); ++i) {
            const QString expected = points[i].kernel == plotted[0] ? QStringLiteral("aten::mm")
                : points[i].kernel == plotted[1]                    ? QStringLiteral("aten::convolution")
                                                                    : QStringLiteral("no operator");
            QCOMPARE(colours.names().at(markers[i].color), expected);
        }
        QVERIFY(testing::savePicture(page.grab(), QStringLiteral("operator-roofline")));
        QVERIFY2(colours.operatorOf(plotted[1]).startsWith(QStringLiteral("aten::convolution (71.4 %")),
            qPrintable(colours.operatorOf(plotted[1])));
        // Without an operator, a kernel is grey: "no operator" joins the legend.
        auto fewer = std::make_shared<ui::SessionDocument>(*doc);
        auto onlyMm = std::make_shared<core::SessionOperators>();
        mm.children = { child(*k[0], 200) };
        onlyMm->byOperator.groups = { mm };
        fewer->operators = onlyMm;
        page.setDocument(fewer);
        QCOMPARE(view->colouring(), ui::RooflineColouring::Operator);
        QVERIFY(view->legendNames().contains(QStringLiteral("no operator")));
        for (std::size_t i = 0; i < view->chartModel().points.size(); ++i) {
            const auto& p = view->chartModel().points[i];
            QCOMPARE(view->operatorColours().names().at(view->pointsItem()->markers()[i].color),
                p.kernel == plotted[0] ? QStringLiteral("aten::mm") : QStringLiteral("no operator"));
        }
        QVERIFY(view->operatorColours().operatorOf(plotted[1]).isEmpty());
        page.setDocument(doc);
        // Back to verdicts.
        page.colouring()->setCurrentIndex(page.colouring()->findData(int(ui::RooflineColouring::Verdict)));
        QCOMPARE(view->pointsItem()->markers().front().color,
            static_cast<quint8>(doc->report.kernels[points.front().kernel].analysis.verdict));
        QVERIFY(view->legendNames().contains(QStringLiteral("memory")));
        QVERIFY(testing::savePicture(page.grab(), QStringLiteral("operator-roofline-verdicts")));
        // Without operators the choice is off.
        page.setDocument(base);
        QVERIFY(!page.colouring()->isEnabled());
    }

    // A real H100 PyTorch trace with shapes (BERT small; TraceLens's, tests/data/tracelens-h100):
    // its kernels are on the roofline as hollow points (figures from shapes), one point per
    // operator shape under "Points: Operators", and Details says where the figures come from.
    void rooflineAndDetailsShowFiguresFromShapes()
    {
        const std::string trace
            = RIDGELINE_TEST_DATA_DIR "/tracelens-h100/gaunernst_bert-small-uncased__1016001.json.gz";
        auto doc = importAndRead(trace, m_dir.file("bert.ridge"));
        QVERIFY(doc && doc->operators);
        QVERIFY(!doc->operators->shapePoints.empty());
        ui::SelectionModel selection;
        ui::RooflinePage page(&selection);
        page.resize(1000, 700);
        page.show(); // points get their places in a shown chart
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setDocument(doc);
        auto* view = page.view();
        QVERIFY(page.pointSource()->isEnabled());
        QVERIFY(!view->chartModel().points.empty());
        for (const auto& marker : view->pointsItem()->markers())
            QVERIFY(marker.hollow); // no counters in the trace: every point is from shapes
        page.pointSource()->setCurrentIndex(page.pointSource()->findData(int(ui::RooflinePoints::Operators)));
        QVERIFY(view->showsOperators());
        const auto& points = view->chartModel().points;
        QVERIFY(!points.empty());
        bool addmm = false;
        for (const auto& p : points) {
            const auto& row = view->pointRows()[p.kernel];
            QVERIFY2(row.name.rfind("aten::", 0) == 0, row.name.c_str());
            addmm = addmm || row.name == "aten::addmm [[512],[141,512],[512,512],[],[]]";
        }
        QVERIFY(addmm);
        QVERIFY(view->toolTipAt(view->viewPosition(0)).contains(QStringLiteral("from shapes")));
        QVERIFY(testing::savePicture(page.grab(), QStringLiteral("operator-shapes-roofline")));
        page.pointSource()->setCurrentIndex(page.pointSource()->findData(int(ui::RooflinePoints::Kernels)));
        QVERIFY(!view->showsOperators());

        ui::DetailsPane pane(&selection);
        pane.setDocument(doc);
        const auto& top = doc->report.kernels.front(); // the longest: the addmm (141×512)·(512×512) GEMM
        QCOMPARE(top.analysis.figures, core::FigureSource::Shapes);
        QVERIFY(selectAndWait(selection, pane, { top.nameId, top.deviceId, -1 }));
        const QString text = pane.browser()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("from shapes")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("aten::addmm")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("M=141, N=512, K=512")), qPrintable(text));
    }
};

RIDGELINE_UI_TEST(tst_operatorviews, TestOperatorViews)
#include "tst_operatorviews.moc"
