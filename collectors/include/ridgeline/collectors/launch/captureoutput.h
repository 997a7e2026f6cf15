// SPDX-License-Identifier: MIT
// Checks made before the program runs, so that a capture never records into a place it cannot
// write: the output name, the part directory beside it, free space.
#pragma once

#include "ridgeline/core/base/result.h"

#include <string>
#include <vector>

namespace ridgeline::collectors {

struct PreparedOutput {
    std::string output; // absolute
    std::string partDir; // "<output>.parts", created 0700
};

// Refuses an existing output without `overwrite` (InvalidArgument), and an existing part directory
// (data of an earlier capture nobody merged: never overwritten). Creates the part directory and
// writes a probe into it: an output directory that is read-only, missing or full is an Io error
// naming it, before anything runs.
core::Result<PreparedOutput> prepareCaptureOutput(const std::string& output, bool overwrite);

// The argv as one line a shell would accept (arguments quoted where needed).
std::string commandLine(const std::vector<std::string>& argv);

} // namespace ridgeline::collectors
