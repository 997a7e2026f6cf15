// SPDX-License-Identifier: MIT
// "ncu estimates": Nsight Compute's own rule results (its guided analysis: OPT/WRN messages and,
// from ncu 2024 on, an estimated speedup), read from the session's `ncu_rules` (schema v7) and
// shown next to Ridgeline's verdicts. Only sessions imported from `.ncu-rep` files or
// `ncu --csv --page details` output have them.
#pragma once

#include "ridgeline/core/base/result.h"

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::core {

class SessionReader;

// One rule's message about a kernel (or one launch).
struct NcuEstimate {
    std::string rule; // the rule's identifier ("TheoreticalOccupancy")
    std::string name; // its display name ("Theoretical Occupancy"); the identifier when the file gives no other
    std::string section; // the section it belongs to ("Occupancy")
    std::string type; // "OPT", "WRN", "ERR", "INF", "OK": as ncu prints it
    std::string message; // of the longest launch the rule spoke about
    // ncu's estimated speedup in percent: over launches, the mean of those that give one, each
    // weighted by its duration (a plain mean when all last 0 ns); none when no launch gives one.
    std::optional<double> speedupPct;
    std::string speedupType; // "local" or "global" (of the longest launch with a speedup); empty: unknown
    std::int64_t launches = 0; // launches the rule spoke about
    bool operator==(const NcuEstimate&) const = default;
};

// A kernel as the kernel table's rows are (KernelSummary: name id and device id).
struct NcuKernelKey {
    std::int64_t nameId = 0;
    std::int64_t deviceId = 0;
    auto operator<=>(const NcuKernelKey&) const = default;
};

// Every kernel's ncu estimates, one entry per rule (and per message when a rule gives several for
// one launch), in order of speedup (largest first; none last), then rule. Kernels without rule
// results are absent. Empty for a session without them (older files, other importers).
Result<std::map<NcuKernelKey, std::vector<NcuEstimate>>> ncuEstimatesByKernel(SessionReader& reader);
// The same for one kernel name on one device.
Result<std::vector<NcuEstimate>> ncuEstimatesOfKernel(
    SessionReader& reader, std::int64_t nameId, std::int64_t deviceId);
// One launch's rule results as the file holds them (launches = 1 each), in the file's order.
Result<std::vector<NcuEstimate>> ncuEstimatesOfLaunch(SessionReader& reader, std::int64_t kernelId);
// "66.7 % (local)", "12.0 % (global)", "58.3 %": a speedup as the app shows it; empty for none.
std::string ncuSpeedupText(const NcuEstimate& estimate);

} // namespace ridgeline::core
