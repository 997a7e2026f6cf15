// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/base/result.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::ui {

// One import: the traces, the session to write, and the GPU to name devices the files leave
// unnamed (`ridgeline import --gpu`; empty: as the files name them).
struct ImportJob {
    std::vector<std::string> inputs;
    std::string output;
    std::string gpuName;
};

// What the app wires in (app/gui: collectors::importFiles): ui itself does not depend on the
// collectors. Writes `job.output` from `job.inputs` and returns the one-line summary.
using ImportProgress = std::function<void(double fraction, std::string_view what)>;
using ImportFunction = std::function<core::Result<std::string>(const ImportJob& job, const ImportProgress& progress)>;

// Imports traces into a session file off the GUI thread. The importers cannot be interrupted, so
// cancelling abandons the import: it finishes in the background into a temporary file that is
// then deleted, and the chosen output is never touched.
class SessionImporter final : public QObject {
    Q_OBJECT
public:
    explicit SessionImporter(QObject* parent = nullptr);
    ~SessionImporter() override;

    void setImportFunction(ImportFunction function) { m_import = std::move(function); }
    bool canImport() const { return static_cast<bool>(m_import); }
    void import(const QStringList& inputs, const QString& output, const QString& gpuName = {});
    void cancel();
    bool isRunning() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void progressChanged(int permille, const QString& what);
    void imported(const QString& output, const QString& summary);
    void failed(const QStringList& inputs, const QString& message);
    void cancelled();

private:
    struct Outcome {
        QString summary;
        QString error; // empty on success
    };
    void deliver();

    ImportFunction m_import;
    QFutureWatcher<Outcome> m_watcher;
    QStringList m_inputs;
    QString m_output;
    QString m_temporary;
};

} // namespace ridgeline::ui
