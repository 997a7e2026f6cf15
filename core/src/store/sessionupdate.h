// SPDX-License-Identifier: MIT
// A finished session opened for writing what is derived from it after it was written (the rank
// summaries, the timeline analysis): checked as a session, at this build's schema.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/store/sqlite.h"

#include <string>
#include <string_view>

namespace ridgeline::core {

// Opens `path` read-write after its header is checked; validates its tables and migrates an older
// file. A live capture part (still in WAL mode) is refused with "<path>: the session is still being
// written (a live capture part); <whenFinished>".
Result<sqlite::Database> openFinishedSessionForUpdate(const std::string& path, std::string_view whenFinished);

} // namespace ridgeline::core
