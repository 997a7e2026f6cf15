// SPDX-License-Identifier: MIT
#include "sessionloader.h"

#include "ridgeline/core/sessionreader.h"

#include <QtConcurrent/QtConcurrentRun>

namespace ridgeline::ui {

SessionLoader::SessionLoader(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &SessionLoader::deliver);
}

SessionLoader::~SessionLoader()
{
    m_watcher.waitForFinished();
}

void SessionLoader::load(const QString& path)
{
    m_watcher.waitForFinished();
    m_watcher.setFuture(QtConcurrent::run(&SessionLoader::loadInWorker, path));
}

bool SessionLoader::isLoading() const
{
    return m_watcher.isRunning();
}

SessionLoader::Outcome SessionLoader::loadInWorker(const QString& path)
{
    Outcome outcome;
    outcome.path = path;
    auto reader = core::SessionReader::open(path.toStdString());
    if (reader.hasError()) {
        outcome.error = QString::fromStdString(reader.error().message);
        return outcome;
    }
    auto report = core::buildKernelReport(reader.value());
    if (report.hasError()) {
        outcome.error = QString::fromStdString(report.error().message);
        return outcome;
    }
    outcome.report = std::move(report).value();
    return outcome;
}

void SessionLoader::deliver()
{
    const Outcome outcome = m_watcher.result();
    if (outcome.error.isEmpty())
        Q_EMIT loaded(outcome.path, outcome.report);
    else
        Q_EMIT failed(outcome.path, outcome.error);
}

} // namespace ridgeline::ui
