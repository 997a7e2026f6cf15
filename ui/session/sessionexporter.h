// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

namespace ridgeline::ui {

// File ▸ Export of a whole session through core's exporters, and File ▸ Save As (a byte copy of
// the read-only session file), off the GUI thread.
class SessionExporter final : public QObject {
    Q_OBJECT
public:
    enum class Format { Html, Perfetto, CsvFolder, SessionCopy };

    explicit SessionExporter(QObject* parent = nullptr);
    ~SessionExporter() override;

    void start(Format format, const QString& session, const QString& target);
    bool isRunning() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void exported(const QString& target);
    void failed(const QString& target, const QString& message);

private:
    QFutureWatcher<QString> m_watcher; // the error, empty on success
    QString m_target;
};

} // namespace ridgeline::ui
