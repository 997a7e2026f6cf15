// SPDX-License-Identifier: MIT
// Human-readable numbers for terminal output and tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ridgeline::core {

// 1234567 ns -> "1.235 ms"; picks ns, µs, ms or s.
std::string formatDuration(double ns);
// 1234567 -> "1,234,567"
std::string formatCount(std::int64_t value);
// 2.91e12, "B/s" -> "2.91 TB/s"; 4.51e13, "FLOP/s" -> "45.1 TFLOP/s" (SI prefixes, 3 digits)
std::string formatRate(double value, const char* unit);
// 1536 -> "1.5 KiB"
std::string formatBytes(double bytes);
// One CSV field, quoted per RFC 4180 when it needs to be.
std::string csvField(std::string_view text);
// Columns a UTF-8 text takes in a terminal (one per code point).
std::size_t textColumns(std::string_view utf8);
// The text cut to at most `columns` columns, ending in "…" when it was cut.
std::string fitColumns(std::string_view utf8, std::size_t columns);

} // namespace ridgeline::core
