// SPDX-License-Identifier: MIT
// The kernel table grouped by operator or by module (issue 17), as plain data for the app's tree:
// the rows of `report --by op|module` that launched GPU ops, each with the kernels it launched
// (kernel name and device) and its copies and memsets (by kind), then one "(unattributed)" group
// for the GPU ops no operator launched. A child's GPU time counts the GPU ops the group launched
// (innermost attribution, as the report), so the children of a group add up to its GPU time and
// the groups to all GPU time of the session.
#pragma once

#include "ridgeline/core/model/model.h"
#include "ridgeline/core/output/operatorreport.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::core {

struct OperatorLinks;

struct OperatorGroupChild {
    std::int64_t nameId = -1; // kernel_names.id of a kernel; -1 for copies or memsets
    std::int64_t deviceId = -1;
    MemOpKind memOpKind = MemOpKind::Other; // of copies or memsets (nameId -1)
    std::int64_t gpuTimeNs = 0; // of the group's GPU ops of this kernel (or kind)
    std::int64_t gpuOps = 0; // launches
    bool isKernel() const { return nameId >= 0; }
};

struct OperatorGroup {
    OperatorReportRow row; // the report's row; "(unattributed)" carries the GPU figures only
    bool unattributed = false;
    std::vector<OperatorGroupChild> children; // most GPU time first
};

struct OperatorGroups {
    ReportGrouping by = ReportGrouping::Op;
    // The report's rows with GPU ops, in its order (most GPU time first), then "(unattributed)"
    // when some GPU op has no operator.
    std::vector<OperatorGroup> groups;
    std::int64_t gpuTimeNs = 0; // every GPU op of the session
    std::int64_t operators = 0;

    // The group (index into groups) holding most of a kernel's GPU time, and that share of it
    // (0..1); nullopt when no group launched the kernel (it has no GPU op in the session).
    struct Share {
        std::size_t group = 0;
        double share = 0;
    };
    std::optional<Share> mainGroupOf(std::int64_t nameId, std::int64_t deviceId) const;
    // Every (group, child) that launched the kernel, most GPU time first.
    struct Place {
        std::size_t group = 0;
        std::size_t child = 0;
    };
    std::vector<Place> placesOf(std::int64_t nameId, std::int64_t deviceId) const;
};

inline constexpr const char* kUnattributedGroupName = "(unattributed)";

// `report` and `attribution` built from `links` (buildOperatorReport with an OperatorAttribution).
OperatorGroups groupGpuOps(
    const OperatorReport& report, const OperatorLinks& links, const OperatorAttribution& attribution);

} // namespace ridgeline::core
