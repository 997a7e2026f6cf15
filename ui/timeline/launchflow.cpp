// SPDX-License-Identifier: MIT
#include "launchflow.h"

namespace ridgeline::ui {

void LaunchFlow::setSessionPath(const QString& path)
{
    if (path == m_path)
        return;
    m_path = path;
    m_reader.reset();
    m_unreadable = false;
}

std::optional<core::TimelineGpuOpRef> LaunchFlow::launchingCall(
    const core::TimelineData& data, core::TimelineGpuOpRef launch)
{
    if (m_path.isEmpty() || m_unreadable || launch.row >= data.rowCount()
        || launch.index >= data.row(launch.row).size())
        return std::nullopt;
    if (!m_reader) {
        auto opened = core::SessionReader::open(m_path.toStdString());
        if (opened.hasError()) {
            m_unreadable = true; // the views already say why the session cannot be read
            return std::nullopt;
        }
        m_reader.emplace(std::move(opened).value());
    }
    auto kernels = m_reader->kernelsById({ data.row(launch.row).sourceId(launch.index) });
    if (kernels.hasError() || kernels.value().empty())
        return std::nullopt;
    auto call = m_reader->launchingCall(kernels.value().front());
    if (call.hasError() || !call.value())
        return std::nullopt;
    const core::ApiCall& c = *call.value();
    // Its host-thread lane, then the row (nesting depth) holding that call at its start time.
    for (const auto& lane : data.lanes()) {
        if (lane.kind != core::TimelineLaneKind::HostThread || lane.processId != c.processId
            || lane.threadId != c.threadId)
            continue;
        for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
            // itemAt gives the last op starting at or before the call's start: walk back over ops
            // that start at the same ns (instants).
            const auto& row = data.row(r);
            for (auto index = row.itemAt(c.startNs); index && row.startNs(*index) == c.startNs; --*index) {
                if (row.sourceId(*index) == c.id)
                    return core::TimelineGpuOpRef { r, *index };
                if (*index == 0)
                    break;
            }
        }
    }
    return std::nullopt;
}

} // namespace ridgeline::ui
