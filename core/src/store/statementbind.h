// SPDX-License-Identifier: MIT
// Binding a row's values to a statement's parameters ?1, ?2, ... in order, and the rows that the
// writer (sessionwriter*.cpp) and the amender (sessionamend.cpp) both insert.
#pragma once

#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sqlite.h"

#include <cstdint>

namespace ridgeline::core::detail {

// An id bound as NULL for 0 ("the next free id"), else as itself.
struct NewId {
    std::int64_t id = 0;
};

inline void bindValue(sqlite::Statement& stmt, int index, NewId value)
{
    if (value.id == 0)
        stmt.bindNull(index);
    else
        stmt.bind(index, value.id);
}

template <typename T> void bindValue(sqlite::Statement& stmt, int index, const T& value)
{
    stmt.bind(index, value);
}

// Binds `values` to ?1, ?2, ... in the order given.
template <typename... Values> void bindAll(sqlite::Statement& stmt, const Values&... values)
{
    int index = 0;
    (bindValue(stmt, ++index, values), ...);
}

inline constexpr const char* kInsertCeiling
    = "INSERT OR REPLACE INTO ceilings(device_id, resource, source, value, unit, note) VALUES(?1,?2,?3,?4,?5,?6)";

inline void bindCeiling(sqlite::Statement& stmt, std::int64_t deviceId, const Ceiling& c)
{
    bindAll(stmt, deviceId, c.resource, toString(c.source), c.value, c.unit, c.note);
}

inline constexpr const char* kInsertVerdict
    = "INSERT OR REPLACE INTO verdicts(kernel_id, verdict, bound_by, utilization, reason) VALUES(?1,?2,?3,?4,?5)";

inline void bindVerdict(sqlite::Statement& stmt, const Verdict& v)
{
    bindAll(stmt, v.kernelId, toString(v.verdict), v.boundBy, v.utilization, v.reason);
}

} // namespace ridgeline::core::detail
