// SPDX-License-Identifier: MIT
// Binding a row's values to a statement's parameters ?1, ?2, ... in order, and the rows that the
// writer (sessionwriter*.cpp) and the amender (sessionamend.cpp) both insert.
#pragma once

#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sqlite.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

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

// `text` cut to at most `limit` bytes, not inside a UTF-8 sequence.
inline std::string_view ncuRuleText(std::string_view text, std::size_t limit)
{
    if (text.size() <= limit)
        return text;
    std::size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U)
        --end;
    return text.substr(0, end);
}

inline constexpr const char* kInsertNcuRule
    = "INSERT INTO ncu_rules(kernel_id, identifier, name, section, type, message, speedup_type, speedup_pct) "
      "VALUES(?1,?2,?3,?4,?5,?6,?7,?8)";

// Texts are cut to their limits (model.h); a speedup that is not a number of 0 to 100 % is stored
// as none, with no type.
inline void bindNcuRule(sqlite::Statement& stmt, const NcuRule& r)
{
    const bool speedup = r.speedupPct && *r.speedupPct >= 0 && *r.speedupPct <= kNcuMaxSpeedupPct;
    bindAll(stmt, r.kernelId, ncuRuleText(r.identifier, kNcuRuleMaxLabel), ncuRuleText(r.name, kNcuRuleMaxLabel),
        ncuRuleText(r.section, kNcuRuleMaxLabel), ncuRuleText(r.type, kNcuRuleMaxLabel),
        ncuRuleText(r.message, kNcuRuleMaxMessage),
        speedup ? ncuRuleText(r.speedupType, kNcuRuleMaxLabel) : std::string_view(""),
        speedup ? r.speedupPct : std::optional<double>());
}

} // namespace ridgeline::core::detail
