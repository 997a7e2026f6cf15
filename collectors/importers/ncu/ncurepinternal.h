// SPDX-License-Identifier: MIT
// Internals of the .ncu-rep importer: the framing reader (protobuf messages, u32-length
// prefixed) and the metric conversion share these. Results become the CSV importer's
// ImportedKernel, so both imports write sessions the same way (ncucsvsession.cpp).
#pragma once

#include "ncucsvinternal.h"
#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors::ncu {

// The first bytes of every report.
inline constexpr std::string_view kReportMagic { "NVR\0", 4 };

struct ReportStats {
    std::uint32_t version = 0; // FileHeader field 1 (7 in every Nsight Compute from 2020.3 to 2024.2)
    std::string ncuVersion; // "Nsight Compute Target" of the session details: "2023.3.0.0 (build ...) (...)"
    std::int64_t results = 0;
    std::int64_t textMetrics = 0; // string values other than the device name: not stored
    std::int64_t nonFinite = 0; // NaN or infinite values: not stored
    std::int64_t badSpeedups = 0; // rule speedups that are not numbers of 0 to 100 %: not stored
};

// What one import holds in memory is bounded, whatever the file says: a hostile report of tiny
// messages must not need a hundred times its size. Real reports are far below: about 20 KB and
// 330 values per result (Nsight Compute profiles each kernel for seconds); a 2 GiB report of them
// has 100,000 results and 33 M values.
struct ReportLimits {
    std::int64_t maxResults = 1'000'000; // over all the reports of one import
    std::int64_t maxValues = 50'000'000; // numeric values of one report
    std::int64_t maxNames = 1'000'000; // string table names of one report (real ones: 213 to 1,247)
};

// Parses one report held in memory and appends its results to `profile`, numbered on from
// profile.kernels.size(). `path` is for messages only. Errors are BadFile, one sentence:
// "x.ncu-rep: byte 1234: the block header's length (4294967295 bytes) runs past the end of the file".
core::Result<ReportStats> parseReport(
    std::string_view bytes, const std::string& path, ParsedProfile& profile, const ReportLimits& limits = {});
// Reads a file and parses it (files over 2 GiB are refused: protobuf's own limit).
core::Result<ReportStats> readReport(const std::string& path, ParsedProfile& profile);

// The unit of a metric in a report, from Nsight Compute's naming rules (reports store values in
// base units but not the units): "ns", "byte", "byte/s", "Hz", "cycle", "%", "kHz", or "".
std::string reportUnit(std::string_view metricName);

// The counts the roofline reads (metricnames.h) that a report holds only as rates, e.g.
// dram__bytes.sum from dram__bytes.sum.per_second x gpu__time_duration.sum. Adds them to the
// metrics of the kernels from `firstKernel` on (not to those whose duration is unknown) and
// returns the names derived.
std::set<std::string> deriveCounts(ParsedProfile& profile, std::size_t firstKernel);

} // namespace ridgeline::collectors::ncu
