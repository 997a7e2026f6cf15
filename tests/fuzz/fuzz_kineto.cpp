// SPDX-License-Identifier: MIT
// libFuzzer target: the Kineto importer (gzip detection and inflation, the streaming splitter,
// simdjson On-Demand parsing, event mapping, operator nesting, verdicts) on arbitrary bytes, into
// an in-memory session (fuzzsupport.h: one input in eight is read back and must check sound).
// Nothing is written to disk.
#include "fuzzsupport.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto& writer = ridgeline::fuzz::memoryWriter();
    // A 64 KiB window instead of the import's 16 MB: the same code (a window that slides, and
    // grows for a value bigger than it), without clearing 16 MB per input.
    auto imported = ridgeline::collectors::importKinetoBytes(writer, "fuzz.json", bytes, std::size_t { 64 } << 10);
    // An error is a fine outcome; a crash, a hang, a leak or undefined behaviour is not.
    if (imported.ok())
        ridgeline::fuzz::finishSession(writer, bytes);
    return 0;
}
