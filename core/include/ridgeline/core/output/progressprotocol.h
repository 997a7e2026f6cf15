// SPDX-License-Identifier: MIT
// `ridgeline capture --progress`: one line per event on stderr,
// `ridgeline-progress: {"event":"…",…}` (docs/CAPTURE.md). The one definition of the protocol:
// the launcher writes its lines with the formatters, the desktop app's capture runner reads them
// with parseLine, and the tests of both use the same two.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ridgeline::core::progress {

inline constexpr std::string_view kPrefix = "ridgeline-progress: ";

std::string started(std::int64_t pid, const std::string& output, const std::string& warning);
std::string running(double seconds, int parts, std::int64_t kernels);
std::string merging(int parts);
std::string finished(
    const std::string& status, const std::string& output, int exitCode, std::int64_t kernels, std::int64_t memops);
std::string error(const std::string& message);

struct Event {
    enum class Kind { Started, Running, Merging, Finished, Error };
    Kind kind = Kind::Started;
    std::int64_t pid = 0; // started
    std::string output; // started, finished
    std::string warning; // started: why the program runs untraced; empty when it is traced
    double seconds = 0; // running
    std::int64_t parts = 0; // running, merging
    std::int64_t kernels = 0; // running, finished
    std::string status; // finished: "complete" | "partial"
    int exitCode = 0; // finished
    std::int64_t memops = 0; // finished
    std::string message; // error
};

// The event of one line (without its newline; a trailing '\r' is ignored); nullopt for any other
// line (the launcher's and the program's ordinary output) and for a progress line whose JSON is
// not an object with a known "event". Missing fields read as 0 or empty.
std::optional<Event> parseLine(std::string_view line);

} // namespace ridgeline::core::progress
