// SPDX-License-Identifier: MIT
// libFuzzer target: the Nsight Compute report reader (.ncu-rep framing, protobuf messages,
// string tables, metric conversion and derived counts). It parses from memory, as
// readReport() does after reading the file.
#include "ncu/ncurepinternal.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace ridgeline::collectors::ncu;
    ParsedProfile profile;
    auto parsed = parseReport(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.ncu-rep", profile);
    (void)parsed.ok();
    return 0;
}
