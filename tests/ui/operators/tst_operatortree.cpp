// SPDX-License-Identifier: MIT
// The kernel table grouped by PyTorch operator or module (issue 17), offscreen, on a real trace
// (trace_filter rank 0) loaded as the app loads it: the tree model under QAbstractItemModelTester,
// its figures against a brute-force link of the trace's JSON (kinetobrute.h), filters, selection
// both ways, the View menu's entries, and a session without operators.
#include "../roofline/documents.h"
#include "common/selectionmodel.h"
#include "kernels/kernelfilterbar.h"
#include "kernels/kernelpage.h"
#include "kernels/kernelrowsource.h"
#include "kernels/operatorgroupview.h"
#include "kernels/operatortreemodel.h"
#include "kernels/operatortreeproxy.h"
#include "kinetobrute.h"
#include "qtwarnings.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "session/documentreader.h"
#include "tempdir.h"
#include "uitest.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <map>

using namespace ridgeline;
using namespace ridgeline::testing::kineto;
using ui::OperatorTreeModel;

namespace {

QString traceFilterRank0()
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/kineto/trace_filter/sampled_rank-0.json.gz");
}

} // namespace

class TestOperatorTree : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    ui::SessionDocumentPtr m_doc;
    Trace m_trace;
    Links m_links;
    std::map<std::string, std::int64_t> m_gpuTime; // brute force: operator name -> GPU time
    std::int64_t m_unattributed = 0;

    static QModelIndex find(const QAbstractItemModel& model, const QString& name)
    {
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, 0).data().toString() == name)
                return model.index(r, 0);
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        const auto session = m_dir.file("rank0.ridge");
        auto imported = collectors::importKineto({ traceFilterRank0().toStdString() }, session, false);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
        auto doc = ui::readSessionDocument(QString::fromStdString(session));
        QVERIFY(doc.ok());
        m_doc = std::make_shared<const ui::SessionDocument>(std::move(doc).value());
        QVERIFY(m_doc->operators);
        m_trace = readTrace(traceFilterRank0().toStdString());
        m_links = linkGpuOps(m_trace);
        for (std::size_t i = 0; i < m_trace.gpuOps.size(); ++i) {
            if (const auto& op = m_links.opOfGpuOp[i])
                m_gpuTime[m_trace.ops[*op].name] += m_trace.gpuOps[i].duration();
            else
                m_unattributed += m_trace.gpuOps[i].duration();
        }
        QVERIFY(m_unattributed > 0); // this trace launches GPU ops outside any operator
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void modelAndProxyPassTheModelTester()
    {
        OperatorTreeModel model;
        ui::OperatorTreeProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc, core::ReportGrouping::Op);
        QVERIFY(model.rowCount() > 1);
        proxy.sort(OperatorTreeModel::GpuTimeColumn, Qt::DescendingOrder);
        proxy.setFilters(QStringLiteral("aten"), std::nullopt, std::nullopt, std::nullopt);
        QVERIFY(proxy.rowCount() > 0);
        proxy.setFilters({}, core::VerdictClass::Unknown, std::int64_t { 0 }, std::nullopt);
        model.setDocument(m_doc, core::ReportGrouping::Module);
        QCOMPARE(model.rowCount(), 2); // "(no module)" and "(unattributed)"
        model.setDocument(nullptr, core::ReportGrouping::Op);
        QCOMPARE(model.rowCount(), 0);
    }

    // Each group's GPU time is the brute-force sum of the GPU ops its operator launched; its rows
    // add up to it; the unattributed group holds the rest.
    void groupsMatchTheBruteForceLink()
    {
        OperatorTreeModel model;
        model.setDocument(m_doc, core::ReportGrouping::Op);
        std::map<std::string, std::int64_t> shown;
        qint64 unattributed = -1;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QModelIndex group = model.index(r, OperatorTreeModel::GpuTimeColumn);
            QVERIFY(group.data(OperatorTreeModel::IsGroupRole).toBool());
            const qint64 time = group.data(ui::SortRole).toLongLong();
            const QString name = model.index(r, 0).data().toString();
            qint64 children = 0;
            for (int c = 0; c < model.rowCount(model.index(r, 0)); ++c)
                children += model.index(c, OperatorTreeModel::GpuTimeColumn, model.index(r, 0))
                                .data(ui::SortRole)
                                .toLongLong();
            QCOMPARE(children, time);
            if (name == QLatin1String(core::kUnattributedGroupName))
                unattributed = time;
            else
                shown[name.toStdString()] = time;
        }
        std::map<std::string, std::int64_t> expected;
        for (const auto& [name, time] : m_gpuTime)
            expected[name] = time;
        QVERIFY(shown == expected);
        QCOMPARE(unattributed, static_cast<qint64>(m_unattributed));
        QCOMPARE(model.headerData(OperatorTreeModel::NameColumn, Qt::Horizontal).toString(),
            QStringLiteral("Operator, then kernel"));
    }

    void kernelPageShowsTheTreeFiltersAndFollowsTheSelection()
    {
        ui::SelectionModel selection;
        ui::KernelPage page;
        page.resize(1000, 600);
        page.setSelectionModel(&selection);
        page.setDocument(m_doc);
        page.setGrouping(ui::KernelGrouping::ByOperator);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* tree = qobject_cast<QTreeView*>(page.view());
        QVERIFY(tree);
        QVERIFY(tree->isVisible());
        const auto& groups = m_doc->operators->byOperator.groups;
        QCOMPARE(tree->model()->rowCount(), static_cast<int>(groups.size()));
        // Most GPU time first.
        QCOMPARE(tree->model()->index(0, 0).data().toString(), QString::fromStdString(groups.front().row.name));

        // A kernel selected elsewhere: its row under the operator that launched most of its time.
        const auto& top = groups.front().children.front();
        selection.select({ top.nameId, top.deviceId, -1 }, nullptr);
        const QModelIndex current = tree->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.data(ui::NameIdRole).toLongLong(), static_cast<qlonglong>(top.nameId));
        QCOMPARE(current.parent().data().toString(), QString::fromStdString(groups.front().row.name));
        QVERIFY(tree->isExpanded(current.parent()));
        QVERIFY(testing::savePicture(page.grab(), QStringLiteral("operator-tree")));
        // Choosing another kernel row selects that kernel everywhere.
        const QModelIndex group = tree->model()->index(0, 0);
        const QModelIndex other = tree->model()->index(tree->model()->rowCount(group) - 1, 0, group);
        QSignalSpy changed(&selection, &ui::SelectionModel::selectionChanged);
        tree->setCurrentIndex(other);
        if (other.data(ui::NameIdRole).toLongLong() >= 0 && other != current) {
            QCOMPARE(changed.count(), 1);
            QCOMPARE(selection.current().nameId, static_cast<qint64>(other.data(ui::NameIdRole).toLongLong()));
        }

        // The filter bar's text filters the tree too: by a group's name...
        const QString name = QString::fromStdString(groups[1].row.name);
        page.filterBar()->setTextFilter(name);
        QVERIFY(tree->model()->rowCount() >= 1);
        for (int r = 0; r < tree->model()->rowCount(); ++r) {
            const QModelIndex g = tree->model()->index(r, 0);
            bool matches = g.data().toString().contains(name, Qt::CaseInsensitive);
            for (int c = 0; c < tree->model()->rowCount(g); ++c)
                matches = matches || tree->model()->index(c, 0, g).data(Qt::ToolTipRole).toString().contains(name);
            QVERIFY2(matches, qPrintable(g.data().toString()));
        }
        // ... and the verdict filter keeps only kernels of that verdict.
        page.filterBar()->clear();
        page.filterBar()->setVerdictFilter(core::VerdictClass::CommunicationBound);
        for (int r = 0; r < tree->model()->rowCount(); ++r) {
            const QModelIndex g = tree->model()->index(r, 0);
            for (int c = 0; c < tree->model()->rowCount(g); ++c)
                QVERIFY(ui::verdictOfRow(tree->model()->index(c, 0, g)) == core::VerdictClass::CommunicationBound);
        }
        page.filterBar()->clear();
        QCOMPARE(tree->model()->rowCount(), static_cast<int>(groups.size()));

        // By module: this trace has none, so one "(no module)" group and the unattributed one.
        page.setGrouping(ui::KernelGrouping::ByModule);
        QCOMPARE(page.view()->model()->rowCount(), 2);
        QVERIFY(find(*page.view()->model(), QStringLiteral("(no module)")).isValid());
        // Back to one row per kernel: the table again.
        page.setGrouping(ui::KernelGrouping::ByName);
        QVERIFY(!qobject_cast<QTreeView*>(page.view()));
    }

    void aSessionWithoutOperatorsSaysSo()
    {
        auto doc = ui::readSessionDocument(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/v1-small.ridge"));
        QVERIFY(doc.ok());
        auto plain = std::make_shared<const ui::SessionDocument>(std::move(doc).value());
        QVERIFY(!plain->operators);
        ui::KernelPage page;
        page.setDocument(plain);
        page.setGrouping(ui::KernelGrouping::ByOperator);
        page.show();
        QVERIFY(page.groupView()->note()->isVisible());
        QVERIFY(page.groupView()->note()->text().contains(QStringLiteral("no PyTorch operators")));
    }

    void viewMenuSwitchesTheGrouping()
    {
        ui::MainWindow window;
        QAction* byOperator = nullptr;
        QAction* byModule = nullptr;
        for (auto* menu : window.menuBar()->findChildren<QMenu*>()) {
            for (auto* action : menu->actions()) {
                if (action->text() == QStringLiteral("By PyTorch &Operator"))
                    byOperator = action;
                if (action->text() == QStringLiteral("By PyTorch &Module"))
                    byModule = action;
            }
        }
        QVERIFY(byOperator && byModule);
        byOperator->trigger();
        QCOMPARE(testing::kernelPageOf(window)->grouping(), ui::KernelGrouping::ByOperator);
        QVERIFY(byOperator->isChecked());
        byModule->trigger();
        QCOMPARE(testing::kernelPageOf(window)->grouping(), ui::KernelGrouping::ByModule);
        testing::kernelPageOf(window)->setGrouping(ui::KernelGrouping::ByName);
    }
};

RIDGELINE_UI_TEST(tst_operatortree, TestOperatorTree)
#include "tst_operatortree.moc"
