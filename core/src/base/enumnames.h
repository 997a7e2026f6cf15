// SPDX-License-Identifier: MIT
// An enum's names as a table of (value, name) pairs: the name of a value, the value of a name.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace ridgeline::core::detail {

template <typename Enum, std::size_t N> using EnumNames = std::array<std::pair<Enum, const char*>, N>;

template <typename Enum, std::size_t N> const char* nameOf(const EnumNames<Enum, N>& table, Enum value)
{
    for (const auto& [key, name] : table) {
        if (key == value)
            return name;
    }
    return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const EnumNames<Enum, N>& table, std::string_view text)
{
    for (const auto& [key, name] : table) {
        if (text == name)
            return key;
    }
    return std::nullopt;
}

} // namespace ridgeline::core::detail
