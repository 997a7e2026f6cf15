// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/partfiles.h"

#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sqlite.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>

namespace ridgeline::collectors {

namespace fs = std::filesystem;

std::vector<std::string> listPartFiles(const std::string& dir)
{
    std::vector<std::string> parts;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.size() > std::string_view(kPartSuffix).size() && name.ends_with(kPartSuffix)
            && it->is_regular_file(ec))
            parts.push_back(it->path().string());
    }
    std::sort(parts.begin(), parts.end());
    return parts;
}

core::Result<std::string> recoverPart(const std::string& part, const std::string& intoDir)
{
    const std::string copy = (fs::path(intoDir) / fs::path(part).filename()).string();
    std::error_code ec;
    for (const char* suffix : { "", "-wal", "-journal", "-shm" })
        fs::remove(copy + suffix, ec);
    for (const char* suffix : { "", "-wal", "-journal" }) {
        const std::string from = part + suffix;
        if (*suffix != '\0' && !fs::exists(from, ec))
            continue;
        if (!fs::copy_file(from, copy + suffix, fs::copy_options::overwrite_existing, ec))
            return core::makeError(
                core::ErrorCode::Io, fmt::format("cannot copy part file {} to {}: {}", from, intoDir, ec.message()));
    }
    // Opening for writing replays the log (or rolls back a hot journal); the checkpoint then moves
    // every committed page into the file and DELETE mode leaves no -wal behind.
    auto db = core::sqlite::Database::open(copy, core::sqlite::Database::Mode::ReadWrite);
    if (db.hasError())
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: {}", part, db.error().message));
    for (const char* sql : { "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA journal_mode=DELETE" }) {
        if (auto done = db.value().exec(sql); done.hasError())
            return core::makeError(core::ErrorCode::BadFile,
                fmt::format("{}: cannot recover the part file ({})", part, done.error().message));
    }
    db.value().close();
    return copy;
}

core::Result<PartSummary> summarizePart(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    if (reader.hasError())
        return reader.error();
    auto counts = reader.value().counts();
    if (counts.hasError())
        return counts.error();
    auto meta = reader.value().meta();
    if (meta.hasError())
        return meta.error();
    PartSummary summary;
    summary.kernels = counts.value().kernels;
    summary.memops = counts.value().memcpys + counts.value().memsets;
    for (const auto& [key, value] : meta.value()) {
        if (key.starts_with("capture."))
            summary.meta[key] = value;
    }
    if (auto it = meta.value().find(core::metakey::Status); it != meta.value().end())
        summary.complete = it->second == "complete";
    if (auto it = summary.meta.find("capture.dropped_records"); it != summary.meta.end()) {
        const auto& text = it->second;
        std::int64_t dropped = 0;
        if (std::from_chars(text.data(), text.data() + text.size(), dropped).ec == std::errc())
            summary.droppedRecords = dropped;
    }
    return summary;
}

} // namespace ridgeline::collectors
