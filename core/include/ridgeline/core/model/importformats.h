// SPDX-License-Identifier: MIT
// The formats `ridgeline import` reads, with the names and file suffixes people see: the one list
// that the CLI (`import -o DIR/` names each session after its file), the import dialog and the File
// menu's filters all read. Which importer reads a file is decided by its content, not its suffix
// (collectors/importers/common: detectFormat and importByFormat); a new format is added there and
// here (docs/ARCHITECTURE.md, "Adding an importer").
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace ridgeline::core {

struct ImportFormat {
    std::string_view name; // as a file dialog's filter names it
    std::span<const std::string_view> suffixes; // with their dot
};

namespace importformats {
inline constexpr std::array<std::string_view, 2> kKinetoSuffixes { ".json", ".json.gz" };
inline constexpr std::array<std::string_view, 1> kNsysSuffixes { ".sqlite" };
inline constexpr std::array<std::string_view, 2> kNcuCsvSuffixes { ".csv", ".csv.gz" };
inline constexpr std::array<std::string_view, 1> kNcuReportSuffixes { ".ncu-rep" };
} // namespace importformats

// In the order file dialogs list them.
inline constexpr std::array kImportFormats {
    ImportFormat { "PyTorch profiler / Kineto", importformats::kKinetoSuffixes },
    ImportFormat { "Nsight Systems SQLite export", importformats::kNsysSuffixes },
    ImportFormat { "Nsight Compute CSV, any page", importformats::kNcuCsvSuffixes },
    ImportFormat { "Nsight Compute report", importformats::kNcuReportSuffixes },
};

// The session a file imports into by default: its name without the suffix of an import format
// (the longest that matches, letters in any case; else a lone ".gz") and without the
// ".pt.trace" of the PyTorch profiler's file names, then ".ridge": "rank-3.pt.trace.json.gz" ->
// "rank-3.ridge". `fileName` has no folder.
std::string sessionNameFor(std::string_view fileName);

} // namespace ridgeline::core
