// SPDX-License-Identifier: MIT
// Reads a Kineto trace into one buffer with simdjson's padding: gzip is inflated with zlib
// straight into that buffer (peak memory: the compressed file + the uncompressed text).
#include "kinetointernal.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <simdjson.h>
#include <zlib.h>

namespace ridgeline::collectors::kineto {

namespace {

constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;

core::Error badFile(std::string_view name, const std::string& what)
{
    return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: {}", name, what));
}

bool isGzip(std::string_view bytes)
{
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1F
        && static_cast<unsigned char>(bytes[1]) == 0x8B;
}

// The uncompressed size the gzip trailer states (mod 2^32), capped at what deflate can reach.
std::size_t sizeHint(std::string_view gz)
{
    std::size_t stated = 0;
    if (gz.size() >= 18) {
        for (std::size_t i = 0; i < 4; ++i)
            stated |= static_cast<std::size_t>(static_cast<unsigned char>(gz[gz.size() - 4 + i])) << (8 * i);
    }
    const std::size_t cap = gz.size() * 1032 + 65536;
    return std::max<std::size_t>(std::min(stated, cap), gz.size() * 4) + kPadding;
}

core::Result<std::string> inflateGzip(std::string_view name, std::string_view gz)
{
    z_stream stream {};
    if (inflateInit2(&stream, 15 + 16) != Z_OK)
        return core::makeError(core::ErrorCode::Internal, fmt::format("{}: zlib could not start", name));
    std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, inflateEnd);
    std::string out;
    out.resize(sizeHint(gz));
    std::size_t used = 0;
    std::size_t consumed = 0;
    while (true) {
        const std::size_t inChunk = std::min<std::size_t>(gz.size() - consumed, 1u << 30);
        const std::size_t outRoom = std::min<std::size_t>(out.size() - kPadding - used, 1u << 30);
        // zlib's interface takes non-const input; it never writes to it.
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data() + consumed));
        stream.avail_in = static_cast<uInt>(inChunk);
        stream.next_out = reinterpret_cast<Bytef*>(out.data() + used);
        stream.avail_out = static_cast<uInt>(outRoom);
        const int rc = inflate(&stream, Z_NO_FLUSH);
        consumed += inChunk - stream.avail_in;
        used += outRoom - stream.avail_out;
        if (rc == Z_STREAM_END) {
            // Concatenated gzip members form one file (gzip(1) semantics); trailing zeros are padding.
            const auto rest = gz.substr(consumed);
            if (rest.find_first_not_of('\0') == std::string_view::npos)
                break;
            if (!isGzip(rest))
                return badFile(
                    name, fmt::format("unexpected data after the gzip stream at compressed byte {}", consumed));
            inflateReset(&stream);
            continue;
        }
        if (rc == Z_BUF_ERROR && stream.avail_out != 0 && consumed == gz.size())
            return badFile(name, fmt::format("truncated gzip data (the stream ends at compressed byte {})", consumed));
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return badFile(name,
                fmt::format("corrupt gzip data near compressed byte {}: {}", consumed,
                    stream.msg != nullptr ? stream.msg : zError(rc)));
        if (out.size() - kPadding - used == 0)
            out.resize(out.size() * 2);
    }
    out.resize(used + kPadding);
    out.resize(used); // capacity keeps the padding
    return out;
}

} // namespace

core::Result<std::string> loadTraceBytes(std::string_view name, std::string_view bytes)
{
    if (isGzip(bytes))
        return inflateGzip(name, bytes);
    std::string text;
    text.reserve(bytes.size() + kPadding);
    text.assign(bytes);
    return text;
}

core::Result<std::string> readTraceFile(const std::string& path)
{
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!file)
        return core::makeError(core::ErrorCode::NotFound, fmt::format("{}: cannot be opened", path));
    unsigned char magic[2] = { 0, 0 };
    const std::size_t magicRead = std::fread(magic, 1, 2, file.get());
    const bool gzip = magicRead == 2 && magic[0] == 0x1F && magic[1] == 0x8B;
    std::fseek(file.get(), 0, SEEK_END);
    const long size = std::ftell(file.get());
    std::fseek(file.get(), 0, SEEK_SET);
    if (size < 0)
        return core::makeError(core::ErrorCode::Io, fmt::format("{}: cannot be read", path));
    // Plain JSON is read straight into the padded buffer; gzip is read whole and then inflated.
    std::string bytes;
    bytes.reserve(static_cast<std::size_t>(size) + kPadding);
    bytes.resize(static_cast<std::size_t>(size));
    if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size())
        return core::makeError(core::ErrorCode::Io, fmt::format("{}: cannot be read", path));
    if (gzip)
        return inflateGzip(path, bytes);
    return bytes;
}

} // namespace ridgeline::collectors::kineto
