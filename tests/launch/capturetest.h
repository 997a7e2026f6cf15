// SPDX-License-Identifier: MIT
// Shared by the CLI capture tests: run `ridgeline capture -- launch_target …` and read the session.
#pragma once

#include "clirun.h"
#include "ridgeline/core/store/sessionreader.h"

#include <map>
#include <string>
#include <vector>

namespace ridgeline::testing {

// Every capture test runs without a driver, whatever the machine has: the results never depend on it.
inline constexpr const char* kNoDriver = "RIDGELINE_LIBCUDA=/nonexistent/libcuda.so.1";

inline RunResult capture(const std::string& output, const std::vector<std::string>& target, RunOptions options = {},
    const std::vector<std::string>& flags = {})
{
    options.env.push_back(kNoDriver);
    std::vector<std::string> args { "capture", "-o", output };
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("--");
    args.push_back(LAUNCH_TARGET);
    args.insert(args.end(), target.begin(), target.end());
    return runCli(args, options);
}

inline std::map<std::string, std::string> metaOf(const std::string& session)
{
    auto reader = core::SessionReader::open(session);
    if (reader.hasError())
        return { { "error", reader.error().message } };
    auto meta = reader.value().meta();
    return meta.ok() ? meta.value() : std::map<std::string, std::string> {};
}

inline std::int64_t kernelsOf(const std::string& session)
{
    auto reader = core::SessionReader::open(session);
    if (reader.hasError())
        return -1;
    auto counts = reader.value().counts();
    return counts.ok() ? counts.value().kernels : -1;
}

} // namespace ridgeline::testing
