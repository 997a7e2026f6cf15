// SPDX-License-Identifier: MIT
#include "ridgeline/core/base/slurmjob.h"

#include <charconv>
#include <cstdlib>
#include <fmt/format.h>
#include <string_view>

namespace ridgeline::core {

namespace {

// A rank or node number: digits only, no sign, no spaces, within int.
Result<std::optional<int>> slurmNumber(const EnvLookup& lookup, const char* name)
{
    const char* value = lookup(name);
    if (value == nullptr)
        return std::optional<int> {};
    const std::string_view text(value);
    int number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || number < 0)
        return makeError(ErrorCode::InvalidArgument,
            fmt::format("{}=\"{}\" is not a Slurm task or node number (a non-negative integer)", name, text));
    return std::optional<int> { number };
}

std::string slurmText(const EnvLookup& lookup, const char* name)
{
    const char* value = lookup(name);
    return value != nullptr ? std::string(value) : std::string();
}

} // namespace

Result<SlurmJob> slurmJobFromEnvironment(const EnvLookup& lookup)
{
    const EnvLookup get = lookup ? lookup : [](const char* name) -> const char* { return std::getenv(name); };
    SlurmJob job;
    auto procId = slurmNumber(get, "SLURM_PROCID");
    if (procId.hasError())
        return procId.error();
    auto nodeId = slurmNumber(get, "SLURM_NODEID");
    if (nodeId.hasError())
        return nodeId.error();
    job.procId = procId.value();
    job.nodeId = nodeId.value();
    job.jobId = slurmText(get, "SLURM_JOB_ID");
    job.stepId = slurmText(get, "SLURM_STEP_ID");
    return job;
}

std::map<std::string, std::string> slurmJobMeta(const SlurmJob& job)
{
    std::map<std::string, std::string> meta;
    if (job.procId)
        meta[metakey::SlurmProcId] = std::to_string(*job.procId);
    if (job.nodeId)
        meta[metakey::SlurmNodeId] = std::to_string(*job.nodeId);
    if (!job.jobId.empty())
        meta[metakey::SlurmJobId] = job.jobId;
    if (!job.stepId.empty())
        meta[metakey::SlurmStepId] = job.stepId;
    return meta;
}

} // namespace ridgeline::core
