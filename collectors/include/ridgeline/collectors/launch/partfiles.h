// SPDX-License-Identifier: MIT
// The per-process part files of a capture (<output>.parts/<host>-<pid>.part.ridge): live WAL
// SQLite sessions, possibly never finished because their process crashed or was killed.
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ridgeline::collectors {

inline constexpr const char* kPartSuffix = ".part.ridge";

// Every "*.part.ridge" directly in `dir`, sorted by name.
std::vector<std::string> listPartFiles(const std::string& dir);

// Copies a part with its -wal (and -journal) into `intoDir`, lets SQLite fold the log into the
// copy (committed transactions only) and returns the copy: one self-contained file that any
// reader opens, while the original stays as it was. The -shm index is never copied: SQLite
// rebuilds it from the log.
core::Result<std::string> recoverPart(const std::string& part, const std::string& intoDir);

struct PartSummary {
    std::int64_t kernels = 0;
    std::int64_t memops = 0;
    std::int64_t droppedRecords = 0;
    bool complete = false;
    std::map<std::string, std::string> meta; // capture.* keys
};

// Reads a part (a recovered copy, or a live one for progress); errors for a part that is not
// (yet) a readable session.
core::Result<PartSummary> summarizePart(const std::string& path);

} // namespace ridgeline::collectors
