// SPDX-License-Identifier: MIT
// libFuzzer target: the Nsight Systems SQLite importer. The input is loaded as a database image
// (sqlite3_deserialize, read-only and hardened as a file would be), the export's schema is
// discovered and read, and the activity written into an in-memory session (fuzzsupport.h: one input
// in eight is read back and must check sound). Inputs are mutated as databases (sqlitemutator.cpp):
// rows and values, not bytes only.
#include "fuzzsupport.h"
#include "nsys/nsysinternal.h"
#include "ridgeline/core/store/sqlite.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace ridgeline;
    auto db = core::sqlite::Database::openImage(
        std::string_view(reinterpret_cast<const char*>(data), size), core::sqlite::Database::Mode::ReadOnly);
    if (db.hasError())
        return 0;
    auto activity = collectors::nsys::readExport(db.value());
    if (activity.hasError())
        return 0;
    auto& writer = fuzz::memoryWriter();
    if (collectors::nsys::writeActivity(writer, activity.value(), "fuzz.sqlite").ok())
        fuzz::finishSession(writer, std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
