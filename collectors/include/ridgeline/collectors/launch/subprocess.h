// SPDX-License-Identifier: MIT
// Runs a helper program (ridgeline-microbench) and collects its standard output.
#pragma once

#include "ridgeline/core/base/result.h"

#include <string>
#include <vector>

namespace ridgeline::collectors {

struct ProgramOutput {
    int exitCode = 0; // 128 + N when signal N ended it
    std::string standardOutput; // stderr passes through to ours
};

core::Result<ProgramOutput> runProgram(const std::vector<std::string>& argv);

} // namespace ridgeline::collectors
