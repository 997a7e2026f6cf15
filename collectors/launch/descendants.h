// SPDX-License-Identifier: MIT
// The launcher's children as /proc lists them (orphaned descendants it adopted as subreaper).
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace ridgeline::collectors::detail {

// Processes whose parent is `parent` (from /proc/<pid>/stat).
std::vector<pid_t> childrenOf(pid_t parent);

// Whether the process's environment holds exactly `entry` ("KEY=VALUE"); false when unreadable.
bool environmentHas(pid_t pid, const std::string& entry);

} // namespace ridgeline::collectors::detail
