// SPDX-License-Identifier: MIT
// Runs `ridgeline capture --progress` as a child process and follows it. The UI never talks to
// CUPTI: the launcher does the capture, this class only reads its progress lines
// (ridgeline/core/output/progressprotocol.h).
#pragma once

#include "ridgeline/core/output/progressprotocol.h"

#include <QObject>
#include <QProcess>
#include <QStringList>

class QTimer;

namespace ridgeline::ui {

// A capture the app asks the launcher for: what the capture dialog collects, turned into a
// `ridgeline capture` command line (captureArguments). The launcher's own view of the same
// options is collectors::CaptureRequest.
struct CaptureJob {
    QString program;
    QStringList arguments;
    QString workingDirectory; // empty: the app's
    QStringList environment; // KEY=VALUE additions to the app's environment
    QString metrics = QStringLiteral("roofline"); // roofline | full | none | comma-separated names
    QString kernelRegex;
    qint64 launchSkip = 0;
    qint64 launchCount = 0; // 0: no limit
    QString nvtxRange;
    QString output;
};

// The launcher's arguments: capture --progress -o OUTPUT [filters] -- PROGRAM ARGS.
QStringList captureArguments(const CaptureJob& options);
// The first KEY=VALUE line that is not one (empty key or no '='); empty when all are fine.
QString invalidEnvironmentEntry(const QStringList& environment);
// `ridgeline` next to this executable first (build tree and install share bin/), then on PATH;
// empty when there is none.
QString findLauncher();

struct CaptureOutcome {
    bool ok = false; // a session was written (complete or partial)
    QString output;
    QString status; // complete | partial
    int exitCode = 0; // the program's
    qint64 kernels = 0;
    qint64 memops = 0;
    QString error; // as the launcher worded it
};

class CaptureRunner final : public QObject {
    Q_OBJECT
public:
    explicit CaptureRunner(QObject* parent = nullptr);
    ~CaptureRunner() override;

    void setLauncher(const QString& path) { m_launcher = path; }
    QString launcher() const { return m_launcher; }
    // How long stop() waits after SIGINT before it kills the launcher.
    void setStopGraceMs(int ms) { m_graceMs = ms; }

    void start(const CaptureJob& options);
    // SIGINT to the launcher (it stops the target and keeps what was captured), then SIGKILL.
    void stop();
    bool isRunning() const { return m_process->state() != QProcess::NotRunning; }
    // Blocks until the launcher exited (after stop(): it merges what was captured); false on timeout.
    bool waitForStopped(int ms) { return m_process->waitForFinished(ms); }

Q_SIGNALS:
    void progress(const ridgeline::core::progress::Event& event);
    void outputLine(const QString& line);
    void finished(const ridgeline::ui::CaptureOutcome& outcome);

private:
    void readChannel(QProcess::ProcessChannel channel, QByteArray& buffer);
    void handleLine(const QString& line, bool fromStderr);
    void processFinished(int exitCode, QProcess::ExitStatus status);
    void processError(QProcess::ProcessError error);

    QProcess* m_process;
    QTimer* m_killTimer;
    QString m_launcher;
    int m_graceMs = 10000;
    QByteArray m_stdout, m_stderr;
    QStringList m_stderrTail; // the launcher's last plain lines, for errors it did not report
    CaptureOutcome m_outcome;
    bool m_sawFinished = false;
    bool m_stopping = false;
};

} // namespace ridgeline::ui
