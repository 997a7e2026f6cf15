// SPDX-License-Identifier: MIT
#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core {

std::string formatDuration(double ns)
{
    const double magnitude = std::fabs(ns);
    if (magnitude < 1e3)
        return fmt::format("{:.0f} ns", ns);
    if (magnitude < 1e6)
        return fmt::format("{:.3f} µs", ns / 1e3);
    if (magnitude < 1e9)
        return fmt::format("{:.3f} ms", ns / 1e6);
    return fmt::format("{:.3f} s", ns / 1e9);
}

std::string formatCount(std::int64_t value)
{
    const auto raw = static_cast<unsigned long long>(value);
    const std::string digits = std::to_string(value < 0 ? 0ULL - raw : raw);
    std::string out;
    const std::size_t n = digits.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && (n - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

std::string formatRate(double value, const char* unit)
{
    static constexpr std::array<std::pair<double, const char*>, 5> kPrefixes { { { 1e15, "P" }, { 1e12, "T" },
        { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } } };
    for (const auto& [scale, prefix] : kPrefixes) {
        if (std::fabs(value) >= scale)
            return fmt::format("{:.3g} {}{}", value / scale, prefix, unit);
    }
    return fmt::format("{:.3g} {}", value, unit);
}

std::string formatBytes(double bytes)
{
    static constexpr std::array<const char*, 6> kUnits { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
    std::size_t unit = 0;
    while (std::fabs(bytes) >= 1024.0 && unit + 1 < kUnits.size()) {
        bytes /= 1024.0;
        ++unit;
    }
    return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, kUnits[unit]);
}

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

namespace {

bool continuationByte(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

} // namespace

std::size_t textColumns(std::string_view utf8)
{
    return static_cast<std::size_t>(
        std::count_if(utf8.begin(), utf8.end(), [](char c) { return !continuationByte(c); }));
}

std::string fitColumns(std::string_view utf8, std::size_t columns)
{
    if (textColumns(utf8) <= columns)
        return std::string(utf8);
    if (columns == 0)
        return {};
    // Keep columns - 1 code points, then the ellipsis.
    std::size_t kept = 0;
    std::size_t end = 0;
    while (end < utf8.size()) {
        if (!continuationByte(utf8[end]) && kept++ == columns - 1)
            break;
        ++end;
    }
    return std::string(utf8.substr(0, end)) + "…";
}

} // namespace ridgeline::core
