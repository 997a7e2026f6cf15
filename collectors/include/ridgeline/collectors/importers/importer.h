// SPDX-License-Identifier: MIT
// `ridgeline import`: picks the importer from each file's content and writes one session.
#pragma once

#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/collectors/importers/importwarning.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/base/slurmjob.h"

#include <cstdint>
#include <functional>
#include <optional>
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
    // The Slurm job step the import runs in: its slurm.* meta; with `rankFromJob` (one file per
    // task), SLURM_PROCID is the rank of the processes the file names none for.
    core::SlurmJob job;
    bool rankFromJob = false;
};

struct ImportResult {
    FileFormat format = FileFormat::Unknown;
    std::string summary; // one line: "imported 12 kernels with 345 metrics from X into Y"
    ImportWarnings warnings;
};

core::Result<ImportResult> importFiles(const ImportRequest& request);

// `import FILE... -o DIR/`: every file into a session of its own in `directory` (made when
// missing), named after it (core::sessionNameFor: "rank-3.json.gz" -> "rank-3.ridge"), several at once on
// worker threads.
struct EachImportRequest {
    std::vector<std::string> inputs;
    std::string directory;
    bool overwrite = false;
    std::string gpuName;
    std::size_t threads = 0; // 0: one per core
    // As in ImportRequest; SLURM_PROCID becomes a rank only when there is one input.
    core::SlurmJob job;
    std::function<void(std::size_t done, std::size_t total)> progress; // on the calling thread
};
struct EachImport {
    std::string input;
    std::string output;
    std::optional<ImportResult> result; // or:
    std::string error;
};
// The outputs are checked first (two inputs that would write one session, existing files without
// `overwrite`: InvalidArgument, nothing written); then a file that fails is reported in its entry
// and the others go on.
core::Result<std::vector<EachImport>> importEach(const EachImportRequest& request);

} // namespace ridgeline::collectors
