// SPDX-License-Identifier: MIT
// libFuzzer target: a session file (.ridge) as someone might send it. The input is opened as
// SessionReader::open opens a file (header checks, read-only hardened SQLite, schema validation,
// migration of v1/v2 files) but from memory (sqlite3_deserialize), then read the ways the CLI and
// the app read a session (sessionreads.h). Inputs are mutated as databases (sqlitemutator.cpp): rows
// and values, and bytes too, so that the file format itself is fuzzed; fuzz_session_rows reads the
// same way ten times faster by editing rows of open sessions.
#include "sessionreads.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto reader = ridgeline::core::SessionReader::openImage(bytes, "fuzz.ridge");
    // Refused at the door is a fine outcome; a crash, a hang, a leak or undefined behaviour is not.
    if (reader.ok())
        ridgeline::fuzz::readSession(reader.value(), bytes);
    return 0;
}
