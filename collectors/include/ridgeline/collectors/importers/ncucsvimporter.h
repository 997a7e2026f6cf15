// SPDX-License-Identifier: MIT
// Imports Nsight Compute CSV (`ncu --csv --page raw` or `--page details`) into a session
// (../shared/reference/trace-formats.md §4). Values are normalised to base units (bytes, ns,
// Hz, bytes/s); `n/a` means absent, never 0. Nsight Compute serialises kernels and reports no
// timestamps, so the session gets a synthetic timeline: kernels in ID order, each starting
// 1 µs (kSyntheticGapNs) after the previous one ended.
#pragma once

#include "ridgeline/collectors/importers/importwarning.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

struct ImportSummary {
    std::int64_t kernels = 0;
    std::int64_t metrics = 0; // metric values stored, over all kernels
    std::int64_t skippedColumns = 0; // metric columns (raw) or names (details) with no numeric value
    ImportWarnings warnings; // one sentence each: unknown GPU, missing durations, ...
};

// Errors are one line naming the file and the line: "profile.csv:17: expected 42 fields, found 40"
// (BadFile); an output that exists without `overwrite` is InvalidArgument.
core::Result<ImportSummary> importNcuCsv(const std::string& csvPath, const std::string& sessionPath, bool overwrite);

namespace ncu {

// Gap between consecutive kernels of the synthetic timeline.
inline constexpr std::int64_t kSyntheticGapNs = 1000;

// A unit as Nsight Compute prints it, normalised: base value = printed value * factor.
struct UnitScale {
    double factor = 1;
    std::string unit; // "byte", "ns", "Hz", "byte/s", "%", or the printed unit when it has no prefix to undo
};
// "Mbyte" -> {1e6, "byte"}, "usecond" -> {1e3, "ns"}, "cycle/nsecond" -> {1e9, "Hz"},
// "Gbyte/second" -> {1e9, "byte/s"}, "Kibyte" -> {1024, "byte"}; unknown units are kept with factor 1.
UnitScale normaliseUnit(std::string_view unit);

enum class NumberStatus { Ok, Missing, NotNumber };
struct ParsedNumber {
    NumberStatus status = NumberStatus::Missing;
    double value = 0;
};
// "1,234,567.5" -> 1234567.5; "", "n/a", "N/A" -> Missing; "(256, 1, 1)", "PolicySpread" -> NotNumber.
ParsedNumber parseNumber(std::string_view text);
// "(256, 1, 1)" or "(256,1,1)"; thousands separators allowed ("(65,536, 1, 1)"). nullopt: not a launch size.
std::optional<core::Dim3> parseDim3(std::string_view text);

} // namespace ncu

} // namespace ridgeline::collectors
