// SPDX-License-Identifier: MIT
// The kernel table: the filter proxy, the per-launch model, copy, and selection sync.
#include "fixtures.h"
#include "kernelfilterproxy.h"
#include "kernelmodel.h"
#include "kernelpage.h"
#include "launchmodel.h"
#include "launchrows.h"
#include "qtwarnings.h"
#include "selectionmodel.h"
#include "sessiondocumentloader.h"
#include "tempdir.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace ridgeline;

class TestKernelTable : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    ui::SessionDocumentPtr m_doc;

    static QStringList column(const QAbstractItemModel* model, int column)
    {
        QStringList values;
        for (int row = 0; row < model->rowCount(); ++row)
            values.append(model->index(row, column).data().toString());
        return values;
    }

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        const auto path = m_dir.file("small.ridge");
        QVERIFY(testing::writeSmallFixture(path).ok());
        auto doc = ui::loadSessionDocument(QString::fromStdString(path));
        QVERIFY(doc.ok());
        m_doc = std::make_shared<const ui::SessionDocument>(std::move(doc).value());
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void proxyFiltersByTextVerdictDeviceAndRank()
    {
        ui::KernelModel model;
        ui::KernelFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(m_doc->report.kernels);
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setTextFilter(QStringLiteral("VECTORADD"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setTextFilter(QStringLiteral("_Z9vector")); // the mangled name matches too
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setTextFilter(QString());
        proxy.setVerdictFilter(QStringLiteral("memory-bound"));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, ui::KernelModel::DeviceColumn).data(ui::DeviceIdRole).toLongLong(), 0);
        proxy.setVerdictFilter(QString());
        proxy.setDeviceFilter(1);
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setTextFilter(QStringLiteral("vector"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.clearFilters();
        QCOMPARE(proxy.rowCount(), 5);
        // A rank is the set of devices its processes ran on.
        proxy.setRankFilter(3, { 1 });
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setRankFilter(4, {});
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setRankFilter(std::nullopt, {});
        QCOMPARE(proxy.rowCount(), 5);
        // New rows after a reset are filtered afresh.
        proxy.setDeviceFilter(0);
        model.setRows({});
        QCOMPARE(proxy.rowCount(), 0);
        model.setRows(m_doc->report.kernels);
        QCOMPARE(proxy.rowCount(), 2);
    }

    void launchModelListsEveryLaunch()
    {
        auto rows = ui::readLaunchRows(m_doc->path.toStdString(), m_doc->report.kernels);
        QVERIFY(rows.ok());
        QCOMPARE(rows.value().size(), std::size_t(8));
        ui::LaunchModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setLaunches(m_doc, rows.value());
        QCOMPARE(model.rowCount(), 8);
        // Start order, relative to the first launch (1 µs in the fixture).
        QCOMPARE(model.index(0, ui::LaunchModel::StartColumn).data().toString(), QStringLiteral("0 ns"));
        QCOMPARE(model.index(0, ui::LaunchModel::DurationColumn).data().toString(), QStringLiteral("1.000 µs"));
        QCOMPARE(model.index(7, ui::LaunchModel::StartColumn).data().toString(), QStringLiteral("40.000 µs"));
        QCOMPARE(model.index(7, ui::LaunchModel::NameColumn).data().toString(),
            QStringLiteral("void cutlass::Kernel<int>(int*)"));
        QCOMPARE(model.index(7, ui::LaunchModel::StreamColumn).data().toString(), QStringLiteral("21"));

        // A persistent index (the selection) follows its launch through a sort.
        const QPersistentModelIndex sgemm = model.index(3, ui::LaunchModel::NameColumn);
        const qlonglong sgemmLaunch = sgemm.data(ui::LaunchIdRole).toLongLong();
        model.sort(ui::LaunchModel::DurationColumn, Qt::DescendingOrder);
        QCOMPARE(model.index(0, ui::LaunchModel::DurationColumn).data().toString(), QStringLiteral("14.000 µs"));
        QCOMPARE(model.index(7, ui::LaunchModel::DurationColumn).data().toString(), QStringLiteral("500 ns"));
        QCOMPARE(sgemm.data(ui::LaunchIdRole).toLongLong(), sgemmLaunch);
        QCOMPARE(sgemm.row(), 1); // 10 µs is the second longest
        model.sort(ui::LaunchModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(
            model.index(0, ui::LaunchModel::NameColumn).data().toString(), QStringLiteral("ampere_sgemm_128x64_nn"));

        QCOMPARE(model.rowOf(0, 0, sgemmLaunch), sgemm.row());
        const auto& vectorAdd1 = m_doc->report.kernels;
        const auto it = std::find_if(vectorAdd1.begin(), vectorAdd1.end(),
            [](const core::KernelSummary& s) { return s.deviceId == 1 && s.name.starts_with("vectorAdd"); });
        QVERIFY(it != vectorAdd1.end());
        const int row = model.rowOf(it->nameId, 1, -1);
        QVERIFY(row >= 0);
        QCOMPARE(model.index(row, ui::LaunchModel::DurationColumn).data().toString(), QStringLiteral("500 ns"));

        ui::KernelFilterProxy proxy;
        proxy.setSortInSource(true);
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setDeviceFilter(1);
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setTextFilter(QStringLiteral("vectoradd"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.clearFilters();
        proxy.sort(ui::LaunchModel::StartColumn, Qt::DescendingOrder); // sorted by the model
        QCOMPARE(proxy.index(0, ui::LaunchModel::StartColumn).data().toString(), QStringLiteral("40.000 µs"));
        model.setLaunches(nullptr, {});
        QCOMPARE(proxy.rowCount(), 0);
    }

    void pageCopiesSelectedRowsWithHeader()
    {
        ui::KernelPage page;
        page.setDocument(m_doc);
        auto* view = page.kernelView();
        view->sortByColumn(ui::KernelModel::TotalColumn, Qt::DescendingOrder);
        view->selectRow(0);
        view->selectionModel()->select(
            view->model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const QString text = page.copySelection();
        const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("Time %\tKernel\tVerdict\tBound by\t% of roof\tTotal\tLaunches")));
        QCOMPARE(lines[0].count(u'\t'), ui::KernelModel::ColumnCount - 1);
        QVERIFY2(lines[1].startsWith(QStringLiteral("64.86 %\tampere_sgemm_128x64_nn\t")), qPrintable(lines[1]));
        QVERIFY(lines[2].contains(QStringLiteral("vectorAdd")));
        QCOMPARE(QApplication::clipboard()->text(), text);
        // Hidden columns are left out.
        view->setColumnHidden(ui::KernelModel::DeviceColumn, true);
        QCOMPARE(page.copySelection().section(u'\n', 0, 0).count(u'\t'), ui::KernelModel::ColumnCount - 2);
    }

    void selectionSyncsBothWays()
    {
        ui::SelectionModel selection;
        ui::KernelPage page;
        page.setSelectionModel(&selection);
        page.setDocument(m_doc);
        QList<const QObject*> origins;
        connect(&selection, &ui::SelectionModel::selectionChanged, this,
            [&origins](const ui::KernelSelection&, const QObject* origin) { origins.append(origin); });
        // The user picks a row: the shared selection follows, with the page as origin.
        auto* view = page.kernelView();
        view->sortByColumn(ui::KernelModel::TotalColumn, Qt::DescendingOrder);
        view->setCurrentIndex(view->model()->index(1, ui::KernelModel::NameColumn));
        QCOMPARE(origins.size(), 1);
        QCOMPARE(origins.value(0), &page);
        const auto picked = selection.current();
        QCOMPARE(picked.deviceId, 0);
        QCOMPARE(picked.launchId, -1);
        QVERIFY(view->currentIndex().data().toString().startsWith(QStringLiteral("vectorAdd")));

        // Another view selects sgemm: the table follows.
        const auto& kernels = m_doc->report.kernels;
        const auto sgemm = std::find_if(kernels.begin(), kernels.end(),
            [](const core::KernelSummary& s) { return s.name == "ampere_sgemm_128x64_nn"; });
        QObject otherView;
        selection.select({ sgemm->nameId, sgemm->deviceId, -1 }, &otherView);
        QCOMPARE(view->currentIndex().siblingAtColumn(ui::KernelModel::NameColumn).data().toString(),
            QStringLiteral("ampere_sgemm_128x64_nn"));
        QCOMPARE(view->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(origins.size(), 2); // following did not echo a new selection

        // Per launch: the launches load, and selecting one launch elsewhere selects its row.
        QSignalSpy loaded(&page, &ui::KernelPage::launchesLoaded);
        page.setGrouping(ui::KernelGrouping::PerLaunch);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(loaded.first().first().toInt(), 8);
        QCOMPARE(page.view(), page.launchView());
        // The kernel selected before is shown on one of its launches.
        QCOMPARE(page.launchView()->currentIndex().siblingAtColumn(ui::LaunchModel::NameColumn).data().toString(),
            QStringLiteral("ampere_sgemm_128x64_nn"));
        const auto launch = page.launchModel()->launch(page.launchModel()->rowCount() - 1);
        const auto& owner = kernels[std::size_t(launch.summary)];
        selection.select({ owner.nameId, owner.deviceId, launch.id }, &otherView);
        QCOMPARE(page.launchView()->currentIndex().data(ui::LaunchIdRole).toLongLong(), launch.id);
        // And a click on a launch selects that launch.
        page.launchView()->setCurrentIndex(page.launchView()->model()->index(0, 0));
        QCOMPARE(
            selection.current().launchId, page.launchView()->model()->index(0, 0).data(ui::LaunchIdRole).toLongLong());
        // Nothing selected: nothing highlighted.
        selection.clear(&otherView);
        QVERIFY(!page.launchView()->selectionModel()->hasSelection());
    }

    void filterBarOffersTheSessionsVerdictsAndDevices()
    {
        ui::KernelPage page;
        page.setDocument(m_doc);
        auto* bar = page.filterBar();
        bar->setVerdictFilter(QStringLiteral("memory-bound"));
        QCOMPARE(page.proxy()->rowCount(), 1);
        bar->setDeviceFilter(1);
        QCOMPARE(page.proxy()->rowCount(), 0);
        bar->clear();
        QCOMPARE(page.proxy()->rowCount(), 5);
        bar->setTextFilter(QStringLiteral("cutlass"));
        QCOMPARE(page.proxy()->rowCount(), 1);
        QCOMPARE(page.launchProxy()->textFilter(), QStringLiteral("cutlass")); // both tables
        page.setDocument(nullptr);
        QCOMPARE(page.view()->model()->rowCount(), 0);
    }
};

QTEST_MAIN(TestKernelTable)
#include "tst_kerneltable.moc"
