// SPDX-License-Identifier: MIT
#include "inputsource.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <vector>
#include <zlib.h>

namespace ridgeline::collectors {

namespace {

core::Error badFile(std::string_view name, const std::string& what)
{
    return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: {}", name, what));
}

bool isGzipMagic(const unsigned char* bytes, std::size_t size)
{
    return size >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B;
}

// Where compressed (or plain) bytes come from: a file read in blocks, or memory.
class RawInput {
public:
    virtual ~RawInput() = default;
    // Up to `room` bytes; 0 at the end.
    virtual core::Result<std::size_t> read(unsigned char* out, std::size_t room) = 0;
    virtual double fraction() const = 0;
    // The whole input's size when known, else -1.
    virtual std::int64_t size() const = 0;
};

class FileInput final : public RawInput {
public:
    FileInput(std::string path, std::FILE* file, std::int64_t size)
        : m_path(std::move(path))
        , m_file(file, std::fclose)
        , m_size(size)
    { }
    core::Result<std::size_t> read(unsigned char* out, std::size_t room) override
    {
        const std::size_t n = std::fread(out, 1, room, m_file.get());
        if (n < room && std::ferror(m_file.get()))
            return core::makeError(core::ErrorCode::Io, fmt::format("{}: cannot be read", m_path));
        m_consumed += static_cast<std::int64_t>(n);
        return n;
    }
    double fraction() const override
    {
        return m_size > 0 ? std::min(1.0, static_cast<double>(m_consumed) / static_cast<double>(m_size)) : 1.0;
    }
    std::int64_t size() const override { return m_size; }

private:
    std::string m_path;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> m_file;
    std::int64_t m_size;
    std::int64_t m_consumed = 0;
};

class MemoryInput final : public RawInput {
public:
    explicit MemoryInput(std::string_view bytes)
        : m_bytes(bytes)
    { }
    core::Result<std::size_t> read(unsigned char* out, std::size_t room) override
    {
        const std::size_t n = std::min(room, m_bytes.size() - m_at);
        std::memcpy(out, m_bytes.data() + m_at, n);
        m_at += n;
        return n;
    }
    double fraction() const override
    {
        return m_bytes.empty() ? 1.0 : static_cast<double>(m_at) / static_cast<double>(m_bytes.size());
    }
    std::int64_t size() const override { return static_cast<std::int64_t>(m_bytes.size()); }

private:
    std::string_view m_bytes;
    std::size_t m_at = 0;
};

// The bytes already peeked at (to tell gzip from plain text), then the rest of the input.
class PeekedInput final : public RawInput {
public:
    PeekedInput(std::unique_ptr<RawInput> input, std::string peeked)
        : m_input(std::move(input))
        , m_peeked(std::move(peeked))
    { }
    core::Result<std::size_t> read(unsigned char* out, std::size_t room) override
    {
        std::size_t n = 0;
        if (m_peekedAt < m_peeked.size()) {
            n = std::min(room, m_peeked.size() - m_peekedAt);
            std::memcpy(out, m_peeked.data() + m_peekedAt, n);
            m_peekedAt += n;
            if (n == room)
                return n;
        }
        auto more = m_input->read(out + n, room - n);
        if (more.hasError())
            return more.error();
        return n + more.value();
    }
    double fraction() const override { return m_input->fraction(); }
    std::int64_t size() const override { return m_input->size(); }

private:
    std::unique_ptr<RawInput> m_input;
    std::string m_peeked;
    std::size_t m_peekedAt = 0;
};

// Bytes as they are.
class PlainSource final : public InputSource {
public:
    PlainSource(std::string name, std::unique_ptr<RawInput> input)
        : InputSource(std::move(name))
        , m_input(std::move(input))
    { }
    core::Result<std::size_t> read(char* out, std::size_t room) override
    {
        return m_input->read(reinterpret_cast<unsigned char*>(out), room);
    }
    double fractionRead() const override { return m_input->fraction(); }
    std::int64_t textSize() const override { return m_input->size(); }

private:
    std::unique_ptr<RawInput> m_input;
};

// gzip inflated as it is read. Concatenated members form one text; trailing zeros are padding.
class GzipSource final : public InputSource {
public:
    GzipSource(std::string name, std::unique_ptr<RawInput> input)
        : InputSource(std::move(name))
        , m_input(std::move(input))
        , m_in(inputBlock(m_input->size()))
    {
        m_stream.next_in = m_in.data();
        m_ok = inflateInit2(&m_stream, 15 + 16) == Z_OK;
    }
    ~GzipSource() override
    {
        if (m_ok)
            inflateEnd(&m_stream);
    }
    GzipSource(const GzipSource&) = delete;
    GzipSource& operator=(const GzipSource&) = delete;

    core::Result<std::size_t> read(char* out, std::size_t room) override
    {
        if (!m_ok)
            return core::makeError(core::ErrorCode::Internal, fmt::format("{}: zlib could not start", name()));
        room = std::min<std::size_t>(room, 1u << 30);
        m_stream.next_out = reinterpret_cast<Bytef*>(out);
        m_stream.avail_out = static_cast<uInt>(room);
        while (m_stream.avail_out > 0 && !m_ended) {
            if (m_stream.avail_in == 0) {
                RIDGELINE_TRY(refill());
                if (m_stream.avail_in == 0) {
                    if (m_betweenMembers) {
                        m_ended = true;
                        break;
                    }
                    return badFile(
                        name(), fmt::format("truncated gzip data (the stream ends at compressed byte {})", m_consumed));
                }
            }
            if (m_betweenMembers) {
                RIDGELINE_TRY(startNextMember());
                continue;
            }
            const uInt before = m_stream.avail_in;
            const int rc = inflate(&m_stream, Z_NO_FLUSH);
            m_consumed += before - m_stream.avail_in;
            if (rc == Z_STREAM_END) {
                m_betweenMembers = true;
                continue;
            }
            if (rc != Z_OK && rc != Z_BUF_ERROR)
                return badFile(name(),
                    fmt::format("corrupt gzip data near compressed byte {}: {}", m_consumed,
                        m_stream.msg != nullptr ? m_stream.msg : zError(rc)));
        }
        return room - m_stream.avail_out;
    }
    double fractionRead() const override { return m_input->fraction(); }

private:
    // 1 MiB blocks of compressed input, or the whole input when it is smaller.
    static std::size_t inputBlock(std::int64_t size)
    {
        constexpr std::size_t kBlock = 1u << 20;
        return size > 0 ? std::min(kBlock, static_cast<std::size_t>(size) + 1) : kBlock;
    }

    core::Status refill()
    {
        auto n = m_input->read(m_in.data(), m_in.size());
        if (n.hasError())
            return n.error();
        m_stream.next_in = m_in.data();
        m_stream.avail_in = static_cast<uInt>(n.value());
        return {};
    }

    // After a member's end: zeros up to the end are padding; anything else must be another member.
    core::Status startNextMember()
    {
        while (m_stream.avail_in > 0 && *m_stream.next_in == 0) {
            ++m_stream.next_in;
            --m_stream.avail_in;
            ++m_consumed;
        }
        if (m_stream.avail_in == 0)
            return {}; // more zeros, or the end: decided by the caller's next refill
        if (m_stream.avail_in < 2) {
            // Keep the byte and read on, so the magic can be checked whole.
            const unsigned char first = *m_stream.next_in;
            m_in[0] = first;
            auto n = m_input->read(m_in.data() + 1, m_in.size() - 1);
            if (n.hasError())
                return n.error();
            m_stream.next_in = m_in.data();
            m_stream.avail_in = static_cast<uInt>(1 + n.value());
        }
        if (!isGzipMagic(m_stream.next_in, m_stream.avail_in))
            return badFile(
                name(), fmt::format("unexpected data after the gzip stream at compressed byte {}", m_consumed));
        inflateReset(&m_stream);
        m_betweenMembers = false;
        return {};
    }

    std::unique_ptr<RawInput> m_input;
    std::vector<unsigned char> m_in;
    z_stream m_stream {};
    bool m_ok = false;
    bool m_betweenMembers = false;
    bool m_ended = false;
    std::size_t m_consumed = 0;
};

core::Result<std::unique_ptr<InputSource>> sourceOf(std::string name, std::unique_ptr<RawInput> input)
{
    unsigned char magic[2] = { 0, 0 };
    std::size_t got = 0;
    while (got < 2) {
        auto n = input->read(magic + got, 2 - got);
        if (n.hasError())
            return n.error();
        if (n.value() == 0)
            break;
        got += n.value();
    }
    // The sources read from the first byte: the bytes peeked at are given back first.
    const bool gzip = isGzipMagic(magic, got);
    auto whole
        = std::make_unique<PeekedInput>(std::move(input), std::string(reinterpret_cast<const char*>(magic), got));
    if (gzip)
        return std::unique_ptr<InputSource>(new GzipSource(std::move(name), std::move(whole)));
    return std::unique_ptr<InputSource>(new PlainSource(std::move(name), std::move(whole)));
}

} // namespace

core::Result<std::unique_ptr<InputSource>> InputSource::openFile(const std::string& path)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr)
        return core::makeError(core::ErrorCode::NotFound, fmt::format("{}: cannot be opened", path));
    std::int64_t size = -1;
    if (std::fseek(file, 0, SEEK_END) == 0) {
        size = std::ftell(file);
        std::rewind(file);
    }
    auto source = sourceOf(path, std::make_unique<FileInput>(path, file, size));
    if (source.hasError() || dynamic_cast<GzipSource*>(source.value().get()) == nullptr)
        return source;
    return readAhead(std::move(source).value());
}

std::unique_ptr<InputSource> InputSource::fromBytes(std::string_view name, std::string_view bytes)
{
    // Reading memory cannot fail.
    return std::move(sourceOf(std::string(name), std::make_unique<MemoryInput>(bytes))).value();
}

} // namespace ridgeline::collectors
