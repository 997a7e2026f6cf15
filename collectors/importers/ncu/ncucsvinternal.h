// SPDX-License-Identifier: MIT
// Internals of the Nsight Compute CSV importer: the CSV reader (libcsv), the two page readers
// and the session builder share these types.
#pragma once

#include "ridgeline/collectors/importers/importwarning.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ridgeline::core {
class SessionWriter;
}

namespace ridgeline::collectors::ncu {

// One CSV record and the line of the file it starts on (1-based).
struct CsvRow {
    int line = 0;
    std::vector<std::string> fields;
};

// The text of a row's field `index`; empty where the row has no such field.
inline std::string_view field(const CsvRow& row, int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= row.fields.size())
        return {};
    return row.fields[static_cast<std::size_t>(index)];
}

struct CsvFile {
    std::string path; // as the user gave it, for messages
    std::string firstProfLine; // the first "==PROF==" line before the header, if any
    bool sawProfLines = false;
    CsvRow header; // the first row that starts with "ID"
    std::vector<CsvRow> rows; // every record after the header
    int lastLine = 0;
};

// Reads the records of an ncu CSV: skips the preamble (==PROF== lines, the program's own
// output) up to the header, and ==PROF==/==WARNING==/==ERROR== lines between records.
// Malformed quoting is an error naming the line; a file with no header is too.
core::Result<CsvFile> readCsvFile(const std::string& path);
// The same for a file's bytes held in memory (plain or gzip); `path` is for messages.
core::Result<CsvFile> readCsvBytes(std::string_view bytes, const std::string& path);

// "path:line: what" as one line.
core::Error badLine(const std::string& path, int line, const std::string& what);
// A field's text for a one-line message: quoted, line breaks and control characters shown as
// spaces, long text cut short.
std::string quotedField(std::string_view text);

struct Metric {
    double value = 0;
    std::string unit;
};

// The metric names of one import, each held once: kernels refer to them by index (an Nsight
// Compute report repeats the same 330 names for every launch).
class MetricTable {
public:
    // The index of `name`, added when new; its unit is the first non-empty one given.
    std::uint32_t intern(std::string_view name, std::string_view unit = {});
    std::optional<std::uint32_t> find(std::string_view name) const;
    const std::string& name(std::uint32_t id) const { return m_names[id]; }
    const std::string& unit(std::uint32_t id) const { return m_units[id]; }
    std::size_t size() const { return m_names.size(); }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>()(text); }
    };
    std::vector<std::string> m_names;
    std::vector<std::string> m_units;
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> m_ids;
};

// One launch's metric values by MetricTable index. A value set again replaces the earlier one.
class KernelMetrics {
public:
    void set(std::uint32_t id, double value)
    {
        if (!m_values.empty() && m_values.back().first >= id)
            m_sorted = false;
        m_values.emplace_back(id, value);
    }
    std::optional<double> find(std::uint32_t id) const;
    bool contains(std::uint32_t id) const { return find(id).has_value(); }
    // (id, value) in id order, each id once.
    const std::vector<std::pair<std::uint32_t, double>>& values() const;
    std::size_t size() const { return values().size(); }
    bool empty() const { return m_values.empty(); }
    void reserve(std::size_t n) { m_values.reserve(n); }

private:
    void normalise() const;
    mutable std::vector<std::pair<std::uint32_t, double>> m_values;
    mutable bool m_sorted = true;
};

// One kernel launch as Nsight Compute reported it.
struct ImportedKernel {
    int line = 0; // first line of the file that describes it
    std::int64_t ncuId = 0;
    std::int64_t pid = 0;
    std::string processName;
    std::string host;
    std::string name;
    std::string demangledName; // empty: demangled from `name` (the CSV gives one name only)
    std::int64_t context = 0;
    std::int64_t stream = 0;
    int deviceIndex = 0;
    std::string deviceName; // empty when the file does not name the GPU
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    std::int64_t coreClockKhz = 0;
    std::int64_t memoryClockKhz = 0;
    std::int64_t l2CacheBytes = 0;
    std::int64_t memoryBytes = 0;
    int memoryBusWidthBits = 0;
    int maxThreadsPerSm = 0;
    core::Dim3 grid;
    core::Dim3 block;
    int registersPerThread = 0;
    int staticSharedBytes = 0;
    int dynamicSharedBytes = 0;
    KernelMetrics metrics; // by ParsedProfile::metricNames index: ncu names (or "details:<Section>/<Name>"), base units
    std::vector<core::NcuRule> rules; // ncu's rule results (kernelId set when written)
};

struct ParsedProfile {
    std::string source = "import:ncu-csv"; // meta "source" of the session
    MetricTable metricNames; // of every kernel's metrics
    std::string page; // "raw" or "details"
    std::vector<ImportedKernel> kernels; // in file order
    bool hasLaunchDims = false; // the file has "Grid Size"/"Block Size" (x, y, z) columns
    std::int64_t skippedColumns = 0;
    ImportWarnings warnings;
    std::map<std::string, std::string> meta; // more session meta from the file (ncu_version)

    // A kernel's value of a metric, by name.
    std::optional<double> metric(const ImportedKernel& kernel, std::string_view name) const
    {
        const auto id = metricNames.find(name);
        return id ? kernel.metrics.find(*id) : std::nullopt;
    }
    // Sets a kernel's value of a metric by name (interned when new).
    void setMetric(ImportedKernel& kernel, std::string_view name, const Metric& metric)
    {
        kernel.metrics.set(metricNames.intern(name, metric.unit), metric.value);
    }
};

// Column names of the identity part of a row (both pages, old and new column sets).
namespace column {
inline constexpr const char* Id = "ID";
inline constexpr const char* ProcessId = "Process ID";
inline constexpr const char* ProcessName = "Process Name";
inline constexpr const char* HostName = "Host Name";
inline constexpr const char* KernelName = "Kernel Name";
inline constexpr const char* KernelTime = "Kernel Time"; // older ncu: a date-time, not used
inline constexpr const char* Context = "Context";
inline constexpr const char* Stream = "Stream";
inline constexpr const char* BlockSize = "Block Size";
inline constexpr const char* GridSize = "Grid Size";
inline constexpr const char* Device = "Device";
inline constexpr const char* Cc = "CC";
inline constexpr const char* SectionName = "Section Name";
inline constexpr const char* MetricName = "Metric Name";
inline constexpr const char* MetricUnit = "Metric Unit";
inline constexpr const char* MetricValue = "Metric Value";
// Rule rows of the details page (metric columns empty); the speedup columns from ncu 2024 on.
inline constexpr const char* RuleName = "Rule Name";
inline constexpr const char* RuleType = "Rule Type";
inline constexpr const char* RuleDescription = "Rule Description";
inline constexpr const char* SpeedupType = "Estimated Speedup Type";
inline constexpr const char* Speedup = "Estimated Speedup";
} // namespace column

// Column index by name in a header; -1 when absent.
class ColumnIndex {
public:
    explicit ColumnIndex(const std::vector<std::string>& header);
    int operator[](std::string_view name) const;
    bool isIdentity(std::size_t index) const; // ID, Process ID, ..., CC, Kernel Time
    bool isDetailsPage() const;

private:
    std::map<std::string, int, std::less<>> m_index; // first column of each name
    std::vector<bool> m_identity;
};

// Fills the identity fields of a kernel (ID, process, name, context, stream, device, CC,
// launch sizes) from one row. Errors name the line.
core::Status readIdentity(const CsvFile& file, const ColumnIndex& columns, const CsvRow& row, ImportedKernel& kernel);

// Applies a metric that also describes the launch or the device (registers, shared memory,
// SM count, device attributes) to the kernel's fields. The metric is stored either way.
void applyKnownMetric(ImportedKernel& kernel, std::string_view name, const Metric& metric);
// Same for a device name column ("device__attribute_display_name").
bool applyTextAttribute(ImportedKernel& kernel, std::string_view name, std::string_view text);

// A row needs at least `required` fields; beyond `width` (the header's) only empty ones (a
// trailing comma). Otherwise: "path:line: expected <width> fields, found <n>".
core::Status checkFieldCount(const CsvFile& file, const CsvRow& row, std::size_t required, std::size_t width);
// "3 columns hold text, not numbers, and were not imported (e.g. "launch__func_cache_config")"
std::string skippedWarning(const std::vector<std::string>& names, const char* noun);

core::Result<ParsedProfile> readRawPage(const CsvFile& file);
core::Result<ParsedProfile> readDetailsPage(const CsvFile& file);

// Writes devices, ceilings, processes, kernels, metrics and verdicts.
core::Result<ImportSummary> writeSession(
    const CsvFile& file, ParsedProfile profile, const std::string& sessionPath, bool overwrite);
// The same into a session being written (the caller finishes it): an in-memory one for the fuzz targets.
core::Result<ImportSummary> writeProfile(core::SessionWriter& writer, const CsvFile& file, ParsedProfile profile);

} // namespace ridgeline::collectors::ncu
