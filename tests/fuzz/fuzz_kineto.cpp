// SPDX-License-Identifier: MIT
// libFuzzer target: the Kineto trace reader (gzip detection and inflation, simdjson On-Demand
// parsing, event mapping) on arbitrary bytes. Nothing is written.
#include "ridgeline/collectors/importers/kinetoimporter.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto parsed = ridgeline::collectors::parseKinetoBytes("fuzz-input", bytes);
    // An error is a fine outcome; a crash, a leak or undefined behaviour is not.
    (void)parsed.ok();
    return 0;
}
