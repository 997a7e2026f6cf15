// SPDX-License-Identifier: MIT
// The kernel table: the filter proxy, the per-launch model, copy, and selection sync.
#include "common/selectionmodel.h"
#include "fixtures.h"
#include "kernels/kernelfilterproxy.h"
#include "kernels/kernelmodel.h"
#include "kernels/kernelpage.h"
#include "kernels/launchmodel.h"
#include "kernels/launchrows.h"
#include "qtwarnings.h"
#include "ridgeline/core/store/sessionreader.h"
#include "session/documentreader.h"
#include "tempdir.h"
#include "uitest.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
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
        auto doc = ui::readSessionDocument(QString::fromStdString(path));
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
        proxy.setVerdictFilter(core::VerdictClass::MemoryBound);
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, ui::KernelModel::DeviceColumn).data(ui::DeviceIdRole).toLongLong(), 0);
        proxy.setVerdictFilter(std::nullopt);
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

    void launchRowsAreTheSessionsKernelsInStartOrder()
    {
        QVERIFY(m_doc->timeline);
        auto rows = ui::launchRows(*m_doc->timeline, m_doc->report.kernels);
        QVERIFY(rows.ok());
        ui::LaunchModel model;
        model.setLaunches(m_doc, std::move(rows).value());
        // The same launches as the kernels table holds (no copy, memset or comm op), by start.
        auto reader = core::SessionReader::open(m_doc->path.toStdString());
        QVERIFY(reader.ok());
        std::vector<core::Kernel> kernels;
        QVERIFY(reader.value()
                    .forEachKernel({},
                        [&](const core::Kernel& k) {
                            kernels.push_back(k);
                            return true;
                        })
                    .ok());
        std::stable_sort(
            kernels.begin(), kernels.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
        QCOMPARE(model.rowCount(), int(kernels.size()));
        QCOMPARE(kernels.size(), std::size_t(8));
        const auto& summaries = m_doc->report.kernels;
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto& k = kernels[std::size_t(row)];
            QCOMPARE(model.launchId(row), k.id);
            QCOMPARE(model.startNs(row), k.startNs);
            QCOMPARE(model.endNs(row), k.endNs);
            QCOMPARE(model.streamId(row), k.streamId);
            const auto& summary = summaries[std::size_t(model.launch(row).summary)];
            QCOMPARE(summary.nameId, k.nameId);
            QCOMPARE(summary.deviceId, k.deviceId);
        }
        // A kernel without a summary on its device is left out.
        auto fewer = summaries;
        fewer.erase(
            std::remove_if(fewer.begin(), fewer.end(), [](const auto& s) { return s.deviceId == 1; }), fewer.end());
        auto device0 = ui::launchRows(*m_doc->timeline, fewer);
        QVERIFY(device0.ok());
        QCOMPARE(device0.value().size(), std::size_t(5));
        for (const auto& launch : device0.value())
            QCOMPARE(fewer[std::size_t(launch.summary)].deviceId, 0);
        // Cancelled: one clear error, no rows.
        auto cancelled = ui::launchRows(*m_doc->timeline, summaries, [] { return true; });
        QVERIFY(cancelled.hasError());
        QCOMPARE(
            QString::fromStdString(cancelled.error().message), QStringLiteral("Listing the launches was cancelled."));
        // Without a timeline the model has no rows.
        auto noTimeline = std::make_shared<ui::SessionDocument>(*m_doc);
        noTimeline->timeline.reset();
        model.setLaunches(noTimeline, std::vector<ui::LaunchRow>(3));
        QCOMPARE(model.rowCount(), 0);
    }

    void launchModelListsEveryLaunch()
    {
        auto rows = ui::launchRows(*m_doc->timeline, m_doc->report.kernels);
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
        // The short name, as ncu's "Function Name"; the full name is the tooltip.
        QCOMPARE(model.index(7, ui::LaunchModel::NameColumn).data().toString(), QStringLiteral("Kernel"));
        QCOMPARE(model.index(7, ui::LaunchModel::NameColumn).data(Qt::ToolTipRole).toString(),
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
        const int last = page.launchModel()->rowCount() - 1;
        const auto& owner = kernels[std::size_t(page.launchModel()->launch(last).summary)];
        const qint64 launchId = page.launchModel()->launchId(last);
        selection.select({ owner.nameId, owner.deviceId, launchId }, &otherView);
        QCOMPARE(page.launchView()->currentIndex().data(ui::LaunchIdRole).toLongLong(), launchId);
        QCOMPARE(page.launchView()->currentIndex().siblingAtColumn(ui::LaunchModel::StartColumn).data().toString(),
            QStringLiteral("40.000 µs"));
        // And a click on a launch selects that launch.
        page.launchView()->setCurrentIndex(page.launchView()->model()->index(0, 0));
        QCOMPARE(
            selection.current().launchId, page.launchView()->model()->index(0, 0).data(ui::LaunchIdRole).toLongLong());
        // Nothing selected: nothing highlighted.
        selection.clear(&otherView);
        QVERIFY(!page.launchView()->selectionModel()->hasSelection());
    }

    void perLaunchAskedInTheTableStageIsListedWithTheCompleteDocument()
    {
        // The two stages of one open, as the loader delivers them.
        ui::SessionDocumentPtr tableStage;
        ui::ReadHooks hooks;
        hooks.tableReady = [&tableStage](const ui::SessionDocument& stage) {
            tableStage = std::make_shared<const ui::SessionDocument>(stage);
        };
        auto complete = ui::readSessionDocument(m_doc->path, hooks);
        QVERIFY(complete.ok());
        QVERIFY(tableStage && tableStage->tableStage && !tableStage->timeline);
        auto document = std::make_shared<const ui::SessionDocument>(std::move(complete).value());
        QVERIFY(!document->tableStage && document->timeline);

        ui::KernelPage page;
        QSignalSpy loaded(&page, &ui::KernelPage::launchesLoaded);
        page.setDocument(tableStage);
        page.kernelView()->selectRow(2);
        page.setGrouping(ui::KernelGrouping::PerLaunch);
        QCOMPARE(page.launchStatus()->text(), QStringLiteral("Loading the launches…"));
        QVERIFY(page.launchStatus()->isVisibleTo(&page));
        QVERIFY(!page.launchView()->isVisibleTo(&page));
        QVERIFY(!loaded.wait(200)); // nothing to list before the timeline
        QCOMPARE(page.launchModel()->rowCount(), 0);

        page.setDocument(document); // the same rows: the per-name table keeps its selection
        QVERIFY(loaded.wait(10000));
        QCOMPARE(loaded.first().first().toInt(), 8);
        QVERIFY(page.launchView()->isVisibleTo(&page));
        QCOMPARE(page.kernelView()->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(page.launchModel()->rowCount(), 8);
        QCOMPARE(page.launchModel()->launchId(0),
            m_doc->timeline->row(page.launchModel()->launch(0).op.row)
                .sourceId(page.launchModel()->launch(0).op.index));
        QCOMPARE(page.launchView()->model()->index(7, ui::LaunchModel::NameColumn).data(Qt::ToolTipRole).toString(),
            QStringLiteral("void cutlass::Kernel<int>(int*)"));

        // A complete document without a timeline: a sentence instead of the table.
        auto bare = std::make_shared<ui::SessionDocument>(*document);
        bare->timeline.reset();
        page.setDocument(bare);
        QCOMPARE(page.launchStatus()->text(),
            QStringLiteral("The launches cannot be listed: this session was opened without its timeline."));
        QVERIFY(page.launchStatus()->isVisibleTo(&page));
        QCOMPARE(page.launchModel()->rowCount(), 0);
        QVERIFY(!loaded.wait(200));
        QCOMPARE(loaded.size(), 1);
    }

    void filterBarOffersTheSessionsVerdictsAndDevices()
    {
        ui::KernelPage page;
        page.setDocument(m_doc);
        auto* bar = page.filterBar();
        bar->setVerdictFilter(core::VerdictClass::MemoryBound);
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

RIDGELINE_UI_TEST(tst_kerneltable, TestKernelTable)
#include "tst_kerneltable.moc"
