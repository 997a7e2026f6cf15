// SPDX-License-Identifier: MIT
// libFuzzer target: the Nsight Compute CSV reader (libcsv tokenising, raw and details pages).
// The reader takes a path, so each input goes through one temporary file per process.
#include "ncu/ncucsvinternal.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace ridgeline::collectors::ncu;
    static const std::string path = "/tmp/ridgeline-fuzz-ncu-" + std::to_string(getpid()) + ".csv";
    FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr)
        return 0;
    const bool written = std::fwrite(data, 1, size, file) == size;
    std::fclose(file);
    if (!written)
        return 0;
    auto csv = readCsvFile(path);
    if (csv.ok()) {
        const ColumnIndex columns(csv.value().header.fields);
        auto profile = columns.isDetailsPage() ? readDetailsPage(csv.value()) : readRawPage(csv.value());
        (void)profile.ok();
    }
    return 0;
}
