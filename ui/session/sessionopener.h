// SPDX-License-Identifier: MIT
#pragma once

#include "sessiondocument.h"

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>

namespace ridgeline::ui {

// Opens a session off the GUI thread (readSessionDocument, documentreader.h, in a worker) with
// progress and cancel, and delivers the document as a shared read-only value: first tableReady()
// with what the kernel table needs (so it paints before the slow stages end), then loaded() with
// everything but the value warnings (SessionDocument::valuesChecked false), then valuesChecked()
// with them too once the value checks have run (minutes with 100 M GPU ops: the views do not wait).
class SessionOpener final : public QObject {
    Q_OBJECT
public:
    explicit SessionOpener(QObject* parent = nullptr);
    ~SessionOpener() override;

    // Starts opening `path`; a load still running is cancelled and its results dropped.
    void load(const QString& path);
    void cancel();
    bool isLoading() const;

Q_SIGNALS:
    void progressChanged(int permille, const QString& what);
    void tableReady(const ridgeline::ui::SessionDocumentPtr& tableStage);
    void loaded(const ridgeline::ui::SessionDocumentPtr& document);
    // The document of the last loaded(), with its value warnings.
    void valuesChecked(const ridgeline::ui::SessionDocumentPtr& document);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);

private:
    enum class Stage {
        Table, // what the kernel table needs
        Document, // everything but the value warnings
        Checked, // the last result: the whole document, or the error
    };
    struct Outcome {
        SessionDocumentPtr document;
        Stage stage = Stage::Checked;
        QString error; // empty on success
    };
    void deliverStage(int index);
    void deliver();

    QFutureWatcher<Outcome> m_watcher;
    QList<QFuture<Outcome>> m_abandoned; // cancelled loads still finishing their current stage
    QString m_path;
    bool m_documentDelivered = false; // loaded() was emitted for the load running
};

} // namespace ridgeline::ui
