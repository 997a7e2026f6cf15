// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/captureprogress.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace ridgeline::collectors::progress {

namespace {

using nlohmann::json;

std::string line(json fields)
{
    // Invalid UTF-8 in a path or message is replaced, never thrown on.
    return kPrefix + fields.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

std::string started(std::int64_t pid, const std::string& output, const std::string& warning)
{
    json fields = { { "event", "started" }, { "pid", pid }, { "output", output } };
    if (!warning.empty())
        fields["warning"] = warning;
    return line(std::move(fields));
}

std::string running(double seconds, int parts, std::int64_t kernels)
{
    return line({ { "event", "running" }, { "seconds", std::round(seconds * 10) / 10 }, { "parts", parts },
        { "kernels", kernels } });
}

std::string merging(int parts)
{
    return line({ { "event", "merging" }, { "parts", parts } });
}

std::string finished(
    const std::string& status, const std::string& output, int exitCode, std::int64_t kernels, std::int64_t memops)
{
    return line({ { "event", "finished" }, { "status", status }, { "output", output }, { "exit_code", exitCode },
        { "kernels", kernels }, { "memops", memops } });
}

std::string error(const std::string& message)
{
    return line({ { "event", "error" }, { "message", message } });
}

} // namespace ridgeline::collectors::progress
