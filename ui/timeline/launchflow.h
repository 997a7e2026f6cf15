// SPDX-License-Identifier: MIT
// Which API call on a host-thread lane launched a kernel launch of the timeline: the timeline
// data holds no correlation ids, so the call is looked up in the session file (one probe of the
// correlation index, on a reader kept open while the session is shown) and then found among the
// lane's ops by its api_calls id.
#pragma once

#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timelinelod.h"

#include <QString>
#include <optional>

namespace ridgeline::ui {

class LaunchFlow {
public:
    // The session whose file holds the correlation ids; empty: none (lookups find nothing).
    void setSessionPath(const QString& path);
    // The op of the API call that launched kernel op `launch` (a Kernel or Collective item of a
    // Stream lane); empty when the session does not record it or the file cannot be read.
    std::optional<core::TimelineGpuOpRef> launchingCall(const core::TimelineData& data, core::TimelineGpuOpRef launch);

private:
    QString m_path;
    std::optional<core::SessionReader> m_reader;
    bool m_unreadable = false;
};

} // namespace ridgeline::ui
