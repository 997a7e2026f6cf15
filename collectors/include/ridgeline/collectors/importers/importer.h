// SPDX-License-Identifier: MIT
// `ridgeline import`: picks the importer from each file's content and writes one session.
#pragma once

#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

struct ImportRequest {
    std::vector<std::string> inputs; // several files only for formats with one file per rank (Kineto)
    std::string output;
    bool overwrite = false;
    // Progress of long imports, 0..1, with what is being done; may be empty.
    std::function<void(double fraction, std::string_view what)> progress;
    // Names the GPU of devices the file leaves unnamed (`--gpu`), loosely matched against the
    // catalogue (resolveGpu): their datasheet ceilings are added and verdicts recomputed.
    std::string gpuName;
};

struct ImportResult {
    FileFormat format = FileFormat::Unknown;
    std::string summary; // one line: "imported 12 kernels with 345 metrics from X into Y"
    std::vector<std::string> warnings;
};

core::Result<ImportResult> importFiles(const ImportRequest& request);

} // namespace ridgeline::collectors
