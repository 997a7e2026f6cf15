// SPDX-License-Identifier: MIT
// Time arithmetic on values read from files: a hostile session or trace may hold any 64-bit time,
// so differences saturate at the int64 range instead of overflowing (undefined behaviour).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace ridgeline::core {

constexpr std::int64_t saturatingSub(std::int64_t a, std::int64_t b)
{
    std::int64_t out = 0;
    if (__builtin_sub_overflow(a, b, &out))
        return a > b ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return out;
}

constexpr std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out))
        return a > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return out;
}

// A time worked out in doubles (shares, rates) back to whole ns: rounded, clamped to the int64
// range (a hostile file's times can make it any size; converting a double past it is undefined),
// NaN as 0.
inline std::int64_t saturatingRound(double ns)
{
    if (std::isnan(ns))
        return 0;
    // 2^63 exactly: the first double past the int64 range.
    constexpr double kPastMax = 9223372036854775808.0;
    if (ns >= kPastMax)
        return std::numeric_limits<std::int64_t>::max();
    if (ns <= -kPastMax)
        return std::numeric_limits<std::int64_t>::min();
    return std::llround(ns);
}

} // namespace ridgeline::core
