// SPDX-License-Identifier: MIT
#include "crashlog.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace ridgeline::inject {

namespace {

constexpr std::uint32_t kRecordTag = 'R';
constexpr std::uint32_t kSignalTag = 'S';
constexpr std::uint32_t kStringTag = 'T';

// Offsets of the string pointers in the CUDA 13 record structs the translator reads.
struct StringField {
    CUpti_ActivityKind kind;
    std::uint32_t offset;
    std::uint32_t recordSize; // the record must be at least this large
};
constexpr StringField kStringFields[] = {
    { CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, offsetof(CUpti_ActivityKernel10, name), sizeof(CUpti_ActivityKernel10) },
    { CUPTI_ACTIVITY_KIND_KERNEL, offsetof(CUpti_ActivityKernel10, name), sizeof(CUpti_ActivityKernel10) },
    { CUPTI_ACTIVITY_KIND_MARKER, offsetof(CUpti_ActivityMarker2, name), sizeof(CUpti_ActivityMarker2) },
    { CUPTI_ACTIVITY_KIND_MARKER, offsetof(CUpti_ActivityMarker2, domain), sizeof(CUpti_ActivityMarker2) },
    { CUPTI_ACTIVITY_KIND_DEVICE, offsetof(CUpti_ActivityDevice5, name), sizeof(CUpti_ActivityDevice5) },
    { CUPTI_ACTIVITY_KIND_NAME, offsetof(CUpti_ActivityName, name), sizeof(CUpti_ActivityName) },
};

// write(2) until done or failed; EINTR retried. Async-signal-safe.
bool writeAll(int fd, const void* data, std::size_t size) noexcept
{
    const auto* p = static_cast<const std::uint8_t*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool writeFrame(int fd, std::uint32_t tag, const void* data, std::uint32_t size) noexcept
{
    if (fd < 0)
        return false;
    const std::uint32_t header[2] = { tag, size };
    return writeAll(fd, header, sizeof header) && writeAll(fd, data, size);
}

} // namespace

std::string crashFilePath(const std::string& partDir, const std::string& host, long pid)
{
    return fmt::format("{}/{}-{}{}", partDir, host, pid, kCrashSuffix);
}

int openCrashFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_APPEND, 0644);
    if (fd < 0)
        return -1;
    if (!writeAll(fd, kCrashMagic, sizeof kCrashMagic)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool crashWriteRecord(int fd, const CUpti_Activity* record, std::uint32_t size) noexcept
{
    if (!writeFrame(fd, kRecordTag, record, size))
        return false;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(record);
    for (const auto& field : kStringFields) {
        if (field.kind != record->kind || size < field.recordSize)
            continue;
        const char* text = nullptr;
        std::memcpy(&text, bytes + field.offset, sizeof text);
        if (text == nullptr)
            continue;
        const std::size_t length = std::strlen(text) + 1;
        const std::uint32_t header[3]
            = { kStringTag, static_cast<std::uint32_t>(sizeof(std::uint32_t) + length), field.offset };
        if (!writeAll(fd, header, sizeof header) || !writeAll(fd, text, length))
            return false;
    }
    return true;
}

bool crashWriteSignal(int fd, int signal) noexcept
{
    return writeFrame(fd, kSignalTag, &signal, sizeof signal);
}

core::Result<CrashContents> readCrashFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::makeError(core::ErrorCode::Io, fmt::format("cannot read {}", path));
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < sizeof kCrashMagic || std::memcmp(bytes.data(), kCrashMagic, sizeof kCrashMagic) != 0)
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{} is not a Ridgeline crash file", path));
    CrashContents out;
    std::size_t at = sizeof kCrashMagic;
    while (at < bytes.size()) {
        std::uint32_t header[2] = {};
        if (bytes.size() - at < sizeof header) {
            out.truncated = true;
            break;
        }
        std::memcpy(header, bytes.data() + at, sizeof header);
        at += sizeof header;
        if (bytes.size() - at < header[1]) {
            out.truncated = true;
            break;
        }
        if (header[0] == kRecordTag) {
            std::vector<std::uint64_t> storage((header[1] + 7) / 8 + 1, 0);
            std::memcpy(storage.data(), bytes.data() + at, header[1]);
            // Pointers into the dead process are cleared; the 'T' frames that follow restore them.
            auto* record = reinterpret_cast<std::uint8_t*>(storage.data());
            CUpti_ActivityKind kind {};
            if (header[1] >= sizeof kind)
                std::memcpy(&kind, record, sizeof kind);
            for (const auto& field : kStringFields) {
                if (field.kind == kind && header[1] >= field.recordSize)
                    std::memset(record + field.offset, 0, sizeof(const char*));
            }
            out.records.push_back(std::move(storage));
            out.sizes.push_back(header[1]);
            out.strings.emplace_back();
        } else if (header[0] == kStringTag && header[1] > sizeof(std::uint32_t) && !out.records.empty()) {
            std::uint32_t offset = 0;
            std::memcpy(&offset, bytes.data() + at, sizeof offset);
            const char* text = bytes.data() + at + sizeof offset;
            const std::size_t max = header[1] - sizeof offset;
            if (offset + sizeof(const char*) <= out.sizes.back())
                out.strings.back().emplace_back(offset, std::string(text, strnlen(text, max)));
        } else if (header[0] == kSignalTag && header[1] == sizeof(int)) {
            std::memcpy(&out.signal, bytes.data() + at, sizeof(int));
        }
        at += header[1];
    }
    return out;
}

} // namespace ridgeline::inject
