// SPDX-License-Identifier: MIT
// Ceilings measured on this machine's GPUs by ridgeline-microbench, cached per GPU UUID in
// $XDG_CACHE_HOME/ridgeline/ceilings-<uuid>.json (default ~/.cache/ridgeline).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgeline::collectors {

struct MeasuredCeilings {
    std::string uuid; // "GPU-…"
    std::string name;
    int ordinal = 0;
    std::string measuredAt; // ISO 8601, from the benchmark
    std::vector<core::Ceiling> ceilings; // source Measured, deviceId 0
    std::string json; // the benchmark's document, as cached
};

// Reads ridgeline-microbench's JSON (docs/CAPTURE.md); BadFile with the reason when malformed.
core::Result<MeasuredCeilings> parseMeasuredCeilings(const std::string& json);

// The cache directory and the file for one GPU (UUID in any spelling; "GPU-…" in the name).
std::string ceilingCacheDir();
std::string ceilingCachePath(const std::string& uuid);

// Writes the document to the cache (atomically: a temporary file renamed into place).
core::Status storeMeasuredCeilings(const MeasuredCeilings& measured);

// The cached ceilings of a GPU; nullopt when nothing is cached, an error when the file is bad.
core::Result<std::optional<MeasuredCeilings>> loadMeasuredCeilings(const std::string& uuid);

} // namespace ridgeline::collectors
