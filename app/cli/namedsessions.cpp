// SPDX-License-Identifier: MIT
#include "namedsessions.h"

namespace ridgeline::cli {

std::optional<core::GatheredSummaries> gatherNamedSessions(const std::vector<std::string>& named, std::size_t threads,
    bool useStored, const std::function<void(std::size_t, std::size_t)>& progress)
{
    const auto paths = core::expandSessionPaths(named);
    if (paths.empty())
        return std::nullopt;
    core::GatherOptions gather;
    gather.threads = threads;
    gather.useStored = useStored;
    return core::gatherRankSummaries(paths, gather, progress);
}

} // namespace ridgeline::cli
