// SPDX-License-Identifier: MIT
// `ridgeline merge`: joins the sessions of several ranks or hosts into one (ARCHITECTURE §6).
#pragma once

#include "ridgeline/core/base/result.h"

#include <string>
#include <vector>

namespace ridgeline::core {

// Reads every input and writes one new session in which every id (devices, processes, threads,
// kernel names, kernels, metrics, memops, API calls, NVTX ranges, comm ops, ceilings, verdicts)
// is renumbered so that nothing collides; each process keeps its host and rank. Meta: source
// "merge", origin the input file names, status complete only when every input is complete.
// Refuses an output that is one of the inputs, and an input given twice (InvalidArgument).
Status mergeSessions(const std::vector<std::string>& inputs, const std::string& output, bool overwrite);

} // namespace ridgeline::core
