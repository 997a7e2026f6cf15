// SPDX-License-Identifier: MIT
// Stable exit codes of `ridgeline`; scripts rely on them, so numbers never change meaning.
#pragma once

#include "ridgeline/core/base/result.h"

namespace ridgeline::cli {

enum ExitCode : int {
    ExitSuccess = 0,
    ExitUsage = 1, // bad command line
    ExitBadInput = 2, // input file missing, unreadable, corrupt, not a session, or too new
    ExitOutputFailed = 3, // the output could not be written
    ExitInternal = 4, // a bug: please report it
    ExitNoGpu = 5, // no NVIDIA driver or no GPU (devices, ceilings --measure)
};

inline constexpr const char* kExitCodeHelp = "Exit codes:\n"
                                             "  0  success\n"
                                             "  1  usage error (bad command line)\n"
                                             "  2  bad input file (missing, unreadable, corrupt, not a session, or "
                                             "written by a newer Ridgeline)\n"
                                             "  3  the output could not be written\n"
                                             "  4  internal error (a bug: please report it)\n"
                                             "  5  no NVIDIA driver or no GPU (devices, ceilings --measure)\n"
                                             "capture exits with the captured program's status.";

inline int exitCodeFor(const core::Error& error)
{
    switch (error.code) {
    case core::ErrorCode::InvalidArgument:
        return ExitUsage;
    case core::ErrorCode::NotFound:
    case core::ErrorCode::BadFile:
    case core::ErrorCode::NewerSchema:
    case core::ErrorCode::Io:
        return ExitBadInput;
    case core::ErrorCode::Internal:
        break;
    }
    return ExitInternal;
}

} // namespace ridgeline::cli
