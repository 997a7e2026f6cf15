// SPDX-License-Identifier: MIT
// libFuzzer target: the Nsight Compute CSV importer (gzip, libcsv tokenising, raw and details
// pages, units, the synthetic timeline, metric rows, verdicts) on arbitrary bytes, into an
// in-memory session (fuzzsupport.h: one input in eight is read back and must check sound).
// Nothing is written to disk.
#include "fuzzsupport.h"
#include "ncu/ncucsvinternal.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace ridgeline::collectors::ncu;
    auto csv = readCsvBytes(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    if (csv.hasError())
        return 0;
    const ColumnIndex columns(csv.value().header.fields);
    auto profile = columns.isDetailsPage() ? readDetailsPage(csv.value()) : readRawPage(csv.value());
    if (profile.hasError())
        return 0;
    auto& writer = ridgeline::fuzz::memoryWriter();
    if (writeProfile(writer, csv.value(), std::move(profile).value()).ok())
        ridgeline::fuzz::finishSession(writer, std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
