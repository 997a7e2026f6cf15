// SPDX-License-Identifier: MIT
// Time arithmetic on values read from files: a hostile session or trace may hold any 64-bit time,
// so differences saturate at the int64 range instead of overflowing (undefined behaviour).
#pragma once

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

} // namespace ridgeline::core
