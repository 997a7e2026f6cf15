// SPDX-License-Identifier: MIT
// Turns the part files of a capture into one session: recover (WAL), merge, record the program,
// add measured ceilings, analyse, publish. Parts are removed only once the session is published.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/base/slurmjob.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ridgeline::collectors {

struct AssemblyRequest {
    std::string partDir;
    std::string output;
    bool overwrite = false;
    core::Process program; // pid, host, command, start/end, exit status (shell convention)
    bool programEndedNormally = true; // false when a signal ended it
    std::string sessionId;
    std::vector<std::string> launcherErrors; // e.g. the no-GPU sentence
    // Measured ceilings of a GPU by UUID (empty when none are cached).
    std::function<std::vector<core::Ceiling>(const std::string& uuid)> measuredCeilings;
    // Turns a crash file (`<host>-<pid>.crash`, written by the injection library's fatal-signal
    // handler) into a part file in the part directory; unset where the build has no CUPTI headers.
    std::function<core::Status(const std::string& crashPath)> recoverCrash;
    // The Slurm job step the capture ran in: its slurm.* meta, and SLURM_PROCID as the rank of
    // every process of the capture that names none.
    core::SlurmJob job;
};

struct AssemblyResult {
    bool complete = false;
    int parts = 0;
    std::int64_t kernels = 0;
    std::int64_t memops = 0;
    std::int64_t droppedRecords = 0;
    int devicesWithMeasuredCeilings = 0;
    std::vector<std::string> errors; // capture.error of the parts, once each
    std::vector<std::string> warnings; // capture.warning of the parts, unreadable parts
    bool partsKept = false; // some data could not be merged: the part directory stays
    int crashFiles = 0; // crash files recovered into parts
};

core::Result<AssemblyResult> assembleCapture(const AssemblyRequest& request);

} // namespace ridgeline::collectors
