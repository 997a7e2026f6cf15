// SPDX-License-Identifier: MIT
// The framing of an Nsight Compute report (docs/NCU-REP.md): "NVR\0", a u32-length-prefixed
// FileHeader, then blocks to the end of the file, each a u32-length-prefixed BlockHeader and a
// payload of u32-length-prefixed ProfileSource and ProfileResult messages. Every length is
// checked against what is left of the file (or of the block's payload) before it is used, so
// a hostile length cannot make the reader allocate or loop beyond the input's size.
#include "ncu/ncurep.pb.h"
#include "ncurepinternal.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <google/protobuf/io/coded_stream.h>
#include <iterator>
#include <limits>
#include <map>
#include <set>

namespace ridgeline::collectors::ncu {

namespace {

using google::protobuf::io::CodedInputStream;

struct Process {
    std::string host;
    std::string executable;
};

class ReportParser {
public:
    ReportParser(std::string_view bytes, const std::string& path, ParsedProfile& profile, const ReportLimits& limits)
        : m_limits(limits)
        , m_in(reinterpret_cast<const std::uint8_t*>(bytes.data()), static_cast<int>(bytes.size()))
        , m_path(path)
        , m_profile(profile)
    {
        // The whole report is one buffer; protobuf's 64 MiB default would refuse large ones.
        m_in.SetTotalBytesLimit(std::numeric_limits<int>::max());
    }

    core::Result<ReportStats> parse();

private:
    core::Error bad(std::int64_t at, const std::string& what) const
    {
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: byte {}: {}", m_path, at, what));
    }
    std::int64_t offset() const { return m_in.CurrentPosition(); }
    // Bytes left in the file, or in the payload being read.
    std::int64_t left() const { return m_in.BytesUntilLimit(); }
    core::Result<std::uint32_t> readLength(const char* what, const char* within);
    template <typename Message> core::Status readMessage(Message& message, const char* what, const char* within);
    core::Status readBlock();
    core::Status addResult(const ncurep::ProfileResult& result, std::int64_t at);
    void setStringTable(const ncurep::StringTable& table);

    ReportLimits m_limits;
    std::int64_t m_values = 0;
    CodedInputStream m_in;
    const std::string& m_path;
    ParsedProfile& m_profile;
    ReportStats m_stats;
    std::vector<std::string> m_names; // the string table in force
    std::vector<std::string> m_units; // reportUnit() of each name
    std::vector<std::uint32_t> m_rank; // each name's place in name order
    struct Pending {
        std::uint32_t rank;
        std::uint32_t nameId;
        double value;
    };
    std::vector<Pending> m_pending; // one result's numeric values, reused
    std::map<std::uint64_t, Process> m_processes; // by pid, from the block headers
    std::set<std::string> m_derived;
    std::string m_textExample;
    ncurep::ProfileResult m_result; // reused: its memory serves every result
};

core::Result<std::uint32_t> ReportParser::readLength(const char* what, const char* within)
{
    const auto at = offset();
    std::uint32_t length = 0;
    if (left() < 4 || !m_in.ReadLittleEndian32(&length))
        return bad(at, fmt::format("the {} ends inside the length of a {}", within, what));
    if (length > left())
        return bad(at,
            fmt::format("the length of a {} ({} bytes) runs past the end of the {} ({} bytes left)", what, length,
                within, left()));
    return length;
}

template <typename Message>
core::Status ReportParser::readMessage(Message& message, const char* what, const char* within)
{
    auto length = readLength(what, within);
    if (length.hasError())
        return length.error();
    const auto at = offset();
    const auto limit = m_in.PushLimit(static_cast<int>(length.value()));
    const bool parsed = message.ParseFromCodedStream(&m_in) && m_in.ConsumedEntireMessage() && left() == 0;
    m_in.PopLimit(limit);
    if (!parsed)
        return bad(at, fmt::format("the {} ({} bytes) is not a valid message", what, length.value()));
    return {};
}

void ReportParser::setStringTable(const ncurep::StringTable& table)
{
    m_names.assign(table.strings().begin(), table.strings().end());
    m_units.clear();
    m_units.reserve(m_names.size());
    for (const auto& name : m_names)
        m_units.push_back(reportUnit(name));
    // Values are put into a kernel's (sorted) metric map in name order, each at the end: no
    // string comparisons down the tree for 300-odd names sharing long prefixes.
    std::vector<std::uint32_t> order(m_names.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return m_names[a] < m_names[b]; });
    m_rank.assign(m_names.size(), 0);
    for (std::uint32_t i = 0; i < order.size(); ++i) // a name listed twice gets one rank
        m_rank[order[i]] = i > 0 && m_names[order[i]] == m_names[order[i - 1]] ? m_rank[order[i - 1]] : i;
}

core::Status ReportParser::readBlock()
{
    const auto blockAt = offset();
    ncurep::BlockHeader header;
    RIDGELINE_TRY(readMessage(header, "block header", "file"));
    // A block without a string table uses the last one seen (the second result of a report
    // usually has none: its metrics are the first one's).
    if (header.has_string_table() && header.string_table().strings_size() > 0)
        setStringTable(header.string_table());
    if (header.has_process())
        m_processes[header.process().pid()] = { header.process().host(), header.process().executable() };

    const std::uint64_t payload = header.payload_size();
    if (payload > static_cast<std::uint64_t>(left()))
        return bad(blockAt,
            fmt::format(
                "the block's payload ({} bytes) runs past the end of the file ({} bytes left)", payload, left()));
    // Each message takes at least its 4-byte length: more than that cannot be in the payload.
    const std::uint64_t sources = header.num_sources(), results = header.num_results();
    if (sources > payload / 4 || results > payload / 4 - sources)
        return bad(blockAt,
            fmt::format("the block announces {} sources and {} results, more than its payload of {} bytes can hold",
                sources, results, payload));

    const auto limit = m_in.PushLimit(static_cast<int>(payload));
    for (std::uint64_t i = 0; i < sources; ++i) {
        auto length = readLength("source", "block's payload");
        if (length.hasError())
            return length.error();
        m_in.Skip(static_cast<int>(length.value())); // the kernels' SASS and source: not imported
    }
    for (std::uint64_t i = 0; i < results; ++i) {
        const auto at = offset();
        RIDGELINE_TRY(readMessage(m_result, "result", "block's payload"));
        RIDGELINE_TRY(addResult(m_result, at));
    }
    const auto extra = left();
    m_in.PopLimit(limit);
    if (extra != 0)
        return bad(blockAt,
            fmt::format("the block's payload size ({} bytes) is {} bytes more than its {} sources and {} results hold",
                payload, extra, sources, results));
    return {};
}

core::Status ReportParser::addResult(const ncurep::ProfileResult& result, std::int64_t at)
{
    if (static_cast<std::int64_t>(m_profile.kernels.size()) >= m_limits.maxResults)
        return bad(at,
            fmt::format("more than {} results: Ridgeline imports at most that many at once (profile fewer launches, "
                        "e.g. ncu --launch-count)",
                m_limits.maxResults));
    ImportedKernel kernel;
    kernel.ncuId = static_cast<std::int64_t>(m_profile.kernels.size());
    kernel.pid = static_cast<std::int64_t>(result.pid());
    if (auto it = m_processes.find(result.pid()); it != m_processes.end()) {
        kernel.host = it->second.host;
        kernel.processName = it->second.executable;
    }
    // The mangled name identifies the kernel (as in captures and nsys imports); the demangled
    // one is what people read.
    const std::string& demangled = result.demangled_name().empty() ? result.function_name() : result.demangled_name();
    kernel.name = result.mangled_name().empty() ? demangled : result.mangled_name();
    kernel.demangledName = demangled;
    if (kernel.name.empty())
        kernel.name = fmt::format("(result {} has no kernel name)", kernel.ncuId);
    kernel.context = static_cast<std::int64_t>(result.context());
    kernel.stream = static_cast<std::int64_t>(result.stream());
    if (result.grid().x() > 0 && result.grid().y() > 0 && result.grid().z() > 0)
        kernel.grid = { result.grid().x(), result.grid().y(), result.grid().z() };
    if (result.block().x() > 0 && result.block().y() > 0 && result.block().z() > 0)
        kernel.block = { result.block().x(), result.block().y(), result.block().z() };

    m_pending.clear();
    for (const auto& m : result.metrics()) {
        if (m.name_id() >= m_names.size())
            return bad(at,
                fmt::format("result {} names metric {}, past the end of the string table ({} names)", kernel.ncuId,
                    m.name_id(), m_names.size()));
        const std::string& name = m_names[m.name_id()];
        double value = 0; // a value message with no field set holds 0 (it is written so for zeros)
        switch (m.value().value_case()) {
        case ncurep::MetricValue::kDoubleValue:
            value = m.value().double_value();
            break;
        case ncurep::MetricValue::kFloatValue:
            value = static_cast<double>(m.value().float_value());
            break;
        case ncurep::MetricValue::kUint32Value:
            value = m.value().uint32_value();
            break;
        case ncurep::MetricValue::kUint64Value:
            value = static_cast<double>(m.value().uint64_value());
            break;
        case ncurep::MetricValue::kStringValue:
            if (!applyTextAttribute(kernel, name, m.value().string_value())) {
                ++m_stats.textMetrics;
                if (m_textExample.empty())
                    m_textExample = name;
            }
            continue;
        case ncurep::MetricValue::VALUE_NOT_SET:
            break;
        }
        if (!std::isfinite(value)) {
            ++m_stats.nonFinite;
            continue;
        }
        const auto id = static_cast<std::uint32_t>(m.name_id());
        m_pending.push_back({ m_rank[id], id, value });
    }
    m_values += static_cast<std::int64_t>(m_pending.size());
    if (m_values > m_limits.maxValues)
        return bad(at,
            fmt::format("more than {} metric values: Ridgeline imports at most that many from one report (profile "
                        "fewer launches or metrics)",
                m_limits.maxValues));
    // A name given twice keeps its last value, as it would by assignment in file order.
    std::stable_sort(
        m_pending.begin(), m_pending.end(), [](const Pending& a, const Pending& b) { return a.rank < b.rank; });
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        const auto& p = m_pending[i];
        const Metric metric { p.value, m_units[p.nameId] };
        applyKnownMetric(kernel, m_names[p.nameId], metric);
        if (i > 0 && m_pending[i - 1].rank == p.rank)
            std::prev(kernel.metrics.end())->second = metric;
        else
            kernel.metrics.emplace_hint(kernel.metrics.end(), m_names[p.nameId], metric);
    }
    if (auto it = kernel.metrics.find("launch__device_id"); it != kernel.metrics.end())
        kernel.deviceIndex = it->second.value >= 0 && it->second.value < 65536 ? static_cast<int>(it->second.value) : 0;
    for (auto& name : deriveCounts(kernel))
        m_derived.insert(std::move(name));
    m_profile.kernels.push_back(std::move(kernel));
    ++m_stats.results;
    return {};
}

core::Result<ReportStats> ReportParser::parse()
{
    std::string magic;
    if (!m_in.ReadString(&magic, static_cast<int>(kReportMagic.size())) || magic != kReportMagic)
        return bad(0, "not an Nsight Compute report (it does not start with \"NVR\")");
    ncurep::FileHeader fileHeader;
    RIDGELINE_TRY(readMessage(fileHeader, "file header", "file"));
    m_stats.version = fileHeader.version();
    while (left() > 0)
        RIDGELINE_TRY(readBlock());
    if (m_stats.results == 0)
        return core::makeError(
            core::ErrorCode::BadFile, fmt::format("{}: the report holds no results (ncu profiled no kernel)", m_path));

    auto& warnings = m_profile.warnings;
    if (m_stats.version != 7)
        warnings.push_back(fmt::format("{} is report format version {}; Ridgeline was checked against version 7 "
                                       "(Nsight Compute 2024.2)",
            m_path, m_stats.version));
    if (m_stats.textMetrics > 0)
        warnings.push_back(fmt::format("{} text values of {} (e.g. {}) were not imported: metrics are numbers",
            m_stats.textMetrics, m_path, quotedField(m_textExample)));
    if (m_stats.nonFinite > 0)
        warnings.push_back(
            fmt::format("{} values of {} are not finite numbers and were not imported", m_stats.nonFinite, m_path));
    if (!m_derived.empty()) {
        std::string names;
        for (const auto& name : m_derived)
            names += (names.empty() ? "" : ", ") + name;
        warnings.push_back(fmt::format("{} holds rates only for {}: these counts are the rate x gpu__time_duration.sum "
                                       "(per_cycle_elapsed rates also x the unit's cycles_elapsed.avg.per_second)",
            m_path, names));
    }
    return m_stats;
}

} // namespace

core::Result<ReportStats> parseReport(
    std::string_view bytes, const std::string& path, ParsedProfile& profile, const ReportLimits& limits)
{
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: the report is larger than 2 GiB, which Ridgeline cannot read", path));
    ReportParser parser(bytes, path, profile, limits);
    return parser.parse();
}

core::Result<ReportStats> readReport(const std::string& path, ParsedProfile& profile)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return core::makeError(core::ErrorCode::NotFound, fmt::format("{}: cannot be opened", path));
    const auto size = static_cast<std::streamoff>(in.tellg());
    if (size < 0 || size > std::numeric_limits<int>::max())
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: the report is larger than 2 GiB, which Ridgeline cannot read", path));
    std::string bytes(static_cast<std::size_t>(size), '\0');
    in.seekg(0);
    if (!in.read(bytes.data(), size))
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: cannot be read", path));
    return parseReport(bytes, path, profile);
}

} // namespace ridgeline::collectors::ncu
