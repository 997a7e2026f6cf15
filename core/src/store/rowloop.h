// SPDX-License-Identifier: MIT
// Stepping a statement through its result rows.
#pragma once

#include "ridgeline/core/store/sqlite.h"

#include <type_traits>

namespace ridgeline::core::detail {

// Steps `stmt` through its rows and calls `visit(stmt)` on each. A `visit` that returns a Status
// ends the loop with its error.
template <typename Visit> Status forEachRow(sqlite::Statement& stmt, Visit&& visit)
{
    for (;;) {
        auto step = stmt.step();
        if (step.hasError())
            return step.error();
        if (step.value() == sqlite::Statement::Step::Done)
            return {};
        if constexpr (std::is_void_v<decltype(visit(stmt))>)
            visit(stmt);
        else
            RIDGELINE_TRY(visit(stmt));
    }
}

} // namespace ridgeline::core::detail
