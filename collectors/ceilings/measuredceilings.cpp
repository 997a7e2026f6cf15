// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/ceilings/measuredceilings.h"

#include "ridgeline/core/store/sessionamend.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace ridgeline::collectors {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

core::Error bad(const std::string& why)
{
    return core::makeError(core::ErrorCode::BadFile, "measured ceilings: " + why);
}

std::string gpuUuid(const std::string& canonical)
{
    return fmt::format("GPU-{}-{}-{}-{}-{}", canonical.substr(0, 8), canonical.substr(8, 4), canonical.substr(12, 4),
        canonical.substr(16, 4), canonical.substr(20));
}

} // namespace

core::Result<MeasuredCeilings> parseMeasuredCeilings(const std::string& text)
{
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return bad("not a JSON object");
    const auto device = doc.find("device");
    const auto ceilings = doc.find("ceilings");
    if (device == doc.end() || !device->is_object() || ceilings == doc.end() || !ceilings->is_array())
        return bad("needs a \"device\" object and a \"ceilings\" array");
    MeasuredCeilings out;
    const auto uuid = device->value("uuid", std::string {});
    const auto canonical = core::canonicalGpuUuid(uuid);
    if (canonical.empty())
        return bad(fmt::format("device uuid '{}' is not a GPU UUID", uuid));
    out.uuid = gpuUuid(canonical);
    out.name = device->value("name", std::string {});
    out.ordinal = device->value("ordinal", 0);
    out.measuredAt = doc.value("measured_at", std::string {});
    for (const auto& entry : *ceilings) {
        if (!entry.is_object() || !entry.contains("resource") || !entry.contains("value") || !entry["value"].is_number()
            || !entry["resource"].is_string())
            return bad("every ceiling needs a \"resource\" and a numeric \"value\"");
        core::Ceiling c;
        c.resource = entry["resource"].get<std::string>();
        c.value = entry["value"].get<double>();
        c.unit = entry.value("unit", std::string {});
        c.note = entry.value("note", std::string {});
        c.source = core::CeilingSource::Measured;
        if (c.unit != "FLOP/s" && c.unit != "B/s")
            return bad(fmt::format("{}: unit '{}' is neither FLOP/s nor B/s", c.resource, c.unit));
        if (!(c.value > 0))
            continue; // not measured on this GPU (e.g. no tensor cores of that type)
        out.ceilings.push_back(std::move(c));
    }
    out.json = text;
    return out;
}

std::string ceilingCacheDir()
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
        return (fs::path(xdg) / "ridgeline").string();
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
        return (fs::path(home) / ".cache" / "ridgeline").string();
    return (fs::temp_directory_path() / "ridgeline-cache").string();
}

std::string ceilingCachePath(const std::string& uuid)
{
    const auto canonical = core::canonicalGpuUuid(uuid);
    const std::string name = canonical.empty() ? uuid : gpuUuid(canonical);
    return (fs::path(ceilingCacheDir()) / fmt::format("ceilings-{}.json", name)).string();
}

core::Status storeMeasuredCeilings(const MeasuredCeilings& measured)
{
    std::error_code ec;
    fs::create_directories(ceilingCacheDir(), ec);
    if (ec)
        return core::makeError(core::ErrorCode::Io,
            fmt::format("cannot create the cache directory {}: {}", ceilingCacheDir(), ec.message()));
    const auto path = ceilingCachePath(measured.uuid);
    const auto temporary = fmt::format("{}.tmp-{}", path, getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << measured.json;
        if (!out.flush())
            return core::makeError(core::ErrorCode::Io, fmt::format("cannot write {}", temporary));
    }
    fs::rename(temporary, path, ec);
    if (ec) {
        fs::remove(temporary, ec);
        return core::makeError(core::ErrorCode::Io, fmt::format("cannot write {}: {}", path, ec.message()));
    }
    return {};
}

core::Result<std::optional<MeasuredCeilings>> loadMeasuredCeilings(const std::string& uuid)
{
    if (core::canonicalGpuUuid(uuid).empty())
        return std::optional<MeasuredCeilings> {};
    const auto path = ceilingCachePath(uuid);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::optional<MeasuredCeilings> {};
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = parseMeasuredCeilings(text.str());
    if (parsed.hasError())
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: {}", path, parsed.error().message));
    if (core::canonicalGpuUuid(parsed.value().uuid) != core::canonicalGpuUuid(uuid))
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: holds another GPU's ceilings", path));
    return std::optional<MeasuredCeilings>(std::move(parsed).value());
}

} // namespace ridgeline::collectors
