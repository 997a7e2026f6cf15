// SPDX-License-Identifier: MIT
#include "commands.h"
#include "exitcodes.h"

#include <cstdio>
#include <iostream>

namespace ridgeline::cli {

int fail(int exitCode, const std::string& message)
{
    std::cout.flush();
    std::cerr << "ridgeline: " << message << '\n';
    return exitCode;
}

int finishOutput()
{
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0)
        return fail(ExitOutputFailed, "cannot write the output (disk full or closed pipe?)");
    return ExitSuccess;
}

} // namespace ridgeline::cli
