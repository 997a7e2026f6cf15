// SPDX-License-Identifier: MIT
#include "capturerunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTimer>
#include <csignal>
#include <sys/types.h>

namespace ridgeline::ui {

QStringList captureArguments(const CaptureJob& options)
{
    QStringList args { QStringLiteral("capture"), QStringLiteral("--progress"), QStringLiteral("-o"), options.output };
    if (!options.metrics.isEmpty())
        args << QStringLiteral("--metrics") << options.metrics;
    if (!options.kernelRegex.isEmpty())
        args << QStringLiteral("--kernel-regex") << options.kernelRegex;
    if (options.launchSkip > 0)
        args << QStringLiteral("--launch-skip") << QString::number(options.launchSkip);
    if (options.launchCount > 0)
        args << QStringLiteral("--launch-count") << QString::number(options.launchCount);
    if (!options.nvtxRange.isEmpty())
        args << QStringLiteral("--nvtx-range") << options.nvtxRange;
    args << QStringLiteral("--") << options.program << options.arguments;
    return args;
}

QString invalidEnvironmentEntry(const QStringList& environment)
{
    for (const auto& entry : environment) {
        if (entry.indexOf(u'=') <= 0)
            return entry;
    }
    return {};
}

QString findLauncher()
{
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("ridgeline"));
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QStandardPaths::findExecutable(QStringLiteral("ridgeline"));
}

CaptureRunner::CaptureRunner(QObject* parent)
    : QObject(parent)
    , m_process(new QProcess(this))
    , m_killTimer(new QTimer(this))
    , m_launcher(findLauncher())
{
    m_killTimer->setSingleShot(true);
    connect(m_killTimer, &QTimer::timeout, m_process, &QProcess::kill);
    connect(m_process, &QProcess::readyReadStandardOutput, this,
        [this] { readChannel(QProcess::StandardOutput, m_stdout); });
    connect(
        m_process, &QProcess::readyReadStandardError, this, [this] { readChannel(QProcess::StandardError, m_stderr); });
    connect(m_process, &QProcess::finished, this, &CaptureRunner::processFinished);
    connect(m_process, &QProcess::errorOccurred, this, &CaptureRunner::processError);
}

CaptureRunner::~CaptureRunner()
{
    // Never leave a capture running behind a closed window.
    if (isRunning()) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(3000);
    }
}

void CaptureRunner::start(const CaptureJob& options)
{
    Q_ASSERT(!isRunning());
    m_stdout.clear();
    m_stderr.clear();
    m_stderrTail.clear();
    m_outcome = CaptureOutcome {};
    m_outcome.output = options.output;
    m_sawFinished = false;
    m_stopping = false;
    if (m_launcher.isEmpty()) {
        m_outcome.error = tr("Cannot find the `ridgeline` command next to ridgeline-ui or on PATH.");
        Q_EMIT finished(m_outcome);
        return;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto& entry : options.environment) {
        const auto equals = entry.indexOf(u'=');
        env.insert(entry.left(equals), entry.mid(equals + 1));
    }
    m_process->setProcessEnvironment(env);
    m_process->setWorkingDirectory(options.workingDirectory);
    m_process->setProgram(m_launcher);
    m_process->setArguments(captureArguments(options));
    m_process->start(QIODevice::ReadOnly);
}

void CaptureRunner::stop()
{
    if (!isRunning() || m_stopping)
        return;
    m_stopping = true;
    ::kill(static_cast<pid_t>(m_process->processId()), SIGINT);
    m_killTimer->start(m_graceMs);
}

void CaptureRunner::readChannel(QProcess::ProcessChannel channel, QByteArray& buffer)
{
    m_process->setReadChannel(channel);
    buffer += m_process->readAll();
    qsizetype newline = 0;
    while ((newline = buffer.indexOf('\n')) >= 0) {
        handleLine(QString::fromUtf8(buffer.left(newline)), channel == QProcess::StandardError);
        buffer.remove(0, newline + 1);
    }
}

void CaptureRunner::handleLine(const QString& line, bool fromStderr)
{
    if (fromStderr) {
        if (const auto event = core::progress::parseLine(line.toStdString())) {
            switch (event->kind) {
            case core::progress::Event::Kind::Finished:
                m_sawFinished = true;
                m_outcome.output = event->output.empty() ? m_outcome.output : QString::fromStdString(event->output);
                m_outcome.status = QString::fromStdString(event->status);
                m_outcome.exitCode = event->exitCode;
                m_outcome.kernels = event->kernels;
                m_outcome.memops = event->memops;
                break;
            case core::progress::Event::Kind::Error:
                m_outcome.error = QString::fromStdString(event->message);
                break;
            default:
                break;
            }
            Q_EMIT progress(*event);
            return;
        }
        m_stderrTail.append(line);
        if (m_stderrTail.size() > 8)
            m_stderrTail.removeFirst();
    }
    Q_EMIT outputLine(line);
}

void CaptureRunner::processFinished(int exitCode, QProcess::ExitStatus status)
{
    m_killTimer->stop();
    // What is left without a final newline.
    if (!m_stdout.isEmpty())
        handleLine(QString::fromUtf8(std::exchange(m_stdout, {})), false);
    if (!m_stderr.isEmpty())
        handleLine(QString::fromUtf8(std::exchange(m_stderr, {})), true);
    // A written session counts even when the program failed: it keeps what was captured.
    m_outcome.ok = m_sawFinished && QFileInfo::exists(m_outcome.output);
    if (!m_outcome.ok && m_outcome.error.isEmpty()) {
        if (!m_stderrTail.isEmpty())
            m_outcome.error = m_stderrTail.join(u'\n');
        else if (status == QProcess::CrashExit)
            m_outcome.error = m_stopping ? tr("The capture was stopped and did not finish writing a session.")
                                         : tr("`ridgeline capture` crashed.");
        else
            m_outcome.error = tr("`ridgeline capture` exited with status %1 and wrote no session.").arg(exitCode);
    }
    Q_EMIT finished(m_outcome);
}

void CaptureRunner::processError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart)
        return; // crashes and the like arrive through finished()
    m_outcome.error = tr("Cannot run %1: %2").arg(m_launcher, m_process->errorString());
    Q_EMIT finished(m_outcome);
}

} // namespace ridgeline::ui

#include "moc_capturerunner.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
