// SPDX-License-Identifier: MIT
// `ridgeline capture --progress`: one line per event on stderr,
// `ridgeline-progress: {"event":"…",…}`, which the desktop app's capture dialog parses.
#pragma once

#include <cstdint>
#include <string>

namespace ridgeline::collectors::progress {

inline constexpr const char* kPrefix = "ridgeline-progress: ";

std::string started(std::int64_t pid, const std::string& output, const std::string& warning);
std::string running(double seconds, int parts, std::int64_t kernels);
std::string merging(int parts);
std::string finished(
    const std::string& status, const std::string& output, int exitCode, std::int64_t kernels, std::int64_t memops);
std::string error(const std::string& message);

} // namespace ridgeline::collectors::progress
