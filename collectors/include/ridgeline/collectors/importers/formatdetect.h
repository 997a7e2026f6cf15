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
// Classifies the first bytes of a file (a few KiB are plenty).
FileFormat detectFormat(std::string_view head);
core::Result<FileFormat> detectFileFormat(const std::string& path);

} // namespace ridgeline::collectors
