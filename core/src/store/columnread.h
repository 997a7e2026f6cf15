// SPDX-License-Identifier: MIT
// Reading a result row's columns 0, 1, ... into a record's fields in order, each as its field's type
// (the reader's counterpart of bindAll() in statementbind.h).
#pragma once

#include "ridgeline/core/store/sqlite.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ridgeline::core::detail {

inline void readColumn(const sqlite::Statement& s, int col, std::int64_t& field)
{
    field = s.columnInt(col);
}

inline void readColumn(const sqlite::Statement& s, int col, int& field)
{
    field = static_cast<int>(s.columnInt(col));
}

inline void readColumn(const sqlite::Statement& s, int col, std::uint32_t& field)
{
    field = static_cast<std::uint32_t>(s.columnInt(col));
}

inline void readColumn(const sqlite::Statement& s, int col, double& field)
{
    field = s.columnDouble(col);
}

inline void readColumn(const sqlite::Statement& s, int col, std::string& field)
{
    field = s.columnText(col);
}

inline void readColumn(const sqlite::Statement& s, int col, std::optional<std::int64_t>& field)
{
    field = s.columnOptionalInt(col);
}

inline void readColumn(const sqlite::Statement& s, int col, std::optional<int>& field)
{
    const auto value = s.columnOptionalInt(col);
    field = value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
}

// Reads columns 0, 1, ... into `fields` in the order given.
template <typename... Fields> void readAll(const sqlite::Statement& s, Fields&... fields)
{
    int col = 0;
    (readColumn(s, col++, fields), ...);
}

} // namespace ridgeline::core::detail
