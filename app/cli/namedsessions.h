// SPDX-License-Identifier: MIT
// The sessions named on the command line of the reports over many ranks (report --by rank,
// summarize): files, or folders holding them.
#pragma once

#include "ridgeline/core/cluster/ranksummary.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::cli {

// The rank summaries of the sessions named (folders expanded to the .ridge files in them), read
// `threads` at a time (0: one per core), from their stored summaries where `useStored`; none when
// the names hold no session. `progress(done, total)` as in core::gatherRankSummaries.
std::optional<core::GatheredSummaries> gatherNamedSessions(const std::vector<std::string>& named, std::size_t threads,
    bool useStored, const std::function<void(std::size_t, std::size_t)>& progress = {});

} // namespace ridgeline::cli
