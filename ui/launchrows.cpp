// SPDX-License-Identifier: MIT
#include "launchrows.h"

#include "ridgeline/core/sessionreader.h"

#include <map>
#include <utility>

namespace ridgeline::ui {

core::Result<std::vector<LaunchRow>> readLaunchRows(const std::string& sessionPath,
    const std::vector<core::KernelSummary>& summaries, const std::function<bool()>& cancelled)
{
    auto reader = core::SessionReader::open(sessionPath);
    if (reader.hasError())
        return reader.error();
    auto counts = reader.value().counts();
    if (counts.hasError())
        return counts.error();
    std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> summaryOf;
    for (std::size_t i = 0; i < summaries.size(); ++i)
        summaryOf.emplace(std::pair(summaries[i].nameId, summaries[i].deviceId), static_cast<std::int32_t>(i));

    std::vector<LaunchRow> rows;
    rows.reserve(static_cast<std::size_t>(counts.value().kernels));
    bool stopped = false;
    std::size_t visited = 0;
    auto status = reader.value().forEachKernel({}, [&](const core::Kernel& k) {
        if (cancelled && (++visited % 65536) == 0 && cancelled()) {
            stopped = true;
            return false;
        }
        const auto it = summaryOf.find(std::pair(k.nameId, k.deviceId));
        if (it != summaryOf.end())
            rows.push_back({ k.id, k.startNs, k.endNs, k.streamId, it->second });
        return true;
    });
    if (status.hasError())
        return status.error();
    if (stopped)
        return core::makeError(core::ErrorCode::InvalidArgument, "Loading the launches was cancelled.");
    rows.shrink_to_fit();
    return rows;
}

} // namespace ridgeline::ui
