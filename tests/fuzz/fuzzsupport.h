// SPDX-License-Identifier: MIT
// What the fuzz targets share: an in-memory session to import into, a stream that discards what
// reports write, and the check every import's output must pass.
#pragma once

#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::fuzz {

// Reports and exports are written in full (every value formatted), then dropped.
class NullBuffer : public std::streambuf {
protected:
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize count) override { return count; }
};

class NullStream : public std::ostream {
public:
    NullStream()
        : std::ostream(&m_buffer)
    { }

private:
    NullBuffer m_buffer;
};

[[noreturn]] inline void fail(const char* what, const std::string& message)
{
    std::fprintf(stderr, "%s: %s\n", what, message.c_str());
    std::abort();
}

// A session written in memory only (nothing touches the disk), emptied for each input: one per
// process, so that an input does not pay for a connection, its schema and its statements
// (SessionWriter::reset()).
inline core::SessionWriter& memoryWriter()
{
    static core::SessionWriter writer = [] {
        core::WriterOptions options;
        options.inMemory = true;
        // The indexes come with the empty session's copy, so finish() finds them made instead of
        // changing the schema eight times per input.
        options.indexesUpFront = true;
        auto created = core::SessionWriter::create("fuzz.ridge", options);
        if (created.hasError())
            fail("cannot create an in-memory session", created.error().message);
        return std::move(created).value();
    }();
    if (auto emptied = writer.reset(); emptied.hasError())
        fail("cannot empty the in-memory session", emptied.error().message);
    return writer;
}

// The bytes of each file of `dirs`, and of every file in each that is a directory (relative to the
// source tree unless absolute), sorted by path: the databases the row targets edit (rowedits.h).
// Aborts when there is none.
std::vector<std::string> baseImages(const std::vector<std::string>& dirs);

// Set by the replay program (replay.cpp): every input gets every check and reader, whatever its hash.
extern bool replaying;

// Finishes what an importer wrote (indexes, the file's bytes). For one input in eight (chosen by
// the input's hash, so that a run reproduces; every input when replaying) the session is then read back as a sent file
// would be, and must open and check sound: value warnings are allowed (an input may hold odd values, which an import
// keeps), damaged pages or an unreadable schema are not. Every input would make the importer targets three times
// slower; the session target reads sessions on every input.
inline void finishSession(core::SessionWriter& writer, std::string_view input)
{
    if (writer.finish(core::SessionStatus::Complete).hasError())
        return; // e.g. a value too large for the session: the import as a whole failed, cleanly
    if (!replaying && std::hash<std::string_view>()(input) % 8 != 0)
        return;
    auto image = writer.image();
    if (image.hasError())
        fail("a finished session has no image", image.error().message);
    auto reader = core::SessionReader::openImage(image.value(), "imported.ridge");
    if (reader.hasError())
        fail("an imported session does not open", reader.error().message);
    auto check = core::checkSession(reader.value());
    if (check.hasError())
        fail("an imported session cannot be checked", check.error().message);
    if (!check.value().problems.empty())
        fail("an imported session is damaged", check.value().problems.front());
}

} // namespace ridgeline::fuzz
