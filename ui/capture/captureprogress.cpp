// SPDX-License-Identifier: MIT
#include "captureprogress.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace ridgeline::ui {

namespace {

std::optional<CaptureEvent::Kind> kindOf(const QString& event)
{
    if (event == u"started")
        return CaptureEvent::Kind::Started;
    if (event == u"running")
        return CaptureEvent::Kind::Running;
    if (event == u"merging")
        return CaptureEvent::Kind::Merging;
    if (event == u"finished")
        return CaptureEvent::Kind::Finished;
    if (event == u"error")
        return CaptureEvent::Kind::Error;
    return std::nullopt;
}

qint64 integer(const QJsonObject& object, QLatin1StringView key)
{
    return static_cast<qint64>(object.value(key).toDouble());
}

} // namespace

std::optional<CaptureEvent> parseCaptureProgressLine(QStringView line)
{
    if (line.endsWith(u'\r'))
        line.chop(1);
    if (!line.startsWith(kCaptureProgressPrefix))
        return std::nullopt;
    QJsonParseError error {};
    const auto json = QJsonDocument::fromJson(line.mid(kCaptureProgressPrefix.size()).toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !json.isObject())
        return std::nullopt;
    const QJsonObject object = json.object();
    const auto kind = kindOf(object.value(QLatin1StringView("event")).toString());
    if (!kind)
        return std::nullopt;
    CaptureEvent event;
    event.kind = *kind;
    event.pid = integer(object, QLatin1StringView("pid"));
    event.output = object.value(QLatin1StringView("output")).toString();
    event.seconds = object.value(QLatin1StringView("seconds")).toDouble();
    event.parts = integer(object, QLatin1StringView("parts"));
    event.kernels = integer(object, QLatin1StringView("kernels"));
    event.status = object.value(QLatin1StringView("status")).toString();
    event.exitCode = static_cast<int>(integer(object, QLatin1StringView("exit_code")));
    event.memops = integer(object, QLatin1StringView("memops"));
    event.message = object.value(QLatin1StringView("message")).toString();
    return event;
}

} // namespace ridgeline::ui
