// SPDX-License-Identifier: MIT
#include "clusterloader.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace ridgeline::ui {

ClusterLoader::ClusterLoader(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        const Outcome outcome = m_watcher.result();
        if (!outcome.error.isEmpty())
            Q_EMIT failed(outcome.error);
        else
            Q_EMIT loaded(outcome.document);
    });
}

ClusterLoader::~ClusterLoader()
{
    m_watcher.waitForFinished();
}

void ClusterLoader::load(const QStringList& inputs)
{
    m_watcher.waitForFinished();
    const int generation = ++m_generation;
    QPointer<ClusterLoader> self(this);
    const auto report = [self, generation](int permille, const QString& what) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, permille, what] {
                if (self && self->m_generation == generation)
                    Q_EMIT self->progressChanged(permille, what);
            },
            Qt::QueuedConnection);
    };
    m_watcher.setFuture(QtConcurrent::run([inputs, report]() -> Outcome {
        std::vector<std::string> paths;
        for (const auto& input : inputs)
            paths.push_back(input.toStdString());
        auto sessions = core::expandSessionPaths(paths);
        if (sessions.empty())
            return { nullptr, tr("No sessions (.ridge) in %1.").arg(inputs.join(QStringLiteral(", "))) };
        auto gathered = core::gatherRankSummaries(sessions, {}, [&](std::size_t done, std::size_t total) {
            report(static_cast<int>(1000 * done / std::max<std::size_t>(total, 1)),
                tr("Reading rank summaries (%1 of %2 sessions)").arg(done).arg(total));
        });
        if (gathered.ranks.empty()) {
            QStringList why;
            for (const auto& failure : gathered.failures)
                why.append(QString::fromStdString(failure));
            return { nullptr, tr("No session could be read:\n%1").arg(why.join(QLatin1Char('\n'))) };
        }
        auto doc = std::make_shared<ClusterDocument>();
        doc->inputs = inputs;
        doc->sessions = sessions.size();
        doc->fromStored = gathered.fromStored;
        doc->report = core::buildClusterReport(std::move(gathered.ranks));
        for (const auto& failure : gathered.failures)
            doc->report.warnings.push_back("left out: " + failure);
        return { std::move(doc), {} };
    }));
}

} // namespace ridgeline::ui

#include "moc_clusterloader.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
