// SPDX-License-Identifier: MIT
// The Slurm job step this process runs in, from the variables srun and sbatch set: SLURM_PROCID
// (the task's rank in the step), SLURM_NODEID, SLURM_JOB_ID and SLURM_STEP_ID. Capture and import
// keep them in the session's meta (slurm.*) and give SLURM_PROCID as the rank to processes the
// trace names none for (docs/CLUSTER.md).
#pragma once

#include "ridgeline/core/base/result.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace ridgeline::core {

namespace metakey {
inline constexpr const char* SlurmProcId = "slurm.procid";
inline constexpr const char* SlurmNodeId = "slurm.nodeid";
inline constexpr const char* SlurmJobId = "slurm.job_id";
inline constexpr const char* SlurmStepId = "slurm.step_id";
} // namespace metakey

struct SlurmJob {
    std::optional<int> procId; // SLURM_PROCID
    std::optional<int> nodeId; // SLURM_NODEID
    std::string jobId; // SLURM_JOB_ID; empty: not set
    std::string stepId; // SLURM_STEP_ID ("0", "batch", ...); empty: not set
    bool empty() const { return !procId && !nodeId && jobId.empty() && stepId.empty(); }
    bool operator==(const SlurmJob&) const = default;
};

// The value of an environment variable, nullptr when it is not set.
using EnvLookup = std::function<const char*(const char*)>;

// The job of this process (`lookup` defaults to getenv). Variables not set are left out; a rank or
// node that is not a non-negative integer is an error (InvalidArgument) that names the variable.
Result<SlurmJob> slurmJobFromEnvironment(const EnvLookup& lookup = {});

// The session meta of a job: the slurm.* keys of what is set.
std::map<std::string, std::string> slurmJobMeta(const SlurmJob& job);

} // namespace ridgeline::core
