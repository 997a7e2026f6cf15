// SPDX-License-Identifier: MIT
#include "sessionexporter.h"

#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"

#include <QtConcurrent/QtConcurrentRun>
#include <fstream>

namespace ridgeline::ui {

namespace {

QString copySession(const std::string& session, const std::string& target)
{
    std::ifstream in(session, std::ios::binary);
    if (!in)
        return QStringLiteral("Cannot read %1.").arg(QString::fromStdString(session));
    const auto status = core::writeFileAtomically(target, [&in](std::ostream& out) -> core::Status {
        out << in.rdbuf();
        if (in.bad())
            return core::makeError(core::ErrorCode::Io, "reading the session failed");
        return {};
    });
    return status.ok() ? QString() : QString::fromStdString(status.error().message);
}

QString exportSession(SessionExporter::Format format, const std::string& session, const std::string& target)
{
    if (format == SessionExporter::Format::SessionCopy)
        return copySession(session, target);
    auto reader = core::SessionReader::open(session);
    if (reader.hasError())
        return QString::fromStdString(reader.error().message);
    core::Status status;
    switch (format) {
    case SessionExporter::Format::Html:
        status = core::writeFileAtomically(
            target, [&](std::ostream& out) { return core::writeHtmlReport(reader.value(), out); });
        break;
    case SessionExporter::Format::Perfetto:
        status = core::writeFileAtomically(
            target, [&](std::ostream& out) { return core::writePerfettoTrace(reader.value(), out); });
        break;
    case SessionExporter::Format::CsvFolder: {
        auto written = core::writeCsvTables(reader.value(), target);
        if (written.hasError())
            status = written.error();
        break;
    }
    case SessionExporter::Format::SessionCopy:
        break;
    }
    return status.ok() ? QString() : QString::fromStdString(status.error().message);
}

} // namespace

SessionExporter::SessionExporter(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<QString>::finished, this, [this] {
        const QString error = m_watcher.result();
        if (error.isEmpty())
            Q_EMIT exported(m_target);
        else
            Q_EMIT failed(m_target, error);
    });
}

SessionExporter::~SessionExporter()
{
    m_watcher.disconnect(this);
    m_watcher.waitForFinished();
}

void SessionExporter::start(Format format, const QString& session, const QString& target)
{
    Q_ASSERT(!isRunning());
    m_target = target;
    m_watcher.setFuture(QtConcurrent::run(exportSession, format, session.toStdString(), target.toStdString()));
}

} // namespace ridgeline::ui

#include "moc_sessionexporter.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
