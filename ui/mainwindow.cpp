// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "kernelpage.h"
#include "sessionloader.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace ridgeline::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_kernelPage(new KernelPage(this))
    , m_loader(new SessionLoader(this))
{
    setWindowTitle(tr("Ridgeline"));
    setCentralWidget(m_kernelPage);
    resize(1200, 700);

    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    auto* open = fileMenu->addAction(tr("&Open Session…"), this, &MainWindow::chooseSession);
    open->setShortcut(QKeySequence::Open);
    fileMenu->addSeparator();
    auto* quit = fileMenu->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    connect(m_loader, &SessionLoader::loaded, this, &MainWindow::showSession);
    connect(m_loader, &SessionLoader::failed, this, &MainWindow::showError);
    statusBar()->showMessage(tr("Open a session (.ridge) with File → Open."));
}

void MainWindow::openSession(const QString& path)
{
    statusBar()->showMessage(tr("Opening %1…").arg(path));
    m_loader->load(path);
}

void MainWindow::chooseSession()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Session"), QString(), tr("Ridgeline sessions (*.ridge);;All files (*)"));
    if (!path.isEmpty())
        openSession(path);
}

void MainWindow::showSession(const QString& path, const core::KernelReport& report)
{
    m_kernelPage->setRows(report.kernels);
    setWindowTitle(tr("%1 — Ridgeline").arg(QFileInfo(path).fileName()));
    std::int64_t launches = 0;
    for (const auto& row : report.kernels)
        launches += row.launches;
    statusBar()->showMessage(
        tr("%1: %n kernel(s), %2 launches", nullptr, static_cast<int>(report.kernels.size())).arg(path).arg(launches));
    Q_EMIT sessionOpened(path);
}

void MainWindow::showError(const QString& path, const QString& message)
{
    statusBar()->showMessage(tr("Could not open %1").arg(path));
    // Window-modal and non-blocking: the app stays responsive (and testable).
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open session"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    Q_EMIT sessionFailed(path, message);
}

} // namespace ridgeline::ui
