// SPDX-License-Identifier: MIT
// TraceLens's own reference reports of two H100 traces (tests/data/tracelens-h100/, AMD-AGI/TraceLens
// at 171dd74, MIT): the rows of unified_perf_summary.csv with the trace's arguments as the trace's
// JSON text, for the shape model tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::testing {

struct TraceLensRow {
    std::string name, dims, types, concrete; // dims, types, concrete: JSON text, as the trace writes them
    double gflops = 0, mib = 0; // per call, where TraceLens models the row (`Data Moved (MB)` is MiB)
    bool modelled = false; // has_perf_model
    std::int64_t calls = 0; // operation_count
    double kernelTimeUs = 0; // `Kernel Time (µs)_sum`: the kernels of every call
};

// TraceLens writes the trace's arguments as Python tuples: "((768,), (788, 768), (), ())",
// "('c10::BFloat16', 'Scalar')", "('', '[16, 16]', 'False')". The trace's own JSON form:
// "[[768], [788, 768], [], []]", "[\"c10::BFloat16\", \"Scalar\"]", "[\"\", \"[16, 16]\", \"False\"]".
std::string pythonTupleToJson(const std::string& text);

// The rows of tests/data/tracelens-h100/<trace>_reference/unified_perf_summary.csv.
std::vector<TraceLensRow> traceLensRows(const std::string& trace);

} // namespace ridgeline::testing
