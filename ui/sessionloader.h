// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/report.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

namespace ridgeline::ui {

// Opens a session off the GUI thread and delivers the kernel report as a value.
class SessionLoader final : public QObject {
    Q_OBJECT
public:
    explicit SessionLoader(QObject* parent = nullptr);
    ~SessionLoader() override;

    void load(const QString& path);
    bool isLoading() const;

Q_SIGNALS:
    void loaded(const QString& path, const ridgeline::core::KernelReport& report);
    void failed(const QString& path, const QString& message);

private:
    struct Outcome {
        QString path;
        core::KernelReport report;
        QString error; // empty on success
    };
    static Outcome loadInWorker(const QString& path);
    void deliver();

    QFutureWatcher<Outcome> m_watcher;
};

} // namespace ridgeline::ui
