// SPDX-License-Identifier: MIT
// The environment `ridgeline capture` gives the program (the launcher/injection contract,
// docs/CAPTURE.md) and where it finds its companion files.
#pragma once

#include "ridgeline/core/base/result.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgeline::collectors {

inline constexpr const char* kInjectLibraryName = "libridgeline-inject.so";
inline constexpr const char* kMicrobenchName = "ridgeline-microbench";
inline constexpr const char* kCuptiHostName = "ridgeline-cupti-host"; // `ridgeline metrics`

// What the launcher tells the injection library, through the environment it gives the program
// (the library reads it back as inject::InjectionConfig, collectors/cupti/injectionconfig.h).
struct InjectionSettings {
    std::string injectLibrary; // absolute path
    std::string partDir;
    std::string sessionId;
    std::string metrics = "roofline"; // roofline | full | none | comma-separated metric names
    std::optional<std::string> kernelRegex;
    std::optional<long long> launchSkip;
    std::optional<long long> launchCount;
    std::optional<std::string> nvtxRange;
    int flushPeriodMs = 1000;
    // LD_LIBRARY_PATH for the target (CUPTI's directory prepended; cuptilocate.h); empty: unchanged.
    std::string libraryPath;
    // false: the injection variables are not set and the program runs untraced (a driver too old
    // for CUPTI, gpuprobe.h driverTooOldSentence).
    bool trace = true;
};

// `base` ("KEY=VALUE" entries, e.g. environ) with the capture's variables set; filter variables
// the capture does not set are removed, so that none leaks in from an outer capture.
std::vector<std::string> captureEnvironment(const std::vector<std::string>& base, const InjectionSettings& settings);

// The process environment as "KEY=VALUE" entries.
std::vector<std::string> processEnvironment();

// Checks a --metrics value: a set name or a list of metric names; InvalidArgument with the reason.
core::Status validateMetrics(const std::string& metrics);

// Finds a file installed beside `ridgeline`: $`overrideVariable` when set (it must exist), else
// <dir of /proc/self/exe>/../lib/ridgeline/<name>, then ../lib/<name> (the build tree).
core::Result<std::string> findCompanion(const std::string& name, const char* overrideVariable);

// A random id shared by every part of one capture (32 hex digits).
std::string newSessionId();

} // namespace ridgeline::collectors
