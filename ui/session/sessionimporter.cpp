// SPDX-License-Identifier: MIT
#include "sessionimporter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace ridgeline::ui {

SessionImporter::SessionImporter(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &SessionImporter::deliver);
    connect(&m_watcher, &QFutureWatcher<Outcome>::progressValueChanged, this,
        [this](int value) { Q_EMIT progressChanged(value, m_watcher.progressText()); });
}

SessionImporter::~SessionImporter()
{
    m_watcher.disconnect(this);
    m_watcher.waitForFinished();
    if (!m_temporary.isEmpty())
        QFile::remove(m_temporary);
}

void SessionImporter::import(const QStringList& inputs, const QString& output, const QString& gpuName)
{
    Q_ASSERT(m_import && !isRunning());
    m_inputs = inputs;
    m_output = output;
    // Written next to the output, then renamed over it: a failed or cancelled import leaves the
    // chosen file as it was.
    const QFileInfo info(output);
    m_temporary = info.dir().filePath(
        QStringLiteral(".%1.importing-%2.ridge").arg(info.completeBaseName()).arg(QCoreApplication::applicationPid()));
    QFile::remove(m_temporary);
    ImportJob job;
    for (const auto& input : inputs)
        job.inputs.push_back(input.toStdString());
    job.output = m_temporary.toStdString();
    job.gpuName = gpuName.trimmed().toStdString();
    m_watcher.setFuture(QtConcurrent::run([function = m_import, job = std::move(job)](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, 1000);
        const ImportProgress progress = [&promise](double fraction, std::string_view what) {
            promise.setProgressValueAndText(
                static_cast<int>(fraction * 1000.0), QString::fromUtf8(what.data(), qsizetype(what.size())));
        };
        auto result = function(job, progress);
        Outcome outcome;
        if (result.ok())
            outcome.summary = QString::fromStdString(result.value());
        else
            outcome.error = QString::fromStdString(result.error().message);
        promise.addResult(std::move(outcome));
    }));
}

void SessionImporter::cancel()
{
    if (isRunning())
        m_watcher.cancel();
}

void SessionImporter::deliver()
{
    const QString temporary = std::exchange(m_temporary, QString());
    if (m_watcher.isCanceled() || m_watcher.future().resultCount() == 0) {
        QFile::remove(temporary);
        Q_EMIT cancelled();
        return;
    }
    const Outcome outcome = m_watcher.result();
    if (!outcome.error.isEmpty()) {
        QFile::remove(temporary);
        Q_EMIT failed(m_inputs, outcome.error);
        return;
    }
    if (QFile::exists(m_output) && !QFile::remove(m_output)) {
        QFile::remove(temporary);
        Q_EMIT failed(m_inputs, tr("Cannot replace %1.").arg(m_output));
        return;
    }
    if (!QFile::rename(temporary, m_output)) {
        QFile::remove(temporary);
        Q_EMIT failed(m_inputs, tr("Cannot write %1.").arg(m_output));
        return;
    }
    Q_EMIT imported(m_output, outcome.summary);
}

} // namespace ridgeline::ui

#include "moc_sessionimporter.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
