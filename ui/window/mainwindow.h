// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessiondocument.h"
#include "session/sessionexporter.h"
#include "session/sessionimporter.h"

#include <QHash>
#include <QMainWindow>
#include <cstdint>
#include <functional>
#include <optional>

class QAction;
class QActionGroup;
class QMenu;
class QDockWidget;
class QTabWidget;

namespace ridgeline::ui {

class CaptureDialog;
class ClusterLoader;
class ClusterPage;
class KernelPage;
class RecentFiles;
class SelectionModel;
class SessionOpener;
class TaskProgress;
class ThemeController;
class TimelinePage;

// Assembles pages, docks, menus and actions; owns no analysis. Pages are tabs added with
// addPage() (each gets Ctrl+<n> and a view name for showView / --screenshot --view); views get
// the open session through documentChanged() and the comparison session through baselineChanged().
// It hands out no part of itself: pages talk through signals and slots, and a test finds a part by
// its object name (findChild): "pages", "kernelPage", "timelinePage", "clusterPage", "detailsDock",
// "selection", "exampleMenu", "stepMenu", "captureDialog".
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // One line per page: the tab, View menu entry, Ctrl+<n> and the view name.
    int addPage(QWidget* page, const QString& title, const QString& viewName);
    // Puts `widget` in the Details dock (registered as view "details").
    void setDetailsWidget(QWidget* widget);
    // Whether the details pane is still reading the selected kernel's launch configurations and
    // counters (off the GUI thread); detailsLoaded() follows when they are shown.
    bool detailsLoading() const;
    // Chooses PyTorch profiler step `number` (empty: the whole trace) on the timeline: it zooms to the
    // step and its figures cover it. False when the open session has no such step.
    bool chooseProfilerStep(std::optional<std::int64_t> number);
    // Whether the timeline's figures of the chosen step are still being worked out (off the GUI
    // thread); timelineSummaryShown() follows when they are shown.
    bool timelineSummaryLoading() const;
    // A named view outside the tabs (e.g. a dock): `show` brings it to the front.
    void registerView(const QString& name, std::function<void()> show);
    QStringList viewNames() const { return m_viewOrder; }
    bool showView(const QString& name);
    // Selects the kernel with the most time whose name contains `nameContains` (any kernel when
    // empty) in every view; false when no kernel of the open session matches.
    bool selectKernel(const QString& nameContains);

    void openSession(const QString& path);
    void openBaseline(const QString& path);
    void clearBaseline();
    void closeSession();
    // Imports traces into `output` (off the GUI thread), then opens it. `gpuName` names devices
    // the traces leave unnamed (`ridgeline import --gpu`); empty: as the traces name them.
    void importTraces(const QStringList& inputs, const QString& output, const QString& gpuName = {});
    void setImportFunction(ImportFunction function);
    // The GPU names the import dialog offers (the app wires in the datasheet catalogue's).
    void setKnownGpus(const QStringList& names) { m_knownGpus = names; }
    // Where File ▸ Open Example looks for bundled sessions (default: defaultExampleDirectories()).
    void setExampleDirectories(const QStringList& directories) { m_exampleDirectories = directories; }
    // Opens .ridge files, imports anything else (asking where to save): drag and drop, command line.
    // Several sessions, or a folder, open as a cluster.
    void openFiles(const QStringList& paths);
    // The Cluster page over `inputs` (.ridge files and folders of them): their rank summaries only.
    void openCluster(const QStringList& inputs);
    // Capture ▸ New Capture: the window's one capture dialog, shown.
    void showCaptureDialog();
    void exportSession(SessionExporter::Format format, const QString& target);
    bool exportCurrentChart(const QString& path);
    void saveSessionCopy(const QString& target);

    SessionDocumentPtr document() const { return m_document; }
    SessionDocumentPtr baseline() const { return m_baseline; }

Q_SIGNALS:
    // The kernel table shows the session being opened; the other figures are still loading.
    void tableReady(const QString& path);
    void sessionOpened(const QString& path);
    // The value warnings of the open session are known (after sessionOpened: the value checks run
    // once the views show it); the status bar and About name them.
    void valuesChecked(const QString& path);
    void sessionFailed(const QString& path, const QString& message);
    void clusterOpened();
    void clusterFailed(const QString& message);
    void documentChanged(const ridgeline::ui::SessionDocumentPtr& document);
    void baselineChanged(const ridgeline::ui::SessionDocumentPtr& baseline);
    void importFinished(const QString& output);
    void importFailed(const QString& message);
    void exportFinished(const QString& target);
    void exportFailed(const QString& target, const QString& message);
    void timelineSummaryShown(); // the timeline's figures cover the chosen window (whole trace or step)
    void detailsLoaded(); // the details pane shows the selected kernel's configurations and counters

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // mainwindowmenus.cpp
    void createMenus();
    void createFileMenu();
    void createViewMenu();
    void fillRecentMenu();
    void fillExampleMenu();
    void fillStepMenu();
    void chooseSession();
    void chooseCluster();
    void chooseImport();
    void chooseSaveAs();
    void chooseExport(SessionExporter::Format format);
    void chooseChartExport(const QString& suffix);
    void chooseBaseline();
    void askImport(const QStringList& inputs);
    QString lastDirectory(const QString& purpose) const;
    void rememberDirectory(const QString& purpose, const QString& path);
    // After a file dialog: false when it was cancelled (`path` empty); else remembers the folder of
    // `path` for the next dialog of `purpose` and returns true.
    bool rememberChoice(const QString& purpose, const QString& path);
    void updateActions();

    CaptureDialog* captureDialog();

    // mainwindowcluster.cpp
    void createClusterPage();

    // mainwindow.cpp
    void showTableStage(const SessionDocumentPtr& tableStage);
    void showDocument(const SessionDocumentPtr& document);
    // The status bar's line for an open session: its path, kernels and launches, and its first warning.
    QString sessionSummary(const SessionDocument& document) const;
    void showBaseline(const SessionDocumentPtr& baseline);
    void showError(const QString& title, const QString& message);
    void connectLoader(SessionOpener* loader, bool baseline);
    void restoreSettings();
    void saveSettings() const;

    QTabWidget* m_pages;
    KernelPage* m_kernelPage;
    TimelinePage* m_timelinePage = nullptr;
    QDockWidget* m_detailsDock;
    SelectionModel* m_selection;
    SessionOpener* m_loader;
    SessionOpener* m_baselineLoader;
    SessionImporter* m_importer;
    SessionExporter* m_exporter;
    TaskProgress* m_progress;
    RecentFiles* m_recent;
    ThemeController* m_theme;
    CaptureDialog* m_capture = nullptr;
    ClusterLoader* m_clusterLoader = nullptr;
    ClusterPage* m_clusterPage = nullptr;
    SessionDocumentPtr m_document;
    SessionDocumentPtr m_baseline;
    QString m_stagedPath; // the session whose table stage is shown while the rest loads
    QHash<QString, std::function<void()>> m_views;
    QStringList m_viewOrder;
    QMenu* m_viewMenu = nullptr;
    QAction* m_pagesEnd = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_exampleMenu = nullptr;
    QMenu* m_stepMenu = nullptr;
    QList<QAction*> m_stepActions; // the step menu's entries of the open session
    QStringList m_exampleDirectories;
    QStringList m_knownGpus;
    QList<QAction*> m_sessionActions; // enabled only while a session is open
    QAction* m_clearBaseline = nullptr;
    QActionGroup* m_groupingActions = nullptr;
};

} // namespace ridgeline::ui
