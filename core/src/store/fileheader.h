// SPDX-License-Identifier: MIT
// Checks of a would-be session file made on its raw bytes, before SQLite reads any of it.
#pragma once

#include "ridgeline/core/base/result.h"

#include <string>

namespace ridgeline::core {

struct FileHeader {
    int schemaVersion = 0;
    bool walMode = false;
};

// Rejects, each with one clear sentence: missing files, directories, empty or short files,
// non-SQLite files, SQLite files of other applications, truncated files and sessions of a
// newer schema.
Result<FileHeader> inspectFileHeader(const std::string& path);

} // namespace ridgeline::core
