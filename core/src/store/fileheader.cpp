// SPDX-License-Identifier: MIT
#include "fileheader.h"

#include "ridgeline/core/store/sessionformat.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace ridgeline::core {

namespace {

constexpr std::size_t kHeaderSize = 100;

std::uint32_t readBigEndian(const unsigned char* p, int bytes)
{
    std::uint32_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value = (value << 8) | p[i];
    return value;
}

// The checks of the first bytes (`got` of them read) of a file of `size` bytes.
Result<FileHeader> checkHeader(
    const unsigned char* header, std::size_t got, std::uintmax_t size, bool hasWal, const std::string& path)
{
    static constexpr char kMagic[] = "SQLite format 3"; // 16 bytes with its NUL
    if (got < sizeof(kMagic) || std::memcmp(header, kMagic, sizeof(kMagic)) != 0)
        return makeError(ErrorCode::BadFile, fmt::format("{}: not a Ridgeline session (not an SQLite database)", path));
    if (got < kHeaderSize)
        return makeError(
            ErrorCode::BadFile, fmt::format("{}: truncated ({} bytes; even the header is incomplete)", path, size));

    const std::uint32_t rawPageSize = readBigEndian(&header[16], 2);
    const std::uint32_t pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
        return makeError(
            ErrorCode::BadFile, fmt::format("{}: corrupt SQLite header (page size {})", path, rawPageSize));

    const auto applicationId = static_cast<std::int32_t>(readBigEndian(&header[68], 4));
    if (applicationId != kApplicationId) {
        if (applicationId == 0)
            return makeError(ErrorCode::BadFile,
                fmt::format("{}: an SQLite database, but not a Ridgeline session (no Ridgeline application id)", path));
        return makeError(ErrorCode::BadFile,
            fmt::format(
                "{}: an SQLite database of another application (application_id 0x{:08X}), not a Ridgeline session",
                path, static_cast<std::uint32_t>(applicationId)));
    }

    FileHeader result;
    result.walMode = header[18] == 2 && header[19] == 2;
    result.schemaVersion = static_cast<int>(readBigEndian(&header[60], 4));
    if (result.schemaVersion > kSchemaVersion)
        return makeError(ErrorCode::NewerSchema,
            fmt::format("{}: written by a newer Ridgeline (session schema v{}; this version reads up to v{}). "
                        "Update Ridgeline to open it.",
                path, result.schemaVersion, kSchemaVersion));
    if (result.schemaVersion < 1)
        return makeError(
            ErrorCode::BadFile, fmt::format("{}: an unfinished Ridgeline session (no schema version)", path));

    // The page count in the header is valid when its change counter matches (offset 24 == 92).
    const std::uint32_t pageCount = readBigEndian(&header[28], 4);
    const bool countValid = readBigEndian(&header[24], 4) == readBigEndian(&header[92], 4);
    const auto expected = static_cast<std::uintmax_t>(pageCount) * pageSize;
    if (countValid && !hasWal && pageCount > 0 && size < expected)
        return makeError(ErrorCode::BadFile,
            fmt::format("{}: truncated (the file has {} bytes; its header says {})", path, size, expected));
    return result;
}

} // namespace

Result<FileHeader> inspectFileHeader(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        return makeError(ErrorCode::NotFound, fmt::format("{}: no such file", path));
    if (fs::is_directory(status))
        return makeError(ErrorCode::BadFile, fmt::format("{}: is a directory, not a session file", path));
    const auto size = fs::file_size(path, ec);
    if (ec)
        return makeError(ErrorCode::Io, fmt::format("{}: cannot read its size ({})", path, ec.message()));
    if (size == 0)
        return makeError(
            ErrorCode::BadFile, fmt::format("{}: the file is empty (0 bytes), not a Ridgeline session", path));

    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, fmt::format("{}: cannot be opened for reading", path));
    std::array<unsigned char, kHeaderSize> header {};
    in.read(reinterpret_cast<char*>(header.data()), kHeaderSize);
    const auto got = static_cast<std::size_t>(in.gcount());
    return checkHeader(header.data(), got, size, fs::exists(path + "-wal", ec), path);
}

Result<FileHeader> inspectImageHeader(std::string_view image, const std::string& name)
{
    if (image.empty())
        return makeError(
            ErrorCode::BadFile, fmt::format("{}: the file is empty (0 bytes), not a Ridgeline session", name));
    return checkHeader(reinterpret_cast<const unsigned char*>(image.data()), std::min(image.size(), kHeaderSize),
        image.size(), false, name);
}

} // namespace ridgeline::core
