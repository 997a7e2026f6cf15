// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "baseline/baselinecells.h"
#include "capture/capturedialog.h"
#include "common/chartexporter.h"
#include "common/palette.h"
#include "common/selectionmodel.h"
#include "communication/communicationpage.h"
#include "details/detailspane.h"
#include "kernels/kernelpage.h"
#include "opportunities/opportunitiespage.h"
#include "recentfiles.h"
#include "roofline/rooflinepage.h"
#include "session/examplesessions.h"
#include "session/sessionopener.h"
#include "taskprogress.h"
#include "timeline/stepselector.h"
#include "timeline/timelinepage.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace ridgeline::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_pages(new QTabWidget(this))
    , m_kernelPage(new KernelPage(this))
    , m_detailsDock(new QDockWidget(tr("Details"), this))
    , m_selection(new SelectionModel(this))
    , m_loader(new SessionOpener(this))
    , m_baselineLoader(new SessionOpener(this))
    , m_importer(new SessionImporter(this))
    , m_exporter(new SessionExporter(this))
    , m_progress(new TaskProgress(this))
    , m_recent(new RecentFiles(nullptr, this))
    , m_theme(new ThemeController(this))
    , m_exampleDirectories(defaultExampleDirectories())
{
    setWindowTitle(tr("Ridgeline"));
    setAcceptDrops(true);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_kernelPage->setObjectName(QStringLiteral("kernelPage"));
    m_selection->setObjectName(QStringLiteral("selection"));
    m_pages->setDocumentMode(true);
    setCentralWidget(m_pages);
    resize(1280, 800);

    m_detailsDock->setObjectName(QStringLiteral("detailsDock"));
    addDockWidget(Qt::RightDockWidgetArea, m_detailsDock);
    resizeDocks({ m_detailsDock }, { 360 }, Qt::Horizontal);
    registerView(QStringLiteral("details"), [this] {
        m_detailsDock->show();
        m_detailsDock->raise();
    });
    statusBar()->addPermanentWidget(m_progress);

    createMenus();
    m_kernelPage->setSelectionModel(m_selection);
    addPage(m_kernelPage, tr("&Kernels"), QStringLiteral("table"));
    connect(this, &MainWindow::documentChanged, m_kernelPage, &KernelPage::setDocument);
    connect(this, &MainWindow::baselineChanged, m_kernelPage, &KernelPage::setBaseline);
    auto* roofline = new RooflinePage(m_selection, this);
    addPage(roofline, tr("&Roofline"), QStringLiteral("roofline"));
    connect(this, &MainWindow::documentChanged, roofline, &RooflinePage::setDocument);
    connect(this, &MainWindow::baselineChanged, roofline, &RooflinePage::setBaseline);
    m_timelinePage = new TimelinePage(m_selection, this);
    auto* timeline = m_timelinePage;
    timeline->setObjectName(QStringLiteral("timelinePage"));
    addPage(timeline, tr("&Timeline"), QStringLiteral("timeline"));
    connect(this, &MainWindow::documentChanged, timeline, &TimelinePage::setDocument);
    connect(timeline, &TimelinePage::summaryShown, this, &MainWindow::timelineSummaryShown);
    auto* communication = new CommunicationPage(this);
    addPage(communication, tr("C&ommunication"), QStringLiteral("communication"));
    connect(this, &MainWindow::documentChanged, communication, &CommunicationPage::setDocument);
    connect(communication, &CommunicationPage::instanceSelected, timeline, &TimelinePage::showCollectiveInstance);
    connect(communication, &CommunicationPage::showOnTimelineRequested, this,
        [this, timeline] { m_pages->setCurrentWidget(timeline); });
    createClusterPage();
    auto* opportunities = new OpportunitiesPage(m_selection, this);
    opportunities->setObjectName(QStringLiteral("opportunitiesPage"));
    addPage(opportunities, tr("O&pportunities"), QStringLiteral("opportunities"));
    connect(this, &MainWindow::documentChanged, opportunities, &OpportunitiesPage::setDocument);
    auto* details = new DetailsPane(m_selection, m_detailsDock);
    setDetailsWidget(details);
    connect(opportunities, &OpportunitiesPage::opportunityChosen, details, &DetailsPane::setOpportunity);
    connect(this, &MainWindow::documentChanged, details, &DetailsPane::setDocument);
    connect(this, &MainWindow::baselineChanged, details, &DetailsPane::setBaseline);
    connect(details, &DetailsPane::detailsLoaded, this, &MainWindow::detailsLoaded);

    connectLoader(m_loader, false);
    connectLoader(m_baselineLoader, true);
    connect(m_progress, &TaskProgress::cancelRequested, this, [this] {
        m_loader->cancel();
        m_baselineLoader->cancel();
        m_importer->cancel();
    });
    connect(m_importer, &SessionImporter::progressChanged, m_progress, &TaskProgress::setProgress);
    connect(m_importer, &SessionImporter::imported, this, [this](const QString& output, const QString& summary) {
        m_progress->end();
        statusBar()->showMessage(summary, 10000);
        Q_EMIT importFinished(output);
        openSession(output);
    });
    connect(m_importer, &SessionImporter::failed, this, [this](const QStringList&, const QString& message) {
        m_progress->end();
        showError(tr("Could not import"), message);
        Q_EMIT importFailed(message);
    });
    connect(m_importer, &SessionImporter::cancelled, this, [this] {
        m_progress->end();
        statusBar()->showMessage(tr("Import cancelled."), 5000);
    });
    connect(m_exporter, &SessionExporter::exported, this, [this](const QString& target) {
        statusBar()->showMessage(tr("Saved %1").arg(target), 10000);
        Q_EMIT exportFinished(target);
    });
    connect(m_exporter, &SessionExporter::failed, this, [this](const QString& target, const QString& message) {
        showError(tr("Could not save %1").arg(QFileInfo(target).fileName()), message);
        Q_EMIT exportFailed(target, message);
    });
    connect(m_kernelPage, &KernelPage::groupingChanged, this,
        [](KernelGrouping grouping) { QSettings().setValue(QStringLiteral("kernelTable/grouping"), int(grouping)); });
    restoreSettings();
    updateActions();
    statusBar()->showMessage(tr("Open a session (.ridge) with File ▸ Open, or import a trace with File ▸ Import."));
}

MainWindow::~MainWindow() = default;

int MainWindow::addPage(QWidget* page, const QString& title, const QString& viewName)
{
    const int index = m_pages->addTab(page, title);
    registerView(viewName, [this, page] { m_pages->setCurrentWidget(page); });
    auto* action = new QAction(title, this);
    connect(action, &QAction::triggered, this, [this, page] { m_pages->setCurrentWidget(page); });
    m_viewMenu->insertAction(m_pagesEnd, action);
    if (index < 9)
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + index)));
    return index;
}

void MainWindow::setDetailsWidget(QWidget* widget)
{
    delete m_detailsDock->widget();
    m_detailsDock->setWidget(widget);
}

bool MainWindow::detailsLoading() const
{
    const auto* details = qobject_cast<const DetailsPane*>(m_detailsDock->widget());
    return details && details->isLoading();
}

void MainWindow::registerView(const QString& name, std::function<void()> show)
{
    if (!m_views.contains(name))
        m_viewOrder.append(name);
    m_views.insert(name, std::move(show));
}

bool MainWindow::selectKernel(const QString& nameContains)
{
    if (!m_document)
        return false;
    const core::KernelSummary* best = nullptr;
    for (const auto& k : m_document->report.kernels) {
        const bool matches = nameContains.isEmpty()
            || QString::fromStdString(k.name).contains(nameContains, Qt::CaseInsensitive)
            || QString::fromStdString(k.mangledName).contains(nameContains, Qt::CaseInsensitive);
        if (matches && (!best || k.totalNs > best->totalNs))
            best = &k;
    }
    if (best)
        m_selection->select({ best->nameId, best->deviceId, -1 });
    return best != nullptr;
}

bool MainWindow::chooseProfilerStep(std::optional<std::int64_t> number)
{
    return m_document && m_timelinePage->stepSelector()->chooseStep(number);
}

bool MainWindow::timelineSummaryLoading() const
{
    return m_timelinePage->summaryLoading();
}

bool MainWindow::showView(const QString& name)
{
    const auto it = m_views.constFind(name);
    if (it == m_views.constEnd())
        return false;
    it.value()();
    return true;
}

void MainWindow::connectLoader(SessionOpener* loader, bool baseline)
{
    connect(loader, &SessionOpener::progressChanged, m_progress, &TaskProgress::setProgress);
    connect(loader, &SessionOpener::loaded, this, [this, baseline](const SessionDocumentPtr& document) {
        if (document->valuesChecked)
            m_progress->end(); // else it goes on with the value checks
        if (baseline)
            showBaseline(document);
        else
            showDocument(document);
    });
    connect(loader, &SessionOpener::valuesChecked, this, [this, baseline](const SessionDocumentPtr& document) {
        m_progress->end();
        if (baseline || !m_document || m_document->path != document->path)
            return;
        m_document = document; // the same session, its warnings known: the views keep what they show
        statusBar()->showMessage(sessionSummary(*document));
        Q_EMIT valuesChecked(document->path);
    });
    if (!baseline)
        connect(loader, &SessionOpener::tableReady, this, &MainWindow::showTableStage);
    connect(loader, &SessionOpener::failed, this, [this, baseline](const QString& path, const QString& message) {
        m_progress->end();
        if (!baseline) {
            m_stagedPath.clear();
            m_kernelPage->setDocument(m_document); // drop a table stage that was shown
        }
        statusBar()->showMessage(tr("Could not open %1").arg(path));
        showError(baseline ? tr("Could not open the baseline session") : tr("Could not open session"), message);
        if (!baseline)
            Q_EMIT sessionFailed(path, message);
    });
    connect(loader, &SessionOpener::cancelled, this, [this, baseline](const QString& path) {
        m_progress->end();
        if (!baseline) {
            m_stagedPath.clear();
            m_kernelPage->setDocument(m_document);
        }
        statusBar()->showMessage(tr("Opening %1 cancelled.").arg(QFileInfo(path).fileName()), 5000);
    });
}

void MainWindow::openSession(const QString& path)
{
    m_progress->begin(tr("Opening %1").arg(QFileInfo(path).fileName()));
    m_loader->load(path);
}

void MainWindow::openBaseline(const QString& path)
{
    m_progress->begin(tr("Opening baseline %1").arg(QFileInfo(path).fileName()));
    m_baselineLoader->load(path);
}

void MainWindow::clearBaseline()
{
    showBaseline(nullptr);
}

void MainWindow::closeSession()
{
    m_loader->cancel();
    clearBaseline();
    m_document.reset();
    m_selection->clear(this);
    setWindowTitle(tr("Ridgeline"));
    Q_EMIT documentChanged(nullptr);
    updateActions();
}

void MainWindow::setImportFunction(ImportFunction function)
{
    m_importer->setImportFunction(std::move(function));
    updateActions();
}

void MainWindow::importTraces(const QStringList& inputs, const QString& output, const QString& gpuName)
{
    if (!m_importer->canImport() || m_importer->isRunning()) {
        showError(tr("Could not import"),
            m_importer->isRunning() ? tr("Another import is still running.") : tr("This build cannot import traces."));
        return;
    }
    m_progress->begin(tr("Importing %1").arg(QFileInfo(inputs.value(0)).fileName()));
    m_importer->import(inputs, output, gpuName);
}

void MainWindow::openFiles(const QStringList& paths)
{
    QStringList sessions, traces;
    for (const auto& path : paths) {
        if (path.endsWith(QStringLiteral(".ridge"), Qt::CaseInsensitive) || QFileInfo(path).isDir())
            sessions.append(path);
        else
            traces.append(path);
    }
    if (sessions.size() == 1 && !QFileInfo(sessions.front()).isDir())
        openSession(sessions.front());
    else if (!sessions.isEmpty())
        openCluster(sessions);
    if (!traces.isEmpty())
        askImport(traces);
}

void MainWindow::exportSession(SessionExporter::Format format, const QString& target)
{
    if (!m_document || m_exporter->isRunning())
        return;
    statusBar()->showMessage(tr("Saving %1…").arg(target));
    m_exporter->start(format, m_document->path, target);
}

void MainWindow::saveSessionCopy(const QString& target)
{
    exportSession(SessionExporter::Format::SessionCopy, target);
}

bool MainWindow::exportCurrentChart(const QString& path)
{
    QWidget* page = m_pages->currentWidget();
    if (!page)
        return false;
    auto* chart = dynamic_cast<ChartExporter*>(page);
    const bool saved = chart ? chart->exportImage(path) : exportWidgetImage(page, path);
    if (saved) {
        statusBar()->showMessage(tr("Saved %1").arg(path), 10000);
        Q_EMIT exportFinished(path);
    } else {
        showError(tr("Could not save the chart"), tr("Cannot write %1.").arg(path));
        Q_EMIT exportFailed(path, tr("Cannot write %1.").arg(path));
    }
    return saved;
}

void MainWindow::showCaptureDialog()
{
    captureDialog()->show();
    captureDialog()->raise();
}

CaptureDialog* MainWindow::captureDialog()
{
    if (!m_capture) {
        m_capture = new CaptureDialog(this);
        m_capture->setObjectName(QStringLiteral("captureDialog"));
        connect(m_capture, &CaptureDialog::sessionCaptured, this, &MainWindow::openSession);
    }
    return m_capture;
}

void MainWindow::showTableStage(const SessionDocumentPtr& tableStage)
{
    // The table paints now; the views that need the rest follow with documentChanged().
    m_selection->clear(this);
    m_stagedPath = tableStage->path;
    m_kernelPage->setDocument(tableStage);
    setWindowTitle(tr("%1 — Ridgeline").arg(QFileInfo(tableStage->path).fileName()));
    Q_EMIT tableReady(tableStage->path);
}

void MainWindow::showDocument(const SessionDocumentPtr& document)
{
    m_document = document;
    // What the user picked in the table stage of this same session stays selected.
    if (std::exchange(m_stagedPath, QString()) != document->path)
        m_selection->clear(this);
    m_recent->add(document->path);
    setWindowTitle(tr("%1 — Ridgeline").arg(QFileInfo(document->path).fileName()));
    statusBar()->showMessage(sessionSummary(*document));
    Q_EMIT documentChanged(document);
    updateActions();
    Q_EMIT sessionOpened(document->path);
    if (document->valuesChecked)
        Q_EMIT valuesChecked(document->path);
}

QString MainWindow::sessionSummary(const SessionDocument& document) const
{
    std::int64_t launches = 0;
    for (const auto& row : document.report.kernels)
        launches += row.launches;
    QString summary = tr("%1: %n kernel(s), %2 launches", nullptr, static_cast<int>(document.report.kernels.size()))
                          .arg(document.path)
                          .arg(launches);
    if (!document.valuesChecked)
        summary += tr(" — checking values…");
    else if (!document.warnings.empty())
        summary += tr(" — warning: %1 (%2; see Help ▸ About)")
                       .arg(QString::fromStdString(document.warnings.front().what))
                       .arg(document.warnings.front().count);
    return summary;
}

void MainWindow::showBaseline(const SessionDocumentPtr& baseline)
{
    m_baseline = baseline;
    if (baseline)
        statusBar()->showMessage(m_document ? comparisonSummary(*m_document, *baseline)
                                            : tr("Comparing with baseline %1").arg(baseline->path));
    updateActions();
    Q_EMIT baselineChanged(baseline);
}

void MainWindow::showError(const QString& title, const QString& message)
{
    // Window-modal and non-blocking: the app stays responsive (and testable).
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    const int grouping = settings.value(QStringLiteral("kernelTable/grouping"), int(KernelGrouping::ByName)).toInt();
    m_kernelPage->setGrouping(
        static_cast<KernelGrouping>(std::clamp(grouping, int(KernelGrouping::ByName), int(KernelGrouping::ByModule))));
    m_theme->setChoice(static_cast<ThemeChoice>(std::clamp(settings.value(QStringLiteral("theme")).toInt(), 0, 2)));
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("theme"), int(m_theme->choice()));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    if (m_capture && m_capture->runner()->isRunning()) {
        m_capture->stopCapture();
        m_capture->runner()->waitForStopped(15000);
    }
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const auto& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openFiles(paths);
}

} // namespace ridgeline::ui

#include "moc_mainwindow.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
