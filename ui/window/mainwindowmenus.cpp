// SPDX-License-Identifier: MIT
// MainWindow's menus and the file dialogs behind them.
#include "aboutdialog.h"
#include "capture/capturedialog.h"
#include "common/palette.h"
#include "kernels/kernelpage.h"
#include "mainwindow.h"
#include "recentfiles.h"
#include "ridgeline/core/model/importformats.h"
#include "session/examplesessions.h"
#include "session/importdialog.h"
#include "shortcutsdialog.h"
#include "timeline/stepselector.h"
#include "timeline/timelinepage.h"

#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QSettings>

namespace ridgeline::ui {

namespace {

const QString kSessionFilter = QStringLiteral("Ridgeline sessions (*.ridge);;All files (*)");

// "Traces (every suffix);;" then one filter per import format (core::kImportFormats), then all files.
QString traceFilter()
{
    const auto patterns = [](const core::ImportFormat& format) {
        QStringList list;
        for (const std::string_view suffix : format.suffixes)
            list << u'*' + QString::fromUtf8(suffix.data(), static_cast<qsizetype>(suffix.size()));
        return list;
    };
    QStringList all;
    QStringList filters;
    for (const auto& format : core::kImportFormats) {
        all << patterns(format);
        filters << QString::fromUtf8(format.name.data(), static_cast<qsizetype>(format.name.size())) + u" ("
                + patterns(format).join(u' ') + u')';
    }
    return u"Traces (" + all.join(u' ') + u");;" + filters.join(QStringLiteral(";;")) + u";;All files (*)";
}

} // namespace

void MainWindow::createMenus()
{
    createFileMenu();
    auto* capture = menuBar()->addMenu(tr("&Capture"));
    capture->addAction(tr("&New Capture…"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::showCaptureDialog);
    createViewMenu();
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(
        tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, [this] { showShortcutsDialog(this, menuBar()); });
    help->addAction(tr("&About Ridgeline"), this, [this] { showAboutDialog(this, m_document); });
}

void MainWindow::createFileMenu()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Session…"), QKeySequence::Open, this, &MainWindow::chooseSession);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    file->addAction(tr("Open C&luster (Folder of Sessions)…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
        &MainWindow::chooseCluster);
    m_exampleMenu = file->addMenu(tr("Open &Example"));
    m_exampleMenu->setObjectName(QStringLiteral("exampleMenu"));
    connect(m_exampleMenu, &QMenu::aboutToShow, this, &MainWindow::fillExampleMenu);
    file->addAction(tr("&Import Trace…"), QKeySequence(Qt::CTRL | Qt::Key_I), this, &MainWindow::chooseImport);
    file->addSeparator();
    m_sessionActions.append(file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::chooseSaveAs));
    auto* exportMenu = file->addMenu(tr("&Export"));
    m_sessionActions.append(exportMenu->menuAction());
    exportMenu->addAction(tr("&HTML Report…"), this, [this] { chooseExport(SessionExporter::Format::Html); });
    exportMenu->addAction(
        tr("&Perfetto Trace (JSON)…"), this, [this] { chooseExport(SessionExporter::Format::Perfetto); });
    exportMenu->addAction(
        tr("&CSV Tables (Folder)…"), this, [this] { chooseExport(SessionExporter::Format::CsvFolder); });
    exportMenu->addSeparator();
    exportMenu->addAction(tr("Current Chart as P&NG…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
        [this] { chooseChartExport(QStringLiteral("png")); });
    exportMenu->addAction(tr("Current Chart as &SVG…"), this, [this] { chooseChartExport(QStringLiteral("svg")); });
    file->addSeparator();
    m_sessionActions.append(file->addAction(
        tr("Compare with &Baseline…"), QKeySequence(Qt::CTRL | Qt::Key_B), this, &MainWindow::chooseBaseline));
    m_clearBaseline = file->addAction(tr("Clear Baseline"), this, &MainWindow::clearBaseline);
    file->addSeparator();
    m_sessionActions.append(file->addAction(tr("&Close"), QKeySequence::Close, this, &MainWindow::closeSession));
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createViewMenu()
{
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    // Page entries (Ctrl+1…) are inserted above this separator by addPage().
    m_pagesEnd = m_viewMenu->addSeparator();
    QMenu* extras = m_viewMenu;
    QAction* details = m_detailsDock->toggleViewAction();
    details->setText(tr("&Details Pane"));
    details->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    extras->addAction(details);
    auto* grouping = extras->addMenu(tr("Kernel Table &Grouping"));
    m_groupingActions = new QActionGroup(this);
    const auto addGrouping = [&](const QString& text, KernelGrouping value, const QKeySequence& key) {
        auto* action = grouping->addAction(text, key, this, [this, value] { m_kernelPage->setGrouping(value); });
        action->setCheckable(true);
        action->setData(int(value));
        m_groupingActions->addAction(action);
    };
    addGrouping(tr("One Row per &Kernel"), KernelGrouping::ByName, QKeySequence(Qt::CTRL | Qt::Key_G));
    addGrouping(tr("One Row per &Launch"), KernelGrouping::PerLaunch, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    addGrouping(tr("By PyTorch &Operator"), KernelGrouping::ByOperator, QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_G));
    addGrouping(tr("By PyTorch &Module"), KernelGrouping::ByModule, QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_M));
    const auto syncGrouping = [this] {
        for (auto* action : m_groupingActions->actions())
            action->setChecked(action->data().toInt() == int(m_kernelPage->grouping()));
    };
    connect(m_kernelPage, &KernelPage::groupingChanged, this, syncGrouping);
    syncGrouping();
    m_stepMenu = extras->addMenu(tr("Profiler &Step"));
    m_stepMenu->setObjectName(QStringLiteral("stepMenu"));
    m_stepMenu->setToolTipsVisible(true);
    const auto stepBy = [this](int direction) {
        if (!m_document || m_timelinePage->stepSelector()->steps().empty())
            return;
        m_timelinePage->stepSelector()->chooseNeighbour(direction);
        m_pages->setCurrentWidget(m_timelinePage);
    };
    m_stepMenu->addAction(
        tr("&Next Step"), QKeySequence(Qt::CTRL | Qt::Key_BracketRight), this, [stepBy] { stepBy(1); });
    m_stepMenu->addAction(
        tr("&Previous Step"), QKeySequence(Qt::CTRL | Qt::Key_BracketLeft), this, [stepBy] { stepBy(-1); });
    m_stepMenu->addSeparator();
    connect(m_stepMenu, &QMenu::aboutToShow, this, &MainWindow::fillStepMenu);
    auto* themes = extras->addMenu(tr("&Theme"));
    auto* themeGroup = new QActionGroup(this);
    const auto addTheme = [&](const QString& text, ThemeChoice choice) {
        auto* action = themes->addAction(text, this, [this, choice] { m_theme->setChoice(choice); });
        action->setCheckable(true);
        themeGroup->addAction(action);
        connect(themes, &QMenu::aboutToShow, action,
            [this, action, choice] { action->setChecked(m_theme->choice() == choice); });
    };
    addTheme(tr("Follow the &System"), ThemeChoice::System);
    addTheme(tr("&Light"), ThemeChoice::Light);
    addTheme(tr("&Dark"), ThemeChoice::Dark);
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_recent->files();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        const QString label = QStringLiteral("&%1 %2").arg(
            i + 1 < 10 ? QString::number(i + 1) : QStringLiteral("0"), QFileInfo(path).fileName());
        m_recentMenu->addAction(label, this, [this, path] { openSession(path); })->setToolTip(path);
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("No recent sessions"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear Menu"), m_recent, &RecentFiles::clear)->setEnabled(!files.isEmpty());
}

// The entries of View ▸ Profiler Step: the whole trace and each step of the open session, the chosen
// one checked (the timeline page's step selector holds the choice).
void MainWindow::fillStepMenu()
{
    qDeleteAll(m_stepActions);
    m_stepActions.clear();
    auto* selector = m_timelinePage->stepSelector();
    const auto chosen = selector->currentStep();
    delete m_stepMenu->findChild<QActionGroup*>(QStringLiteral("stepEntries"), Qt::FindDirectChildrenOnly);
    auto* group = new QActionGroup(m_stepMenu);
    group->setObjectName(QStringLiteral("stepEntries"));
    const auto addEntry = [&](const QString& text, std::optional<std::int64_t> number) {
        auto* action = m_stepMenu->addAction(text, this, [this, number] {
            chooseProfilerStep(number);
            m_pages->setCurrentWidget(m_timelinePage);
        });
        action->setCheckable(true);
        action->setChecked(chosen ? number == chosen->number : !number);
        action->setEnabled(m_document != nullptr);
        group->addAction(action);
        m_stepActions.append(action);
    };
    addEntry(tr("&Whole Trace"), std::nullopt);
    for (const auto& step : selector->steps())
        addEntry(StepSelector::entryText(step), step.number);
    if (selector->steps().empty()) {
        auto* none = m_stepMenu->addAction(tr("No profiler steps in this session"));
        none->setEnabled(false);
        none->setToolTip(selector->toolTip());
        m_stepActions.append(none);
    }
}

void MainWindow::fillExampleMenu()
{
    m_exampleMenu->clear();
    const auto examples = findExampleSessions(m_exampleDirectories);
    for (const auto& example : examples) {
        auto* action
            = m_exampleMenu->addAction(example.title, this, [this, path = example.path] { openSession(path); });
        action->setToolTip(example.note.isEmpty() ? example.path : example.note);
        action->setStatusTip(example.note);
    }
    m_exampleMenu->setToolTipsVisible(true);
    if (examples.isEmpty())
        m_exampleMenu->addAction(tr("No examples found (looked in %1)").arg(m_exampleDirectories.join(tr(", "))))
            ->setEnabled(false);
}

QString MainWindow::lastDirectory(const QString& purpose) const
{
    return QSettings().value(QStringLiteral("lastDirectory/") + purpose, QDir::homePath()).toString();
}

void MainWindow::rememberDirectory(const QString& purpose, const QString& path)
{
    const QFileInfo info(path);
    QSettings().setValue(
        QStringLiteral("lastDirectory/") + purpose, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

bool MainWindow::rememberChoice(const QString& purpose, const QString& path)
{
    if (path.isEmpty())
        return false;
    rememberDirectory(purpose, path);
    return true;
}

void MainWindow::chooseSession()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open Session"), lastDirectory(QStringLiteral("open")), kSessionFilter);
    if (rememberChoice(QStringLiteral("open"), path))
        openSession(path);
}

void MainWindow::chooseCluster()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open Cluster: a Folder of Rank Sessions"), lastDirectory(QStringLiteral("cluster")));
    if (rememberChoice(QStringLiteral("cluster"), folder))
        openCluster({ folder });
}

void MainWindow::askImport(const QStringList& inputs)
{
    ImportDialog dialog(inputs, m_knownGpus, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    rememberDirectory(QStringLiteral("import"), dialog.output());
    importTraces(inputs, dialog.output(), dialog.gpuName());
}

void MainWindow::chooseImport()
{
    const QStringList inputs = QFileDialog::getOpenFileNames(
        this, tr("Import Traces (one file, or one per rank)"), lastDirectory(QStringLiteral("import")), traceFilter());
    if (inputs.isEmpty())
        return;
    rememberDirectory(QStringLiteral("import"), inputs.first());
    askImport(inputs);
}

void MainWindow::chooseSaveAs()
{
    if (!m_document)
        return;
    const QString target = QFileDialog::getSaveFileName(this, tr("Save Session As"),
        QDir(lastDirectory(QStringLiteral("export"))).filePath(QFileInfo(m_document->path).fileName()), kSessionFilter);
    if (rememberChoice(QStringLiteral("export"), target))
        saveSessionCopy(target);
}

void MainWindow::chooseExport(SessionExporter::Format format)
{
    if (!m_document)
        return;
    const QString base
        = QDir(lastDirectory(QStringLiteral("export"))).filePath(QFileInfo(m_document->path).completeBaseName());
    QString target;
    if (format == SessionExporter::Format::CsvFolder)
        target = QFileDialog::getExistingDirectory(
            this, tr("Export CSV Tables to Folder"), lastDirectory(QStringLiteral("export")));
    else if (format == SessionExporter::Format::Html)
        target = QFileDialog::getSaveFileName(
            this, tr("Export HTML Report"), base + QStringLiteral(".html"), tr("HTML (*.html)"));
    else
        target = QFileDialog::getSaveFileName(
            this, tr("Export Perfetto Trace"), base + QStringLiteral(".json"), tr("Chrome trace JSON (*.json)"));
    if (rememberChoice(QStringLiteral("export"), target))
        exportSession(format, target);
}

void MainWindow::chooseChartExport(const QString& suffix)
{
    const QString name = m_pages->tabText(m_pages->currentIndex()).remove(u'&').toLower();
    const QString target = QFileDialog::getSaveFileName(this, tr("Export Current Chart"),
        QDir(lastDirectory(QStringLiteral("export"))).filePath(name + u'.' + suffix),
        suffix == u"svg" ? tr("SVG image (*.svg)") : tr("PNG image (*.png)"));
    if (rememberChoice(QStringLiteral("export"), target))
        exportCurrentChart(target);
}

void MainWindow::chooseBaseline()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Compare with Baseline Session"), lastDirectory(QStringLiteral("open")), kSessionFilter);
    if (!path.isEmpty())
        openBaseline(path);
}

void MainWindow::updateActions()
{
    for (auto* action : m_sessionActions)
        action->setEnabled(m_document != nullptr);
    m_clearBaseline->setEnabled(m_baseline != nullptr);
}

} // namespace ridgeline::ui
