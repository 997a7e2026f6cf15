// SPDX-License-Identifier: MIT
// libFuzzer target: the Nsight Compute report importer (.ncu-rep framing, protobuf messages,
// string tables, metric conversion, derived counts, then the session as the CSV import writes it)
// on arbitrary bytes, into an in-memory session (fuzzsupport.h: one input in eight is read back
// and must check sound).
#include "fuzzsupport.h"
#include "ncu/ncurepinternal.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace ridgeline::collectors::ncu;
    ParsedProfile profile; // as importNcuRep sets it up
    profile.source = "import:ncu-rep";
    profile.page = "report";
    profile.hasLaunchDims = true;
    auto parsed = parseReport(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.ncu-rep", profile);
    if (parsed.hasError())
        return 0;
    CsvFile origin;
    origin.path = "fuzz.ncu-rep";
    auto& writer = ridgeline::fuzz::memoryWriter();
    if (writeProfile(writer, origin, std::move(profile)).ok())
        ridgeline::fuzz::finishSession(writer, std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
