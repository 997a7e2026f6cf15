// SPDX-License-Identifier: MIT
// Amends a session the caller has just written and not yet published (the launcher's merged
// capture): metadata, ceilings of known GPUs, process exit statuses, and the rows of recomputed
// verdicts. The store writes rows only: the verdicts are computed above it, by
// amendSessionAndVerdicts (analysis/sessionverdicts.h).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

struct SessionAmendment {
    std::map<std::string, std::string> meta; // set or replaced; an empty value removes the key
    std::optional<SessionStatus> status; // replaces the `status` meta key
    // Ceilings by GPU UUID (any spelling canonicalGpuUuid() accepts); added to every device of
    // the session with that UUID, replacing a ceiling of the same resource and source.
    std::map<std::string, std::vector<Ceiling>> ceilingsByUuid;
    // Names the devices a file left unnamed (`ridgeline import --gpu NAME`; named "" or "unknown
    // GPU" by the importers): `name`, and CC, SM
    // count and boost clock where the file gave none; `ceilings` (device id ignored) are added
    // to each of them.
    struct DeviceNaming {
        std::string name;
        int ccMajor = 0;
        int ccMinor = 0;
        int smCount = 0;
        std::int64_t coreClockKhz = 0;
        std::vector<Ceiling> ceilings;
    };
    std::optional<DeviceNaming> unnamedDevices;
    // Processes to record: a process already there (same pid and host) gets the exit status, and
    // the end time when it has none; any other one is added.
    std::vector<Process> processes;
    // The rank of every process that has none (-1), after `processes` are recorded: a job's rank
    // from outside the file (SLURM_PROCID, core/base/slurmjob.h). The rank a file names is kept.
    std::optional<int> defaultRank;
};

struct AmendmentResult {
    int devicesWithNewCeilings = 0;
    int devicesNamed = 0;
    std::int64_t verdicts = 0; // verdicts written (amendSessionAndVerdicts); 0 from amendSession
};

// Only for files the caller owns: the file is opened for writing.
Result<AmendmentResult> amendSession(const std::string& path, const SessionAmendment& amendment);

// Replaces the verdicts table of a file the caller owns with `verdicts`, in one transaction.
Status replaceSessionVerdicts(const std::string& path, const std::vector<Verdict>& verdicts);

// "amending PATH failed: ...", the error of any step of an amendment.
Error amendingFailed(const std::string& path, const Error& error);

// A GPU UUID as 32 lower-case hex digits, from "GPU-8f3c…-…", bare hex, upper or lower case,
// with or without dashes; empty when it is not 16 bytes of hex.
std::string canonicalGpuUuid(std::string_view uuid);

} // namespace ridgeline::core
