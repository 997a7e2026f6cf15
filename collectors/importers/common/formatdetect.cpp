// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/importers/formatdetect.h"

#include "common/inputsource.h"
#include "common/sqlitetables.h"
#include "ridgeline/core/store/sessionformat.h"

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

// "==PROF==", "==WARNING==", "==ERROR==" at the start of a line: Nsight Compute's own messages.
bool isProfilerMessage(std::string_view line)
{
    return startsWith(line, "==PROF==") || startsWith(line, "==WARNING==") || startsWith(line, "==ERROR==");
}

// The header row of every ncu CSV page, quoted or not (files saved again by spreadsheets and
// scripts lose the quotes): `ID` then `Process ID` (the layout of every ncu version), or a
// lone `ID` column.
bool isNcuHeader(std::string_view line)
{
    for (std::string_view id : { std::string_view("\"ID\""), std::string_view("ID") }) {
        if (!startsWith(line, id))
            continue;
        std::string_view rest = line.substr(id.size());
        if (startsWith(rest, ",\"Process ID\"") || startsWith(rest, ",Process ID,") || rest.empty()
            || startsWith(rest, "\r") || startsWith(rest, "\n"))
            return true;
    }
    return false;
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
    if (isProfilerMessage(text) || isNcuHeader(text))
        return FileFormat::NsightComputeCsv;
    // ncu's CSV on stdout can follow the program's own output: look for its header or its messages.
    for (std::size_t end = text.find('\n'); end != std::string_view::npos; end = text.find('\n')) {
        text.remove_prefix(end + 1);
        if (isProfilerMessage(text) || isNcuHeader(text))
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
    const FileFormat format = detectFormat(head);
    // An SQLite file that is not a session: its tables decide (nsys 2025.5 and later write the
    // schema after other pages, beyond the bytes read here).
    if (format == FileFormat::OtherSqlite)
        return sqliteFormatByTables(path);
    if (format != FileFormat::GzipJson)
        return format;
    // gzip: what is inside decides. A compressed ncu CSV goes to the CSV reader; anything else
    // (a Kineto trace, or garbage the JSON reader then names) stays with the gzip JSON path.
    auto source = InputSource::openFile(path);
    if (source.hasError())
        return format;
    std::string inner(16384, '\0');
    std::size_t got = 0;
    while (got < inner.size()) {
        auto n = source.value()->read(inner.data() + got, inner.size() - got);
        if (n.hasError() || n.value() == 0)
            break;
        got += n.value();
    }
    inner.resize(got);
    return detectFormat(inner) == FileFormat::NsightComputeCsv ? FileFormat::NsightComputeCsv : format;
}

} // namespace ridgeline::collectors
