// SPDX-License-Identifier: MIT
// Which kind of file is this? Decided from the content, not the extension, so that
// `ridgeline import` and `ridgeline-ui` pick the right reader for a renamed file.
#pragma once

#include "ridgeline/core/base/result.h"

#include <string>
#include <string_view>

namespace ridgeline::collectors {

enum class FileFormat {
    RidgelineSession, // SQLite with Ridgeline's application_id
    NsightSystemsSqlite, // `nsys export --type sqlite`
    OtherSqlite,
    KinetoJson, // PyTorch profiler / Chrome trace JSON
    GzipJson, // .json.gz (content decided after decompression)
    NsightComputeCsv, // `ncu --csv`
    NsightComputeReport, // `ncu -o` (.ncu-rep)
    Unknown,
};

const char* toString(FileFormat format);
// Classifies the first bytes of a file (a few KiB are plenty). An SQLite file that is not a session
// is an Nsight Systems export only when its first bytes name an export's tables (exports of nsys
// 2025.4 and older); any other is OtherSqlite here. For the fuzzers and the inside of gzip files.
FileFormat detectFormat(std::string_view head);
// The same for a file, and an SQLite file that is not a session is decided by its tables
// (sqlite_master, read-only): an Nsight Systems export of any version, or OtherSqlite. Errors:
// NotFound; BadFile for an SQLite file whose tables cannot be read.
core::Result<FileFormat> detectFileFormat(const std::string& path);

} // namespace ridgeline::collectors
