// SPDX-License-Identifier: MIT
#include "sessionopener.h"

#include "documentreader.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace ridgeline::ui {

SessionOpener::SessionOpener(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &SessionOpener::deliver);
    connect(&m_watcher, &QFutureWatcher<Outcome>::resultReadyAt, this, &SessionOpener::deliverStage);
    connect(&m_watcher, &QFutureWatcher<Outcome>::progressValueChanged, this,
        [this](int value) { Q_EMIT progressChanged(value, m_watcher.progressText()); });
}

SessionOpener::~SessionOpener()
{
    m_watcher.disconnect(this);
    m_watcher.cancel();
    m_watcher.waitForFinished();
    for (auto& future : m_abandoned)
        future.waitForFinished();
}

void SessionOpener::load(const QString& path)
{
    if (m_watcher.isRunning()) {
        m_watcher.cancel();
        m_abandoned.append(m_watcher.future());
    }
    m_abandoned.removeIf([](const QFuture<Outcome>& future) { return future.isFinished(); });
    m_path = path;
    m_documentDelivered = false;
    m_watcher.setFuture(QtConcurrent::run([path](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, 1000);
        ReadHooks hooks;
        hooks.progress
            = [&promise](int permille, const QString& what) { promise.setProgressValueAndText(permille, what); };
        hooks.cancelled = [&promise] { return promise.isCanceled(); };
        hooks.tableReady = [&promise](const SessionDocument& tableStage) {
            promise.addResult(Outcome { std::make_shared<const SessionDocument>(tableStage), Stage::Table, {} });
        };
        hooks.documentReady = [&promise](const SessionDocument& document) {
            promise.addResult(Outcome { std::make_shared<const SessionDocument>(document), Stage::Document, {} });
        };
        auto doc = readSessionDocument(path, hooks);
        Outcome outcome;
        if (doc.ok())
            outcome.document = std::make_shared<const SessionDocument>(std::move(doc).value());
        else
            outcome.error = QString::fromStdString(doc.error().message);
        promise.addResult(std::move(outcome));
    }));
}

void SessionOpener::cancel()
{
    if (m_watcher.isRunning())
        m_watcher.cancel();
}

bool SessionOpener::isLoading() const
{
    return m_watcher.isRunning();
}

void SessionOpener::deliverStage(int index)
{
    const Outcome stage = m_watcher.resultAt(index);
    if (m_watcher.isCanceled())
        return;
    if (stage.stage == Stage::Table) {
        Q_EMIT tableReady(stage.document);
    } else if (stage.stage == Stage::Document) {
        m_documentDelivered = true;
        Q_EMIT loaded(stage.document);
    }
}

void SessionOpener::deliver()
{
    const QString path = m_path;
    const int count = m_watcher.future().resultCount();
    if (m_watcher.isCanceled() || count == 0 || m_watcher.resultAt(count - 1).stage != Stage::Checked) {
        Q_EMIT cancelled(path);
        return;
    }
    const Outcome outcome = m_watcher.resultAt(count - 1);
    if (!outcome.document)
        Q_EMIT failed(path, outcome.error);
    else if (m_documentDelivered)
        Q_EMIT valuesChecked(outcome.document);
    else
        Q_EMIT loaded(outcome.document);
}

} // namespace ridgeline::ui

#include "moc_sessionopener.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
