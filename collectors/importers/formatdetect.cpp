// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/formatdetect.h"

#include "ridgeline/core/sessionformat.h"

#include <cstdint>
#include <fmt/format.h>
#include <fstream>

namespace ridgeline::collectors {

namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

std::string_view skipBlank(std::string_view text)
{
    if (startsWith(text, "\xEF\xBB\xBF")) // UTF-8 byte-order mark
        text.remove_prefix(3);
    while (
        !text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r' || text.front() == '\n'))
        text.remove_prefix(1);
    return text;
}

std::int32_t applicationId(std::string_view head)
{
    std::uint32_t value = 0;
    for (std::size_t i = 68; i < 72; ++i)
        value = (value << 8) | static_cast<unsigned char>(head[i]);
    return static_cast<std::int32_t>(value);
}

} // namespace

const char* toString(FileFormat format)
{
    switch (format) {
    case FileFormat::RidgelineSession:
        return "Ridgeline session";
    case FileFormat::NsightSystemsSqlite:
        return "Nsight Systems SQLite export";
    case FileFormat::OtherSqlite:
        return "SQLite database";
    case FileFormat::KinetoJson:
        return "PyTorch profiler (Kineto) JSON trace";
    case FileFormat::GzipJson:
        return "gzip-compressed file";
    case FileFormat::NsightComputeCsv:
        return "Nsight Compute CSV";
    case FileFormat::NsightComputeReport:
        return "Nsight Compute report";
    case FileFormat::Unknown:
        break;
    }
    return "unknown format";
}

FileFormat detectFormat(std::string_view head)
{
    static constexpr std::string_view kSqliteMagic { "SQLite format 3\0", 16 };
    if (startsWith(head, kSqliteMagic)) {
        if (head.size() >= 100 && applicationId(head) == core::kApplicationId)
            return FileFormat::RidgelineSession;
        // nsys exports create these tables first; their names appear in the schema page.
        if (head.find("TARGET_INFO") != std::string_view::npos || head.find("StringIds") != std::string_view::npos
            || head.find("CUPTI_ACTIVITY_KIND") != std::string_view::npos)
            return FileFormat::NsightSystemsSqlite;
        return FileFormat::OtherSqlite;
    }
    if (startsWith(head, std::string_view("NVR\0", 4)))
        return FileFormat::NsightComputeReport;
    if (startsWith(head, "\x1F\x8B"))
        return FileFormat::GzipJson;
    std::string_view text = skipBlank(head);
    if (startsWith(text, "{") || startsWith(text, "["))
        return FileFormat::KinetoJson;
    if (startsWith(text, "==PROF==") || startsWith(text, "\"ID\",") || startsWith(text, "\"ID\""))
        return FileFormat::NsightComputeCsv;
    // ncu's CSV on stdout can follow the program's own output: look for its header or its messages.
    for (std::size_t end = text.find('\n'); end != std::string_view::npos; end = text.find('\n')) {
        text.remove_prefix(end + 1);
        if (startsWith(text, "==PROF==") || startsWith(text, "\"ID\",\"Process ID\""))
            return FileFormat::NsightComputeCsv;
    }
    return FileFormat::Unknown;
}

core::Result<FileFormat> detectFileFormat(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::makeError(core::ErrorCode::NotFound, fmt::format("{}: cannot be opened", path));
    std::string head(16384, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return detectFormat(head);
}

} // namespace ridgeline::collectors
