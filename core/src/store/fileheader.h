// SPDX-License-Identifier: MIT
// Checks of a would-be session file made on its raw bytes, before SQLite reads any of it.
#pragma once

#include "ridgeline/core/base/result.h"

#include <string>
#include <string_view>

namespace ridgeline::core {

struct FileHeader {
    int schemaVersion = 0;
    bool walMode = false;
};

// Rejects, each with one clear sentence: missing files, directories, empty or short files,
// non-SQLite files, SQLite files of other applications, truncated files and sessions of a
// newer schema.
Result<FileHeader> inspectFileHeader(const std::string& path);
// The same checks of the bytes of a whole file held in memory (no WAL beside it); `name` is for messages.
Result<FileHeader> inspectImageHeader(std::string_view image, const std::string& name);

} // namespace ridgeline::core
