// SPDX-License-Identifier: MIT
// The kernel table's Baseline and Δ time columns and the details pane's comparison, with the small
// fixture as the current session and an edited copy of it as the baseline: sgemm's two launches
// 2 µs longer each there (28 µs -> 24 µs now: -4 µs, -14.3 %), the cutlass kernel renamed (new now).
#include "common/selectionmodel.h"
#include "details/detailspane.h"
#include "documents.h"
#include "fixtures.h"
#include "kernels/kernelfilterproxy.h"
#include "kernels/kernelmodel.h"
#include "kernels/kernelpage.h"
#include "qtwarnings.h"
#include "testutil.h"
#include "uitest.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>

using namespace ridgeline;

namespace {
const std::string kSgemm = "ampere_sgemm_128x64_nn";
const std::string kCutlass = "void cutlass::Kernel<int>(int*)";
} // namespace

class TestKernelBaseline : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    std::string m_currentPath;
    std::string m_baselinePath;
    ui::SessionDocumentPtr m_current;
    ui::SessionDocumentPtr m_baseline;

    static QString text(const ui::KernelModel& model, int row, int column, int role = Qt::DisplayRole)
    {
        return model.index(row, column).data(role).toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        m_currentPath = m_dir.file("current.ridge");
        m_baselinePath = m_dir.file("baseline.ridge");
        QVERIFY(testing::writeSmallFixture(m_currentPath).ok());
        QVERIFY(testing::writeSmallFixture(m_baselinePath).ok());
        testing::execSql(m_baselinePath,
            "UPDATE kernels SET end_ns = end_ns + 2000 WHERE name_id IN "
            "(SELECT id FROM kernel_names WHERE demangled = 'ampere_sgemm_128x64_nn');"
            "UPDATE kernel_names SET raw = 'old_kernel', demangled = 'old_kernel' "
            "WHERE demangled = 'void cutlass::Kernel<int>(int*)';");
        m_current = testing::loadDocument(m_currentPath);
        m_baseline = testing::loadDocument(m_baselinePath);
        QVERIFY(m_current && m_baseline);
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void modelWithABaselinePassesTheTester()
    {
        ui::KernelModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(m_current->report.kernels);
        QCOMPARE(model.columnCount(), int(ui::KernelModel::ColumnCount));
        QVERIFY(!model.headerData(ui::KernelModel::BaselineColumn, Qt::Horizontal).isValid());

        QSignalSpy inserted(&model, &QAbstractItemModel::columnsInserted);
        model.setBaseline(m_baseline);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.columnCount(), int(ui::KernelModel::ColumnCountWithBaseline));
        QCOMPARE(
            model.headerData(ui::KernelModel::BaselineColumn, Qt::Horizontal).toString(), QStringLiteral("Baseline"));
        QCOMPARE(model.headerData(ui::KernelModel::DeltaColumn, Qt::Horizontal).toString(), QStringLiteral("Δ time"));
        QVERIFY(model.headerData(ui::KernelModel::BaselineColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QString::fromStdString(m_baselinePath)));

        // New rows under a baseline, another baseline, the same one again, then none.
        model.setRows({});
        model.setRows(m_current->report.kernels);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setBaseline(m_current);
        QCOMPARE(changed.count(), 1);
        model.setBaseline(m_current);
        QCOMPARE(changed.count(), 1);
        QSignalSpy removed(&model, &QAbstractItemModel::columnsRemoved);
        model.setBaseline(nullptr);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(model.columnCount(), int(ui::KernelModel::ColumnCount));
        QVERIFY(!model.hasBaseline());
    }

    void cellsGiveTheBaselineAndTheChange()
    {
        ui::KernelModel model;
        model.setRows(m_current->report.kernels);
        model.setBaseline(m_baseline);
        const int sgemm = testing::kernelIndex(*m_current, kSgemm, 0);
        const int cutlass = testing::kernelIndex(*m_current, kCutlass, 1);
        const int vectorAdd = testing::kernelIndex(*m_current, "vectorAdd(float const*, float const*, float*, int)", 0);
        QVERIFY(sgemm >= 0 && cutlass >= 0 && vectorAdd >= 0);

        QCOMPARE(text(model, sgemm, ui::KernelModel::BaselineColumn), QStringLiteral("28.000 µs"));
        QCOMPARE(text(model, sgemm, ui::KernelModel::DeltaColumn), QStringLiteral("-4.000 µs (-14.3 %)"));
        QCOMPARE(model.index(sgemm, ui::KernelModel::DeltaColumn).data(ui::SortRole).toDouble(), -4000.0);
        QCOMPARE(model.index(sgemm, ui::KernelModel::BaselineColumn).data(ui::SortRole).toDouble(), 28000.0);
        // Faster is green: more green than red in the text colour.
        const auto faster = model.index(sgemm, ui::KernelModel::DeltaColumn).data(Qt::ForegroundRole).value<QColor>();
        QVERIFY(faster.isValid());
        QVERIFY(faster.green() > faster.red());
        const QString tip = text(model, sgemm, ui::KernelModel::DeltaColumn, Qt::ToolTipRole);
        QVERIFY2(tip.contains(QStringLiteral("Baseline: 28.000 µs in 2 launches")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Now: 24.000 µs in 2 launches")), qPrintable(tip));

        QCOMPARE(text(model, cutlass, ui::KernelModel::BaselineColumn), QStringLiteral("new"));
        QCOMPARE(text(model, cutlass, ui::KernelModel::DeltaColumn), QStringLiteral("+1.500 µs (new)"));
        QVERIFY(!model.index(cutlass, ui::KernelModel::DeltaColumn).data(Qt::ForegroundRole).isValid());
        // Unchanged: "+0 ns (+0.0 %)", no colour.
        QCOMPARE(text(model, vectorAdd, ui::KernelModel::DeltaColumn), QStringLiteral("+0 ns (+0.0 %)"));
        QVERIFY(!model.index(vectorAdd, ui::KernelModel::DeltaColumn).data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.comparison().gone.size(), std::size_t(1));
    }

    void slowerIsRed()
    {
        // Swapped: the current session is the baseline's edited copy, so sgemm got slower.
        ui::KernelModel model;
        model.setRows(m_baseline->report.kernels);
        model.setBaseline(m_current);
        const int sgemm = testing::kernelIndex(*m_baseline, kSgemm, 0);
        QCOMPARE(text(model, sgemm, ui::KernelModel::DeltaColumn), QStringLiteral("+4.000 µs (+16.7 %)"));
        const auto slower = model.index(sgemm, ui::KernelModel::DeltaColumn).data(Qt::ForegroundRole).value<QColor>();
        QVERIFY(slower.red() > slower.green());
    }

    void pageSortsByTheChange()
    {
        ui::KernelPage page;
        page.setRows(m_current->report.kernels);
        page.kernelModel()->setBaseline(m_baseline);
        page.kernelView()->sortByColumn(ui::KernelModel::DeltaColumn, Qt::AscendingOrder);
        const auto* proxy = page.proxy();
        QCOMPARE(proxy->index(0, ui::KernelModel::NameColumn).data(Qt::ToolTipRole).toString(),
            QString::fromStdString(kSgemm));
        page.kernelView()->sortByColumn(ui::KernelModel::DeltaColumn, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, ui::KernelModel::NameColumn).data(Qt::ToolTipRole).toString(),
            QString::fromStdString(kCutlass));
        // By baseline time, largest first: sgemm (28 µs); the new kernel sorts last.
        page.kernelView()->sortByColumn(ui::KernelModel::BaselineColumn, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, ui::KernelModel::NameColumn).data(Qt::ToolTipRole).toString(),
            QString::fromStdString(kSgemm));
        QCOMPARE(proxy->index(proxy->rowCount() - 1, ui::KernelModel::NameColumn).data(Qt::ToolTipRole).toString(),
            QString::fromStdString(kCutlass));
    }

    void detailsShowTheBaselineFigures()
    {
        ui::SelectionModel selection;
        ui::DetailsPane pane(&selection);
        pane.setDocument(m_current);
        const auto& sgemm
            = m_current->report.kernels[static_cast<std::size_t>(testing::kernelIndex(*m_current, kSgemm, 0))];
        QSignalSpy loaded(&pane, &ui::DetailsPane::detailsLoaded);
        selection.select({ sgemm.nameId, sgemm.deviceId, -1 }, nullptr);
        QVERIFY(loaded.wait(10000));
        QVERIFY(!pane.browser()->toPlainText().contains(QStringLiteral("Compared with the baseline")));

        pane.setBaseline(m_baseline);
        QString shown = pane.browser()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("Compared with the baseline baseline.ridge")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("28.000 µs")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("-4.000 µs (-14.3 %)")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("14.000 µs")), qPrintable(shown)); // baseline average

        const auto& cutlass
            = m_current->report.kernels[static_cast<std::size_t>(testing::kernelIndex(*m_current, kCutlass, 1))];
        selection.select({ cutlass.nameId, cutlass.deviceId, -1 }, nullptr);
        QVERIFY(loaded.wait(10000));
        shown = pane.browser()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("New: this kernel did not run")), qPrintable(shown));

        pane.setBaseline(nullptr);
        QVERIFY(!pane.browser()->toPlainText().contains(QStringLiteral("Compared with the baseline")));
    }

    void windowWiresTheBaseline()
    {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        QSignalSpy baseline(&window, &ui::MainWindow::baselineChanged);
        window.openSession(QString::fromStdString(m_currentPath));
        QVERIFY(opened.wait(10000));
        auto* model = testing::kernelPageOf(window)->kernelModel();
        QCOMPARE(model->columnCount(), int(ui::KernelModel::ColumnCount));
        window.openBaseline(QString::fromStdString(m_baselinePath));
        QVERIFY(baseline.wait(10000));
        QCOMPARE(model->columnCount(), int(ui::KernelModel::ColumnCountWithBaseline));
        QCOMPARE(testing::kernelPageOf(window)->kernelView()->model()->columnCount(),
            int(ui::KernelModel::ColumnCountWithBaseline));
        const int sgemm = model->rowOf(m_current->report.kernels[0].nameId, m_current->report.kernels[0].deviceId);
        QCOMPARE(text(*model, sgemm, ui::KernelModel::BaselineColumn), QStringLiteral("28.000 µs"));
        // The status bar sums the comparison up, gone kernels included (they have no row): sgemm is
        // 4 µs faster (41 → 37 µs, -9.8 %), the cutlass kernel is new and old_kernel gone.
        const QString status = window.statusBar()->currentMessage();
        QVERIFY2(status.contains(QStringLiteral("4 kernel(s) matched, 1 new, 1 gone; kernel time 41.000 µs → "
                                                "37.000 µs (-9.8 %)")),
            qPrintable(status));
        // Shown right after Total, whatever their index in the model.
        const auto* header = testing::kernelPageOf(window)->kernelView()->horizontalHeader();
        QCOMPARE(header->visualIndex(ui::KernelModel::BaselineColumn),
            header->visualIndex(ui::KernelModel::TotalColumn) + 1);
        QCOMPARE(
            header->visualIndex(ui::KernelModel::DeltaColumn), header->visualIndex(ui::KernelModel::TotalColumn) + 2);
        window.resize(1400, 500);
        QVERIFY(testing::savePicture(window.grab(), QStringLiteral("kernel-table-baseline")));
        window.clearBaseline();
        QCOMPARE(model->columnCount(), int(ui::KernelModel::ColumnCount));
        window.openBaseline(QString::fromStdString(m_baselinePath)); // again: placed again
        QVERIFY(baseline.wait(10000));
        QCOMPARE(
            header->visualIndex(ui::KernelModel::DeltaColumn), header->visualIndex(ui::KernelModel::TotalColumn) + 2);
    }
};

RIDGELINE_UI_TEST(tst_kernelbaseline, TestKernelBaseline)
#include "tst_kernelbaseline.moc"
