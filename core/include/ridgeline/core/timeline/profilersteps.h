// SPDX-License-Identifier: MIT
// The PyTorch profiler's steps of a session (issue 35): the ranges named "ProfilerStep#N" that
// torch.profiler writes once per `prof.step()`, on the host (user_annotation) and, in Kineto
// traces, again on the GPU (gpu_user_annotation: from the step's first GPU op to its last). A
// step's window is its GPU-side range where the session has one, as Holistic Trace Analysis and
// TraceLens take it: the host range starts before the GPU has work and ends when the host has
// queued it, so it holds the previous step's tail and misses its own. Without a GPU-side range
// (Nsight Systems NVTX, older traces) the host range is the window. Over several processes (a
// merged session) a step's window spans them all.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/timeline/timeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

class SessionReader;

struct ProfilerStep {
    std::int64_t number = 0; // N of "ProfilerStep#N"
    TimeWindow window;
    bool gpuSide = false; // the window is the GPU-side range (else the host range)
};

// N of "ProfilerStep#N"; nullopt for any other name.
std::optional<std::int64_t> profilerStepNumber(std::string_view rangeName);

// The session's steps by number (empty when it has none).
Result<std::vector<ProfilerStep>> profilerSteps(SessionReader& reader);

// "6" or "101, 102, 103": the steps' numbers, for the sentences that name them.
std::string stepNumbers(const std::vector<ProfilerStep>& steps);

// The window of step N. NotFound, naming the steps the session has, when it has no step N.
Result<TimeWindow> profilerStepWindow(SessionReader& reader, std::int64_t step);

} // namespace ridgeline::core
