// SPDX-License-Identifier: MIT
// MainWindow's Cluster page: loading many sessions' rank summaries, and a rank's own session on
// demand.
#include "cluster/clusterloader.h"
#include "cluster/clusterpage.h"
#include "mainwindow.h"
#include "taskprogress.h"

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

namespace ridgeline::ui {

void MainWindow::createClusterPage()
{
    m_clusterLoader = new ClusterLoader(this);
    m_clusterPage = new ClusterPage(this);
    m_clusterPage->setObjectName(QStringLiteral("clusterPage"));
    addPage(m_clusterPage, tr("C&luster"), QStringLiteral("cluster"));
    connect(m_clusterLoader, &ClusterLoader::progressChanged, m_progress, &TaskProgress::setProgress);
    connect(m_clusterLoader, &ClusterLoader::loaded, this, [this](const ClusterDocumentPtr& doc) {
        m_progress->end();
        m_clusterPage->setDocument(doc);
        m_pages->setCurrentWidget(m_clusterPage);
        statusBar()->showMessage(
            tr("%n rank(s) from %1 session(s).", nullptr, static_cast<int>(doc->report.ranks.size()))
                .arg(doc->sessions),
            10000);
        Q_EMIT clusterOpened();
    });
    connect(m_clusterLoader, &ClusterLoader::failed, this, [this](const QString& message) {
        m_progress->end();
        showError(tr("Could not open the cluster"), message);
        Q_EMIT clusterFailed(message);
    });
    // One rank's launches are read only now, when its timeline is asked for.
    connect(m_clusterPage, &ClusterPage::rankOpenRequested, this, [this](const QString& session, int rank) {
        statusBar()->showMessage(tr("Opening rank %1 (%2)…").arg(rank).arg(QFileInfo(session).fileName()), 5000);
        openSession(session);
        showView(QStringLiteral("timeline"));
    });
}

void MainWindow::openCluster(const QStringList& inputs)
{
    if (inputs.isEmpty())
        return;
    // Named by its first input: a job of a thousand ranks may be given as a thousand files.
    const QString first = QFileInfo(QDir::cleanPath(inputs.front())).fileName(); // a folder's too
    m_progress->begin(inputs.size() == 1
            ? tr("Opening the cluster (%1)").arg(first)
            : tr("Opening the cluster (%1 and %n more)", nullptr, static_cast<int>(inputs.size() - 1)).arg(first));
    m_clusterLoader->load(inputs);
}

} // namespace ridgeline::ui
