// SPDX-License-Identifier: MIT
// The records of an Nsight Compute CSV file, tokenised by libcsv (strict RFC 4180 mode). The
// file is fed to libcsv one physical line at a time so that every record and every error
// carries the line it starts on; a quoted field may still span lines.
#include "common/inputsource.h"
#include "ncucsvinternal.h"

#include <csv.h>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <string_view>

namespace ridgeline::collectors::ncu {

namespace {

// libcsv's parser state between records (ROW_NOT_BEGUN in libcsv.c; the struct is public).
constexpr int kRowNotBegun = 0;

struct ParseState {
    std::vector<std::string> fields;
    std::vector<CsvRow> rows;
    int rowStartLine = 0;
    bool outOfMemory = false;
};

void onField(void* data, std::size_t length, void* user)
{
    auto* state = static_cast<ParseState*>(user);
    try {
        if (length == 0 || data == nullptr)
            state->fields.emplace_back();
        else
            state->fields.emplace_back(static_cast<const char*>(data), length);
    } catch (...) { // never unwind through libcsv's C frames
        state->outOfMemory = true;
    }
}

void onRecord(int, void* user)
{
    auto* state = static_cast<ParseState*>(user);
    try {
        state->rows.push_back(CsvRow { state->rowStartLine, std::move(state->fields) });
    } catch (...) {
        state->outOfMemory = true;
    }
    state->fields.clear();
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

std::string_view withoutLineEnd(std::string_view line)
{
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    return line;
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// "==PROF==", "==WARNING==", "==ERROR==": Nsight Compute's own messages.
bool isProfilerMessage(std::string_view line)
{
    if (!startsWith(line, "=="))
        return false;
    std::size_t i = 2;
    while (i < line.size() && line[i] >= 'A' && line[i] <= 'Z')
        ++i;
    return i > 2 && line.substr(i, 2) == "==";
}

bool isHeaderLine(std::string_view line)
{
    line = withoutLineEnd(line);
    return line == "\"ID\"" || startsWith(line, "\"ID\",") || startsWith(line, "ID,");
}

struct ParserDeleter {
    void operator()(csv_parser* parser) const
    {
        csv_free(parser);
        delete parser;
    }
};

// The records of the CSV text `source` reads (plain or inflated).
core::Result<CsvFile> readCsv(InputSource& source, const std::string& path)
{
    // 64 KiB at a time: the string's capacity grows by doubling anyway, and a small file then
    // costs no megabyte cleared (the fuzz target reads thousands per second). Plain text of a known
    // size is read in one piece, then a small read finds its end.
    constexpr std::size_t kStep = 64u << 10;
    constexpr std::size_t kProbe = 4u << 10;
    const std::int64_t known = source.textSize();
    std::size_t step = known >= 0 ? static_cast<std::size_t>(known) + 1 : kStep;
    std::string bytes;
    for (;;) {
        const std::size_t at = bytes.size();
        bytes.resize(at + step);
        auto n = source.read(bytes.data() + at, step);
        if (n.hasError())
            return n.error();
        bytes.resize(at + n.value());
        if (n.value() == 0)
            break;
        step = known >= 0 ? kProbe : kStep;
    }
    if (isBlank(bytes))
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: the file is empty", path));

    auto parser = std::unique_ptr<csv_parser, ParserDeleter>(new csv_parser {});
    if (csv_init(parser.get(), CSV_STRICT | CSV_STRICT_FINI) != 0)
        return core::makeError(core::ErrorCode::Internal, "cannot initialise the CSV parser");

    CsvFile file;
    file.path = path;
    ParseState state;
    bool headerSeen = false;
    int line = 0;
    std::string_view rest(bytes);
    if (startsWith(rest, "\xEF\xBB\xBF")) // UTF-8 byte-order mark
        rest.remove_prefix(3);
    while (!rest.empty()) {
        ++line;
        const auto end = rest.find('\n');
        const auto text = rest.substr(0, end == std::string_view::npos ? rest.size() : end + 1);
        rest.remove_prefix(text.size());
        const bool betweenRecords = parser->pstate == kRowNotBegun && state.fields.empty();
        if (!headerSeen) {
            if (!isHeaderLine(text)) {
                // The preamble: profiler messages and whatever the program printed.
                if (startsWith(text, "==PROF==")) {
                    if (file.firstProfLine.empty())
                        file.firstProfLine = std::string(withoutLineEnd(text));
                    file.sawProfLines = true;
                }
                continue;
            }
            headerSeen = true;
        } else if (betweenRecords && (isBlank(text) || isProfilerMessage(text))) {
            continue;
        }
        if (betweenRecords)
            state.rowStartLine = line;
        const auto parsed = csv_parse(parser.get(), text.data(), text.size(), onField, onRecord, &state);
        if (state.outOfMemory || csv_error(parser.get()) == CSV_ENOMEM)
            return core::makeError(core::ErrorCode::Io, fmt::format("{}:{}: out of memory", path, line));
        if (parsed != text.size()) {
            if (state.rowStartLine == line)
                return badLine(
                    path, line, "malformed CSV (a quote inside an unquoted field, or text after a closing quote)");
            return badLine(path, state.rowStartLine,
                fmt::format(
                    "malformed CSV: the quoted field opened in this record is not closed before line {}", line));
        }
    }
    file.lastLine = line;
    if (!headerSeen) {
        if (file.sawProfLines)
            return core::makeError(
                core::ErrorCode::BadFile, fmt::format("{}: no kernels in this file (did ncu profile any?)", path));
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: not an Nsight Compute CSV file (no header row starting with \"ID\")", path));
    }
    if (csv_fini(parser.get(), onField, onRecord, &state) != 0 || state.outOfMemory)
        return badLine(path, state.rowStartLine, "unterminated quoted field (its closing quote is missing)");
    if (state.rows.empty())
        return core::makeError(core::ErrorCode::Internal, fmt::format("{}: the CSV parser lost the header", path));
    file.header = std::move(state.rows.front());
    state.rows.erase(state.rows.begin());
    file.rows = std::move(state.rows);
    return file;
}

} // namespace

core::Error badLine(const std::string& path, int line, const std::string& what)
{
    return core::makeError(core::ErrorCode::BadFile, fmt::format("{}:{}: {}", path, line, what));
}

core::Result<CsvFile> readCsvFile(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: is a directory, not a CSV file", path));
    // Plain or gzip-compressed (.csv.gz): the source inflates as it reads.
    auto source = InputSource::openFile(path);
    if (source.hasError())
        return core::makeError(core::ErrorCode::NotFound, fmt::format("{}: cannot be opened (no such file?)", path));
    return readCsv(*source.value(), path);
}

core::Result<CsvFile> readCsvBytes(std::string_view bytes, const std::string& path)
{
    return readCsv(*InputSource::fromBytes(path, bytes), path);
}

} // namespace ridgeline::collectors::ncu
