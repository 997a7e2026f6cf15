// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/progressprotocol.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

namespace ridgeline::core::progress {

namespace {

using nlohmann::json;

std::string line(json fields)
{
    // Invalid UTF-8 in a path or message is replaced, never thrown on.
    return std::string(kPrefix) + fields.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<Event::Kind> kindOf(const json& event)
{
    if (!event.is_string())
        return std::nullopt;
    const auto& name = event.get_ref<const std::string&>();
    if (name == "started")
        return Event::Kind::Started;
    if (name == "running")
        return Event::Kind::Running;
    if (name == "merging")
        return Event::Kind::Merging;
    if (name == "finished")
        return Event::Kind::Finished;
    if (name == "error")
        return Event::Kind::Error;
    return std::nullopt;
}

double number(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::int64_t integer(const json& object, const char* key)
{
    const double value = number(object, key);
    // Out-of-range numbers from a foreign line read as 0 rather than overflowing the conversion.
    return std::isfinite(value) && std::abs(value) < 9.2e18 ? static_cast<std::int64_t>(value) : 0;
}

std::string text(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

std::string started(std::int64_t pid, const std::string& output, const std::string& warning)
{
    json fields = { { "event", "started" }, { "pid", pid }, { "output", output } };
    if (!warning.empty())
        fields["warning"] = warning;
    return line(std::move(fields));
}

std::string running(double seconds, int parts, std::int64_t kernels)
{
    return line({ { "event", "running" }, { "seconds", std::round(seconds * 10) / 10 }, { "parts", parts },
        { "kernels", kernels } });
}

std::string merging(int parts)
{
    return line({ { "event", "merging" }, { "parts", parts } });
}

std::string finished(
    const std::string& status, const std::string& output, int exitCode, std::int64_t kernels, std::int64_t memops)
{
    return line({ { "event", "finished" }, { "status", status }, { "output", output }, { "exit_code", exitCode },
        { "kernels", kernels }, { "memops", memops } });
}

std::string error(const std::string& message)
{
    return line({ { "event", "error" }, { "message", message } });
}

std::optional<Event> parseLine(std::string_view line)
{
    if (line.ends_with('\r'))
        line.remove_suffix(1);
    if (!line.starts_with(kPrefix))
        return std::nullopt;
    const auto body = line.substr(kPrefix.size());
    const json object = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
    if (!object.is_object())
        return std::nullopt;
    const auto event = object.find("event");
    const auto kind = event == object.end() ? std::nullopt : kindOf(*event);
    if (!kind)
        return std::nullopt;
    Event e;
    e.kind = *kind;
    e.pid = integer(object, "pid");
    e.output = text(object, "output");
    e.warning = text(object, "warning");
    e.seconds = number(object, "seconds");
    e.parts = integer(object, "parts");
    e.kernels = integer(object, "kernels");
    e.status = text(object, "status");
    e.exitCode = static_cast<int>(std::clamp<std::int64_t>(
        integer(object, "exit_code"), std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
    e.memops = integer(object, "memops");
    e.message = text(object, "message");
    return e;
}

} // namespace ridgeline::core::progress
