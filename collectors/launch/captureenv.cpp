// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/captureenv.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <random>
#include <unistd.h>

extern char** environ;

namespace ridgeline::collectors {

namespace {

namespace fs = std::filesystem;

// Every variable of the contract: removed from the base, then set when the capture uses it.
constexpr const char* kContractVariables[] = { "CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH", "RIDGELINE_PART_DIR",
    "RIDGELINE_METRICS", "RIDGELINE_KERNEL_REGEX", "RIDGELINE_LAUNCH_SKIP", "RIDGELINE_LAUNCH_COUNT",
    "RIDGELINE_NVTX_RANGE", "RIDGELINE_FLUSH_PERIOD_MS", "RIDGELINE_SESSION_ID" };

bool isContractVariable(const std::string& entry)
{
    const auto name = std::string_view(entry).substr(0, entry.find('='));
    return std::any_of(std::begin(kContractVariables), std::end(kContractVariables),
        [&](const char* variable) { return name == variable; });
}

bool metricNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

} // namespace

std::vector<std::string> captureEnvironment(const std::vector<std::string>& base, const InjectionSettings& settings)
{
    std::vector<std::string> env;
    env.reserve(base.size() + 10);
    for (const auto& entry : base) {
        if (!isContractVariable(entry) && !(!settings.libraryPath.empty() && entry.starts_with("LD_LIBRARY_PATH=")))
            env.push_back(entry);
    }
    if (!settings.libraryPath.empty())
        env.push_back("LD_LIBRARY_PATH=" + settings.libraryPath);
    auto set = [&](const char* name, const std::string& value) { env.push_back(fmt::format("{}={}", name, value)); };
    if (settings.trace) {
        set("CUDA_INJECTION64_PATH", settings.injectLibrary);
        set("NVTX_INJECTION64_PATH", settings.injectLibrary);
    }
    set("RIDGELINE_PART_DIR", settings.partDir);
    set("RIDGELINE_SESSION_ID", settings.sessionId);
    set("RIDGELINE_METRICS", settings.metrics);
    set("RIDGELINE_FLUSH_PERIOD_MS", std::to_string(settings.flushPeriodMs));
    if (settings.kernelRegex)
        set("RIDGELINE_KERNEL_REGEX", *settings.kernelRegex);
    if (settings.launchSkip)
        set("RIDGELINE_LAUNCH_SKIP", std::to_string(*settings.launchSkip));
    if (settings.launchCount)
        set("RIDGELINE_LAUNCH_COUNT", std::to_string(*settings.launchCount));
    if (settings.nvtxRange)
        set("RIDGELINE_NVTX_RANGE", *settings.nvtxRange);
    return env;
}

std::vector<std::string> processEnvironment()
{
    std::vector<std::string> env;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e)
        env.emplace_back(*e);
    return env;
}

core::Status validateMetrics(const std::string& metrics)
{
    if (metrics == "roofline" || metrics == "full" || metrics == "none")
        return {};
    if (metrics.empty())
        return core::makeError(core::ErrorCode::InvalidArgument,
            "--metrics is empty (roofline, full, none, or a comma-separated list of metric names)");
    std::size_t start = 0;
    while (start <= metrics.size()) {
        const auto end = std::min(metrics.find(',', start), metrics.size());
        const auto name = std::string_view(metrics).substr(start, end - start);
        if (name.empty() || !std::all_of(name.begin(), name.end(), metricNameChar))
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("--metrics {}: '{}' is not a metric name (roofline, full, none, or names such as "
                            "dram__bytes.sum,gpu__time_duration.sum)",
                    metrics, name));
        start = end + 1;
    }
    return {};
}

core::Result<std::string> findCompanion(const std::string& name, const char* overrideVariable)
{
    std::error_code ec;
    if (const char* over = std::getenv(overrideVariable); over != nullptr && *over != '\0') {
        if (!fs::is_regular_file(over, ec))
            return core::makeError(
                core::ErrorCode::NotFound, fmt::format("{}={} does not name a file", overrideVariable, over));
        return fs::absolute(over, ec).string();
    }
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    std::vector<fs::path> candidates;
    if (!ec) {
        const auto dir = exe.parent_path();
        candidates = { dir / ".." / "lib" / "ridgeline" / name, dir / ".." / "lib" / name };
    }
    for (const auto& candidate : candidates) {
        if (fs::is_regular_file(candidate, ec))
            return fs::weakly_canonical(candidate, ec).string();
    }
    std::string looked;
    for (const auto& candidate : candidates)
        looked += (looked.empty() ? "" : ", ") + candidate.lexically_normal().string();
    return core::makeError(core::ErrorCode::NotFound,
        fmt::format("cannot find {} (looked in {}); the installation is incomplete, or set {} to its path", name,
            looked.empty() ? "nowhere: /proc/self/exe is unreadable" : looked, overrideVariable));
}

std::string newSessionId()
{
    std::random_device random;
    std::string id;
    for (int i = 0; i < 4; ++i)
        id += fmt::format("{:08x}", random());
    return id;
}

} // namespace ridgeline::collectors
