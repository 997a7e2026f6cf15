// SPDX-License-Identifier: MIT
// The identity columns of an ncu CSV row (ID, process, kernel, context, stream, device, CC,
// launch sizes) and the metrics that also describe the launch or the device.
#include "ncucsvinternal.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace ridgeline::collectors::ncu {

namespace {

constexpr std::array<std::string_view, 12> kIdentityColumns { column::Id, column::ProcessId, column::ProcessName,
    column::HostName, column::KernelName, column::KernelTime, column::Context, column::Stream, column::BlockSize,
    column::GridSize, column::Device, column::Cc };

std::int64_t toInt64(double value)
{
    constexpr double kMax = static_cast<double>(std::numeric_limits<std::int64_t>::max() / 2);
    if (!(std::fabs(value) < kMax))
        return 0;
    return static_cast<std::int64_t>(std::llround(value));
}

int toInt(double value)
{
    if (!(std::fabs(value) < static_cast<double>(std::numeric_limits<int>::max())))
        return 0;
    return static_cast<int>(std::lround(value));
}

// Identity numbers other than the ID are informative only: a missing or odd one is 0.
std::int64_t optionalInteger(std::string_view text)
{
    const auto parsed = parseNumber(text);
    return parsed.status == NumberStatus::Ok ? toInt64(parsed.value) : 0;
}

core::Status readLaunchSize(
    const CsvFile& file, const CsvRow& row, std::string_view text, const char* what, core::Dim3& size)
{
    if (parseNumber(text).status == NumberStatus::Missing)
        return {};
    auto parsed = parseDim3(text);
    if (!parsed)
        return badLine(
            file.path, row.line, fmt::format("{} {} is not an (x, y, z) launch size", what, quotedField(text)));
    size = *parsed;
    return {};
}

// Device attributes in kHz (CUDA's unit) whether the file prints them in Hz or bare.
std::int64_t kilohertz(const Metric& metric)
{
    return toInt64(metric.unit == "Hz" ? metric.value / 1000.0 : metric.value);
}

} // namespace

ColumnIndex::ColumnIndex(const std::vector<std::string>& header)
    : m_identity(header.size(), false)
{
    for (std::size_t i = 0; i < header.size(); ++i) {
        m_index.try_emplace(header[i], static_cast<int>(i));
        m_identity[i]
            = std::find(kIdentityColumns.begin(), kIdentityColumns.end(), header[i]) != kIdentityColumns.end();
    }
}

int ColumnIndex::operator[](std::string_view name) const
{
    const auto it = m_index.find(name);
    return it == m_index.end() ? -1 : it->second;
}

bool ColumnIndex::isIdentity(std::size_t index) const
{
    return index < m_identity.size() && m_identity[index];
}

bool ColumnIndex::isDetailsPage() const
{
    return (*this)[column::MetricName] >= 0 && (*this)[column::MetricValue] >= 0;
}

core::Status readIdentity(const CsvFile& file, const ColumnIndex& columns, const CsvRow& row, ImportedKernel& kernel)
{
    kernel.line = row.line;
    const auto idText = field(row, columns[column::Id]);
    const auto id = parseNumber(idText);
    if (id.status != NumberStatus::Ok || id.value < 0 || id.value != std::floor(id.value))
        return badLine(file.path, row.line, fmt::format("the kernel ID {} is not a number", quotedField(idText)));
    kernel.ncuId = toInt64(id.value);
    kernel.pid = optionalInteger(field(row, columns[column::ProcessId]));
    kernel.processName = field(row, columns[column::ProcessName]);
    kernel.host = field(row, columns[column::HostName]);
    kernel.name = field(row, columns[column::KernelName]);
    if (kernel.name.empty())
        kernel.name = fmt::format("(kernel {} has no name in the file)", kernel.ncuId);
    kernel.context = optionalInteger(field(row, columns[column::Context]));
    kernel.stream = optionalInteger(field(row, columns[column::Stream]));
    RIDGELINE_TRY(readLaunchSize(file, row, field(row, columns[column::GridSize]), column::GridSize, kernel.grid));
    RIDGELINE_TRY(readLaunchSize(file, row, field(row, columns[column::BlockSize]), column::BlockSize, kernel.block));

    // "Device" is the CUDA device index; a name there (seen in hand-made files) is taken as the name.
    const auto device = field(row, columns[column::Device]);
    if (const auto index = parseNumber(device); index.status == NumberStatus::Ok)
        kernel.deviceIndex = toInt(index.value);
    else if (index.status == NumberStatus::NotNumber)
        kernel.deviceName = device;
    // "CC" is "major.minor", e.g. "8.6" or "10.0".
    const auto cc = field(row, columns[column::Cc]);
    if (const auto dot = cc.find('.'); dot != std::string_view::npos) {
        const auto major = parseNumber(cc.substr(0, dot));
        const auto minor = parseNumber(cc.substr(dot + 1));
        if (major.status == NumberStatus::Ok && minor.status == NumberStatus::Ok) {
            kernel.ccMajor = toInt(major.value);
            kernel.ccMinor = toInt(minor.value);
        }
    }
    return {};
}

void applyKnownMetric(ImportedKernel& kernel, std::string_view name, const Metric& metric)
{
    if (name == "device__attribute_compute_capability_major")
        kernel.ccMajor = toInt(metric.value);
    else if (name == "device__attribute_compute_capability_minor")
        kernel.ccMinor = toInt(metric.value);
    else if (name == "device__attribute_multiprocessor_count" || name == "launch__sm_count")
        kernel.smCount = toInt(metric.value);
    else if (name == "device__attribute_clock_rate")
        kernel.coreClockKhz = kilohertz(metric);
    else if (name == "device__attribute_memory_clock_rate")
        kernel.memoryClockKhz = kilohertz(metric);
    else if (name == "device__attribute_l2_cache_size")
        kernel.l2CacheBytes = toInt64(metric.value);
    else if (name == "device__attribute_total_memory")
        kernel.memoryBytes = toInt64(metric.value);
    else if (name == "device__attribute_global_memory_bus_width")
        kernel.memoryBusWidthBits = toInt(metric.value);
    else if (name == "device__attribute_max_threads_per_multiprocessor")
        kernel.maxThreadsPerSm = toInt(metric.value);
    else if (name == "launch__registers_per_thread")
        kernel.registersPerThread = toInt(metric.value);
    else if (name == "launch__shared_mem_per_block_static")
        kernel.staticSharedBytes = toInt(metric.value);
    else if (name == "launch__shared_mem_per_block_dynamic")
        kernel.dynamicSharedBytes = toInt(metric.value);
}

bool applyTextAttribute(ImportedKernel& kernel, std::string_view name, std::string_view text)
{
    if (name == "device__attribute_display_name") {
        kernel.deviceName = text;
        return true;
    }
    return false;
}

std::string quotedField(std::string_view text)
{
    constexpr std::size_t kLongest = 60;
    std::string shown;
    for (const char c : text.substr(0, kLongest))
        shown += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    return fmt::format("\"{}{}\"", shown, text.size() > kLongest ? "..." : "");
}

core::Status checkFieldCount(const CsvFile& file, const CsvRow& row, std::size_t required, std::size_t width)
{
    bool ok = row.fields.size() >= required;
    for (std::size_t i = width; ok && i < row.fields.size(); ++i)
        ok = row.fields[i].empty();
    if (!ok)
        return badLine(file.path, row.line, fmt::format("expected {} fields, found {}", width, row.fields.size()));
    return {};
}

std::string skippedWarning(const std::vector<std::string>& names, const char* noun)
{
    if (names.size() == 1)
        return fmt::format("the {} {} holds text, not numbers, and was not imported", noun, quotedField(names.front()));
    return fmt::format("{} {}s hold text, not numbers, and were not imported (e.g. {})", names.size(), noun,
        quotedField(names.front()));
}

} // namespace ridgeline::collectors::ncu
