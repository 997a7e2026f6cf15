// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sqlite.h"

#include <cstddef>
#include <vector>

namespace ridgeline::core {

// Every value rule over an opened, schema-validated session; one entry per kind of problem found.
Result<std::vector<ValueWarning>> checkSessionValues(sqlite::Database& db, std::size_t examplesPerKind = 3);

} // namespace ridgeline::core
