// SPDX-License-Identifier: MIT
// MainWindow's file handling: recent files, bad files, import, export, save as, baseline, drag
// and drop, the view registry, About and the shortcuts list, remembered settings.
#include "common/selectionmodel.h"
#include "fixtures.h"
#include "kernels/kernelpage.h"
#include "qtwarnings.h"
#include "ridgeline/collectors/importers/importer.h"
#include "session/importdialog.h"
#include "tempdir.h"
#include "testutil.h"
#include "uitest.h"
#include "window/aboutdialog.h"
#include "window/mainwindow.h"
#include "window/recentfiles.h"
#include "window/shortcutsdialog.h"
#include "windowparts.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace ridgeline;

namespace {

core::Result<std::string> importWithCollectors(const ui::ImportJob& job, const ui::ImportProgress& progress)
{
    collectors::ImportRequest request;
    request.inputs = job.inputs;
    request.output = job.output;
    request.progress = progress;
    request.gpuName = job.gpuName;
    auto result = collectors::importFiles(request);
    if (result.hasError())
        return result.error();
    return result.value().summary;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestMainWindowFiles : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    QString m_fixture;

    void closeMessageBoxes(QWidget& window)
    {
        for (auto* box : window.findChildren<QMessageBox*>())
            box->close();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        testing::installQtWarningRecorder();
        m_fixture = q(m_dir.file("small.ridge"));
        QVERIFY(testing::writeSmallFixture(m_fixture.toStdString()).ok());
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void recentFilesKeepTenNewestAndPruneMissing()
    {
        QSettings settings(q(m_dir.file("recent.ini")), QSettings::IniFormat);
        ui::RecentFiles recent(&settings);
        QStringList paths;
        for (int i = 0; i < 12; ++i) {
            paths.append(q(m_dir.file("r" + std::to_string(i) + ".ridge")));
            testing::writeBytes(paths.last().toStdString(), "x");
            recent.add(paths.last());
        }
        QCOMPARE(recent.files().size(), ui::RecentFiles::kMaximum);
        QCOMPARE(recent.files().first(), paths[11]);
        QCOMPARE(recent.files().last(), paths[2]);
        recent.add(paths[5]); // again: moves to the front, no duplicate
        QCOMPARE(recent.files().first(), paths[5]);
        QCOMPARE(recent.files().count(paths[5]), 1);
        QVERIFY(QFile::remove(paths[11]));
        QVERIFY(!recent.files().contains(paths[11]));
        QCOMPARE(recent.files().size(), 9);
        // Kept across instances (QSettings), and clearable.
        ui::RecentFiles again(&settings);
        QCOMPARE(again.files(), recent.files());
        again.clear();
        QVERIFY(recent.files().isEmpty());
    }

    void openingAddsToRecentFiles()
    {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(m_fixture);
        QVERIFY(opened.wait(10000));
        QCOMPARE(ui::RecentFiles().files().value(0), QFileInfo(m_fixture).absoluteFilePath());
        QVERIFY(window.document());
        QCOMPARE(window.document()->report.kernels.size(), std::size_t(5));
    }

    void tableShowsBeforeTheRestAndKeepsTheSelection()
    {
        ui::MainWindow window;
        QSignalSpy table(&window, &ui::MainWindow::tableReady);
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        int rowsAtTableStage = -1;
        bool documentAtTableStage = true;
        connect(&window, &ui::MainWindow::tableReady, this, [&] {
            rowsAtTableStage = testing::kernelPageOf(window)->view()->model()->rowCount();
            documentAtTableStage = window.document() != nullptr;
            // The user clicks a row before the timeline analysis is done.
            testing::kernelPageOf(window)->view()->setCurrentIndex(
                testing::kernelPageOf(window)->view()->model()->index(2, 0));
        });
        window.openSession(m_fixture);
        QVERIFY(opened.wait(10000));
        QCOMPARE(table.count(), 1);
        QCOMPARE(rowsAtTableStage, 5);
        QVERIFY(!documentAtTableStage); // views other than the table wait for the whole document
        QVERIFY(!window.document()->report.timeline.empty());
        QVERIFY(!testing::selectionOf(window)->current().isEmpty());
        QCOMPARE(testing::kernelPageOf(window)->view()->currentIndex().row(), 2);
    }

    void badFilesShowAnErrorAndKeepTheAppAlive_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("empty") << QStringLiteral("empty");
        QTest::newRow("random bytes") << QStringLiteral("random");
        QTest::newRow("foreign SQLite") << QStringLiteral("foreign");
        QTest::newRow("truncated session") << QStringLiteral("truncated");
        QTest::newRow("missing") << QStringLiteral("missing");
    }
    void badFilesShowAnErrorAndKeepTheAppAlive()
    {
        QFETCH(QString, kind);
        const auto path = m_dir.file(kind.toStdString() + ".ridge");
        if (kind == u"empty")
            testing::writeBytes(path, "");
        else if (kind == u"random") {
            std::string bytes(8192, '\0');
            for (std::size_t i = 0; i < bytes.size(); ++i)
                bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
            testing::writeBytes(path, bytes);
        } else if (kind == u"foreign")
            testing::writeBytes(path, testing::readBytes(testing::testDataPath("nsys/concurrent-kernels.sqlite")));
        else if (kind == u"truncated") {
            const std::string whole = testing::readBytes(m_fixture.toStdString());
            testing::writeBytes(path, whole.substr(0, whole.size() / 2));
        }
        ui::MainWindow window;
        QSignalSpy failed(&window, &ui::MainWindow::sessionFailed);
        window.openSession(q(path));
        QVERIFY(failed.wait(10000));
        QVERIFY(!failed.first().at(1).toString().isEmpty());
        QVERIFY(window.findChild<QMessageBox*>() != nullptr);
        QVERIFY(!window.document());
        closeMessageBoxes(window);
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(m_fixture);
        QVERIFY(opened.wait(10000));
        QCOMPARE(testing::kernelPageOf(window)->view()->model()->rowCount(), 5);
    }

    void importOpensTheNewSession()
    {
        ui::MainWindow window;
        window.setImportFunction(importWithCollectors);
        const QString output = q(m_dir.file("triton.ridge"));
        QSignalSpy imported(&window, &ui::MainWindow::importFinished);
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.importTraces({ q(testing::testDataPath("kineto/triton_example/triton_example.json.gz")) }, output);
        QVERIFY(opened.wait(20000));
        QCOMPARE(imported.count(), 1);
        QCOMPARE(opened.first().first().toString(), output);
        QVERIFY(!window.document()->report.kernels.empty());
        QCOMPARE(window.document()->report.meta.at("source"), std::string("import:kineto"));
        // The temporary file was renamed, nothing else left behind.
        QCOMPARE(
            QDir(q(m_dir.path())).entryList({ QStringLiteral(".*importing*") }, QDir::Hidden | QDir::Files).size(), 0);
    }

    void importOfABadTraceShowsAnError()
    {
        ui::MainWindow window;
        window.setImportFunction(importWithCollectors);
        const auto bad = m_dir.file("bad.json");
        testing::writeBytes(bad, "{\"traceEvents\": [ {\"ph\": \"X\", ");
        const QString output = q(m_dir.file("bad-import.ridge"));
        QSignalSpy failed(&window, &ui::MainWindow::importFailed);
        window.importTraces({ q(bad) }, output);
        QVERIFY(failed.wait(20000));
        QVERIFY(!failed.first().first().toString().isEmpty());
        QVERIFY(!QFileInfo::exists(output));
        QVERIFY(window.findChild<QMessageBox*>() != nullptr);
        closeMessageBoxes(window);
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(m_fixture);
        QVERIFY(opened.wait(10000));
    }

    void cancelledImportLeavesTheOutputAlone()
    {
        // An import that waits until told: cancelling must not wait for it, nor write the output.
        std::atomic<bool> release { false };
        ui::SessionImporter importer;
        importer.setImportFunction(
            [&release](const ui::ImportJob& job, const ui::ImportProgress&) -> core::Result<std::string> {
                while (!release)
                    QThread::msleep(5);
                testing::writeBytes(job.output, "written after cancel");
                return std::string("imported");
            });
        const QString output = q(m_dir.file("cancelled.ridge"));
        testing::writeBytes(output.toStdString(), "previous");
        QSignalSpy cancelled(&importer, &ui::SessionImporter::cancelled);
        importer.import({ QStringLiteral("trace.json") }, output);
        importer.cancel();
        release = true;
        QVERIFY(cancelled.wait(10000));
        QCOMPARE(q(testing::readBytes(output.toStdString())), QStringLiteral("previous"));
        QCOMPARE(
            QDir(q(m_dir.path())).entryList({ QStringLiteral(".cancelled*") }, QDir::Hidden | QDir::Files).size(), 0);
    }

    void exportsAndSaveAs()
    {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(m_fixture);
        QVERIFY(opened.wait(10000));
        QSignalSpy exported(&window, &ui::MainWindow::exportFinished);
        const auto html = q(m_dir.file("report.html"));
        window.exportSession(ui::SessionExporter::Format::Html, html);
        QVERIFY(exported.wait(10000));
        QVERIFY(q(testing::readBytes(html.toStdString())).contains(QStringLiteral("ampere_sgemm_128x64_nn")));
        const auto trace = q(m_dir.file("trace.json"));
        window.exportSession(ui::SessionExporter::Format::Perfetto, trace);
        QVERIFY(exported.wait(10000));
        QVERIFY(q(testing::readBytes(trace.toStdString())).contains(QStringLiteral("traceEvents")));
        const auto csv = q(m_dir.file("csv"));
        window.exportSession(ui::SessionExporter::Format::CsvFolder, csv);
        QVERIFY(exported.wait(10000));
        QVERIFY(QFileInfo::exists(csv + QStringLiteral("/kernels.csv")));
        const auto copy = q(m_dir.file("copy.ridge"));
        window.saveSessionCopy(copy);
        QVERIFY(exported.wait(10000));
        QCOMPARE(testing::readBytes(copy.toStdString()), testing::readBytes(m_fixture.toStdString()));

        const auto png = q(m_dir.file("chart.png"));
        QVERIFY(window.exportCurrentChart(png));
        QCOMPARE(testing::readBytes(png.toStdString()).substr(0, 8), std::string("\x89PNG\r\n\x1a\n"));
        const auto svg = q(m_dir.file("chart.svg"));
        QVERIFY(window.exportCurrentChart(svg));
        QVERIFY(q(testing::readBytes(svg.toStdString())).contains(QStringLiteral("<svg")));

        QSignalSpy failed(&window, &ui::MainWindow::exportFailed);
        window.exportSession(ui::SessionExporter::Format::Html, q(m_dir.file("no/such/dir/report.html")));
        QVERIFY(failed.wait(10000));
        closeMessageBoxes(window);
    }

    void baselineAndClose()
    {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        QSignalSpy baseline(&window, &ui::MainWindow::baselineChanged);
        QSignalSpy documents(&window, &ui::MainWindow::documentChanged);
        window.openSession(m_fixture);
        QVERIFY(opened.wait(10000));
        window.openBaseline(m_fixture);
        QVERIFY(baseline.wait(10000));
        QVERIFY(baseline.first().first().value<ui::SessionDocumentPtr>() != nullptr);
        QCOMPARE(window.baseline()->report.kernels.size(), std::size_t(5));
        window.closeSession();
        QVERIFY(!window.document());
        QVERIFY(!window.baseline());
        QCOMPARE(baseline.last().first().value<ui::SessionDocumentPtr>(), nullptr);
        QCOMPARE(documents.last().first().value<ui::SessionDocumentPtr>(), nullptr);
        QCOMPARE(testing::kernelPageOf(window)->view()->model()->rowCount(), 0);
    }

    void dropOpensSessions()
    {
        ui::MainWindow window;
        window.show();
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(m_fixture) });
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.first().first().toString(), m_fixture);
    }

    void selectKernelPicksTheKernelWithTheMostTime()
    {
        ui::MainWindow window;
        QVERIFY(!window.selectKernel(QString())); // no session
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(m_fixture);
        QVERIFY(opened.wait(10000));
        const auto& kernels = window.document()->report.kernels;
        const auto heaviest = [&kernels](const QString& part) {
            const core::KernelSummary* best = nullptr;
            for (const auto& k : kernels) {
                if (QString::fromStdString(k.name).contains(part, Qt::CaseInsensitive)
                    && (!best || k.totalNs > best->totalNs))
                    best = &k;
            }
            return best;
        };
        QVERIFY(window.selectKernel(QString()));
        const auto* all = heaviest(QString());
        QVERIFY(all);
        QCOMPARE(testing::selectionOf(window)->current().nameId, all->nameId);
        QCOMPARE(testing::selectionOf(window)->current().deviceId, all->deviceId);
        QCOMPARE(testing::selectionOf(window)->current().launchId, -1);
        const auto* vectorAdd = heaviest(QStringLiteral("VECTORADD"));
        QVERIFY(vectorAdd && vectorAdd != all);
        QVERIFY(window.selectKernel(QStringLiteral("VECTORADD"))); // any case
        QCOMPARE(testing::selectionOf(window)->current().nameId, vectorAdd->nameId);
        QVERIFY(!window.selectKernel(QStringLiteral("no such kernel")));
        QCOMPARE(testing::selectionOf(window)->current().nameId, vectorAdd->nameId); // unchanged
    }

    void viewsAreRegisteredByName()
    {
        ui::MainWindow window;
        QVERIFY(window.viewNames().contains(QStringLiteral("table")));
        QVERIFY(window.viewNames().contains(QStringLiteral("details")));
        QVERIFY(!window.showView(QStringLiteral("bogus")));
        // The window's own pages: kernels, roofline, timeline, communication, cluster, opportunities;
        // then one more added here.
        QCOMPARE(window.viewNames().mid(0, 7),
            QStringList({ QStringLiteral("details"), QStringLiteral("table"), QStringLiteral("roofline"),
                QStringLiteral("timeline"), QStringLiteral("communication"), QStringLiteral("cluster"),
                QStringLiteral("opportunities") }));
        auto* page = new QWidget;
        const int index = window.addPage(page, QStringLiteral("&Extra"), QStringLiteral("extra"));
        QCOMPARE(index, 6);
        QVERIFY(window.showView(QStringLiteral("extra")));
        QCOMPARE(testing::pagesOf(window)->currentWidget(), page);
        QVERIFY(window.showView(QStringLiteral("table")));
        QCOMPARE(testing::pagesOf(window)->currentWidget(), testing::kernelPageOf(window));
        const QStringList lines = ui::shortcutLines(window.menuBar());
        QVERIFY2(lines.contains(QStringLiteral("View ▸ Roofline\tCtrl+2")), qPrintable(lines.join(u'\n')));
        QVERIFY(lines.contains(QStringLiteral("View ▸ Timeline\tCtrl+3")));
        QVERIFY(lines.contains(QStringLiteral("View ▸ Communication\tCtrl+4")));
        QVERIFY(lines.contains(QStringLiteral("View ▸ Cluster\tCtrl+5")));
        QVERIFY(lines.contains(QStringLiteral("View ▸ Opportunities\tCtrl+6")));
        QVERIFY(lines.contains(QStringLiteral("View ▸ Extra\tCtrl+7")));
        QVERIFY(lines.contains(QStringLiteral("File ▸ Open Cluster (Folder of Sessions)\tCtrl+Shift+O")));
        QVERIFY(lines.contains(QStringLiteral("View ▸ Kernels\tCtrl+1")));
        QVERIFY(lines.contains(QStringLiteral("File ▸ Open Session\tCtrl+O")));
        QVERIFY(lines.contains(QStringLiteral("Timeline ▸ Zoom in (around the mouse)\tW, +, wheel up")));
        auto* details = new QWidget;
        window.setDetailsWidget(details);
        QCOMPARE(window.findChild<QDockWidget*>(QStringLiteral("detailsDock"))->widget(), details);
    }

    void aboutStatesTheBundledExamplesOrigin()
    {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(QStringLiteral(RIDGELINE_EXAMPLES_DIR "/pytorch-two-ranks.ridge"));
        QVERIFY(opened.wait(20000));
        const QString about = ui::aboutText(window.document().get());
        QVERIFY(about.contains(QStringLiteral("import:kineto")));
        QVERIFY2(
            about.contains(QStringLiteral("github.com/facebookresearch/HolisticTraceAnalysis")), qPrintable(about));
        QVERIFY(about.contains(QStringLiteral("f4d0062c382f42bd8a74838bcdad1916c7d5d2da")));
        QVERIFY(ui::aboutText(nullptr).contains(QStringLiteral("No session is open")));
        // Two ranks: the rank filter offers both, each keeping only its own device's kernels.
        auto* page = testing::kernelPageOf(window);
        const int all = page->proxy()->rowCount();
        page->filterBar()->setRankFilter(1);
        const int rank1 = page->proxy()->rowCount();
        QVERIFY(rank1 > 0 && rank1 < all);
        page->filterBar()->setRankFilter(std::nullopt);
        QCOMPARE(page->proxy()->rowCount(), all);
    }

    void openExampleListsTheBundledSessionsAndOpensThem()
    {
        ui::MainWindow window;
        // The menu is in File, and lists what the folders hold, each file once, with its origin.
        QMenu* examples = window.findChild<QMenu*>(QStringLiteral("exampleMenu"));
        QVERIFY(examples != nullptr);
        QVERIFY(window.menuBar()->actions().first()->menu()->actions().contains(examples->menuAction()));
        const QString dir = QStringLiteral(RIDGELINE_EXAMPLES_DIR);
        window.setExampleDirectories({ dir, dir });
        Q_EMIT examples->aboutToShow();
        QStringList titles;
        QAction* a100 = nullptr;
        for (QAction* action : examples->actions()) {
            titles.append(action->text());
            if (action->text() == QStringLiteral("a100-linear-ncu"))
                a100 = action;
        }
        QCOMPARE(titles, (QStringList { QStringLiteral("a100-linear-ncu"), QStringLiteral("pytorch-two-ranks") }));
        QVERIFY2(a100->toolTip().contains(QStringLiteral("NVIDIA A100")), qPrintable(a100->toolTip()));

        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        a100->trigger();
        QVERIFY(opened.wait(30000));
        QCOMPARE(QFileInfo(opened.first().first().toString()).fileName(), QStringLiteral("a100-linear-ncu.ridge"));
        const auto& report = window.document()->report;
        QCOMPARE(report.meta.at("origin.licence"), std::string("Apache-2.0"));
        QVERIFY(ui::aboutText(window.document().get()).contains(QStringLiteral("leleucas")));
        QVERIFY(!report.devices.empty());
        QVERIFY(QString::fromStdString(report.devices.front().name).contains(QStringLiteral("A100")));

        // No folder with examples: one disabled entry that says where it looked.
        window.setExampleDirectories({ q(m_dir.file("no-examples")) });
        Q_EMIT examples->aboutToShow();
        QCOMPARE(examples->actions().size(), 1);
        QVERIFY(!examples->actions().first()->isEnabled());
        QVERIFY(examples->actions().first()->text().contains(QStringLiteral("no-examples")));
    }

    void importDialogSuggestsTheOutputAndTakesAGpu()
    {
        const QString csv = q(testing::testDataPath("ncu/leleucas/linear-nsight1381.csv.gz"));
        QCOMPARE(ui::ImportDialog::suggestedOutput(csv),
            QFileInfo(csv).dir().filePath(QStringLiteral("linear-nsight1381.ridge")));
        QCOMPARE(ui::ImportDialog::suggestedOutput(QStringLiteral("/d/output1.ncu-rep")),
            QStringLiteral("/d/output1.ridge"));
        QCOMPARE(
            ui::ImportDialog::suggestedOutput(QStringLiteral("/d/rank-0.json.gz")), QStringLiteral("/d/rank-0.ridge"));

        ui::ImportDialog dialog(
            { csv }, { QStringLiteral("NVIDIA A100 SXM4 80GB"), QStringLiteral("NVIDIA H100 SXM5 80GB") });
        QCOMPARE(dialog.gpuName(), QString()); // as the file names it, unless the user says
        auto* gpu = dialog.findChild<QComboBox*>(QStringLiteral("gpu"));
        QVERIFY(gpu != nullptr);
        QCOMPARE(gpu->count(), 3);
        QCOMPARE(gpu->itemText(1), QStringLiteral("NVIDIA A100 SXM4 80GB"));
        dialog.setGpuName(QStringLiteral("  A100-SXM4-80GB "));
        QCOMPARE(dialog.gpuName(), QStringLiteral("A100-SXM4-80GB"));
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(ok->isEnabled());
        dialog.setOutput(QString());
        QVERIFY(!ok->isEnabled()); // nowhere to save: nothing to import
        const QString output = q(m_dir.file("dialog.ridge"));
        dialog.setOutput(output);
        QVERIFY(ok->isEnabled());
        dialog.accept(); // a new file: no question asked
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.output(), output);
    }

    void importWithAGpuNamesTheDevicesTheFileLeavesUnnamed()
    {
        const QString csv = q(testing::testDataPath("ncu/leleucas/dropout-nsight162.csv"));
        for (const QString& gpuName : { QString(), QStringLiteral("A100-SXM4-80GB") }) {
            ui::MainWindow window;
            window.setImportFunction(importWithCollectors);
            const QString output = q(m_dir.file(gpuName.isEmpty() ? "dropout-unnamed.ridge" : "dropout-a100.ridge"));
            QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
            window.importTraces({ csv }, output, gpuName);
            QVERIFY(opened.wait(30000));
            const auto& devices = window.document()->report.devices;
            QVERIFY(!devices.empty());
            const QString name = QString::fromStdString(devices.front().name);
            QVERIFY2(name.contains(QStringLiteral("A100")) == !gpuName.isEmpty(), qPrintable(name));
            // Named: the A100's datasheet ceilings come with it.
            const bool datasheet = std::any_of(window.document()->ceilings.begin(), window.document()->ceilings.end(),
                [](const core::Ceiling& c) { return c.source == core::CeilingSource::Datasheet; });
            QCOMPARE(datasheet, !gpuName.isEmpty());
        }
    }

    void groupingIsRemembered()
    {
        {
            ui::MainWindow window;
            testing::kernelPageOf(window)->setGrouping(ui::KernelGrouping::PerLaunch);
        }
        ui::MainWindow again;
        QCOMPARE(testing::kernelPageOf(again)->grouping(), ui::KernelGrouping::PerLaunch);
        testing::kernelPageOf(again)->setGrouping(ui::KernelGrouping::ByName);
    }
};

RIDGELINE_UI_TEST(tst_mainwindowfiles, TestMainWindowFiles)
#include "tst_mainwindowfiles.moc"
