// SPDX-License-Identifier: MIT
// The framing of an Nsight Compute report (docs/NCU-REP.md): "NVR\0", a u32-length-prefixed
// FileHeader, then blocks to the end of the file, each a u32-length-prefixed BlockHeader and a
// payload of u32-length-prefixed ProfileSource and ProfileResult messages. Every length is
// checked against what is left of the file (or of the block's payload) before it is used, so
// a hostile length cannot make the reader allocate or loop beyond the input's size.
//
// Two passes: the framing (block headers, string tables, where each result lies) in file order,
// then the results, parsed and converted on worker threads, each into kernels of its own, joined
// in file order. Errors are those a parse in file order would meet first, except that a metric
// name index is checked only against the whole report's string table: blocks append names to
// one table, and newer reports (Nsight Compute 2023.3) write some after the results that use them.
#include "ncu/ncurep.pb.h"
#include "ncurepinternal.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <google/protobuf/io/coded_stream.h>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <thread>

namespace ridgeline::collectors::ncu {

namespace {

using google::protobuf::io::CodedInputStream;

struct Process {
    std::string host;
    std::string executable;
};

// The report's string table, every block's names appended in file order, and for each of its
// names the profile's metric index.
struct StringTable {
    std::vector<std::string> names;
    std::vector<std::uint32_t> ids; // ParsedProfile::metricNames index of each name
    std::vector<std::string> units; // reportUnit() of each name
    std::vector<bool> describes; // may describe the launch or device (applyKnownMetric)
};

// Where one result lies in the file.
struct ResultSpan {
    std::int64_t at = 0; // of its length; the message follows
    std::uint32_t length = 0;
};

core::Error badAt(const std::string& path, std::int64_t at, const std::string& what)
{
    return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: byte {}: {}", path, at, what));
}

// A numeric metric value as a double; a value message with no field set holds 0 (it is written so for zeros).
double numberOf(const ncurep::MetricValue& v)
{
    switch (v.value_case()) {
    case ncurep::MetricValue::kDoubleValue:
        return v.double_value();
    case ncurep::MetricValue::kFloatValue:
        return static_cast<double>(v.float_value());
    case ncurep::MetricValue::kUint32Value:
        return v.uint32_value();
    case ncurep::MetricValue::kUint64Value:
        return static_cast<double>(v.uint64_value());
    case ncurep::MetricValue::kStringValue:
    case ncurep::MetricValue::VALUE_NOT_SET:
        break;
    }
    return 0;
}

// Pass 1: the framing, in file order.
class ReportFraming {
public:
    ReportFraming(std::string_view bytes, const std::string& path, ParsedProfile& profile, const ReportLimits& limits)
        : m_in(reinterpret_cast<const std::uint8_t*>(bytes.data()), static_cast<int>(bytes.size()))
        , m_path(path)
        , m_profile(profile)
        , m_maxResults(limits.maxResults)
        , m_maxNames(limits.maxNames)
    {
        // The whole report is one buffer; protobuf's 64 MiB default would refuse large ones.
        m_in.SetTotalBytesLimit(std::numeric_limits<int>::max());
    }

    // The first framing error, if any; the results before it are in results() either way.
    core::Status read();
    std::uint32_t version() const { return m_version; }
    const std::string& ncuVersion() const { return m_ncuVersion; }
    const std::vector<ResultSpan>& results() const { return m_results; }
    const std::map<std::uint64_t, Process>& processes() const { return m_processes; }
    // Every block's names, read so far (all of them once read() has succeeded).
    const StringTable& table() const { return m_table; }
    std::int64_t tableBlocks() const { return m_tableBlocks; }

private:
    core::Error bad(std::int64_t at, const std::string& what) const { return badAt(m_path, at, what); }
    std::int64_t offset() const { return m_in.CurrentPosition(); }
    // Bytes left in the file, or in the payload being read.
    std::int64_t left() const { return m_in.BytesUntilLimit(); }
    core::Result<std::uint32_t> readLength(const char* what, const char* within);
    template <typename Message> core::Status readMessage(Message& message, const char* what, const char* within);
    core::Status readBlock();
    void appendStrings(const ncurep::StringTable& table);

    CodedInputStream m_in;
    const std::string& m_path;
    ParsedProfile& m_profile;
    std::int64_t m_maxResults;
    std::int64_t m_maxNames;
    std::uint32_t m_version = 0;
    std::string m_ncuVersion;
    StringTable m_table;
    std::int64_t m_tableBlocks = 0; // blocks that added names
    std::vector<ResultSpan> m_results;
    std::map<std::uint64_t, Process> m_processes; // by pid, from the block headers
};

core::Result<std::uint32_t> ReportFraming::readLength(const char* what, const char* within)
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
core::Status ReportFraming::readMessage(Message& message, const char* what, const char* within)
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

void ReportFraming::appendStrings(const ncurep::StringTable& table)
{
    ++m_tableBlocks;
    for (const auto& name : table.strings()) {
        m_table.names.push_back(name);
        m_table.units.push_back(reportUnit(name));
        m_table.ids.push_back(m_profile.metricNames.intern(name, m_table.units.back()));
        m_table.describes.push_back(name.starts_with("device__attribute_") || name.starts_with("launch__"));
    }
}

core::Status ReportFraming::readBlock()
{
    const auto blockAt = offset();
    ncurep::BlockHeader header;
    RIDGELINE_TRY(readMessage(header, "block header", "file"));
    // Each block's names extend the report's one table: the first result's block holds most of
    // them; reports of Nsight Compute 2023.3 also add names in later blocks without results,
    // which earlier results already use (docs/NCU-REP.md).
    if (header.has_string_table() && header.string_table().strings_size() > 0) {
        if (static_cast<std::int64_t>(m_table.names.size()) + header.string_table().strings_size() > m_maxNames)
            return bad(blockAt,
                fmt::format(
                    "more than {} metric names in the string table: Ridgeline reads at most that many", m_maxNames));
        appendStrings(header.string_table());
    }
    for (const auto& entry : header.session().versions()) {
        if (entry.name() == "Nsight Compute Target" && m_ncuVersion.empty())
            m_ncuVersion = entry.value();
    }
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
        if (static_cast<std::int64_t>(m_profile.kernels.size() + m_results.size()) >= m_maxResults)
            return bad(at,
                fmt::format("more than {} results: Ridgeline imports at most that many at once (profile fewer "
                            "launches, e.g. ncu --launch-count)",
                    m_maxResults));
        auto length = readLength("result", "block's payload");
        if (length.hasError())
            return length.error();
        m_results.push_back({ at, length.value() });
        m_in.Skip(static_cast<int>(length.value()));
    }
    const auto extra = left();
    m_in.PopLimit(limit);
    if (extra != 0)
        return bad(blockAt,
            fmt::format("the block's payload size ({} bytes) is {} bytes more than its {} sources and {} results hold",
                payload, extra, sources, results));
    return {};
}

core::Status ReportFraming::read()
{
    std::string magic;
    if (!m_in.ReadString(&magic, static_cast<int>(kReportMagic.size())) || magic != kReportMagic)
        return bad(0, "not an Nsight Compute report (it does not start with \"NVR\")");
    ncurep::FileHeader fileHeader;
    RIDGELINE_TRY(readMessage(fileHeader, "file header", "file"));
    m_version = fileHeader.version();
    while (left() > 0)
        RIDGELINE_TRY(readBlock());
    return {};
}

// "OPT", "WRN", ...: a rule message's type as ncu prints it (RuleMessage.type).
const char* ncuRuleType(std::uint32_t type)
{
    switch (type) {
    case 1:
        return "OK";
    case 2:
        return "WRN";
    case 3:
        return "ERR";
    case 4:
        return "OPT";
    default:
        return "INF";
    }
}

// A speedup's type (RuleSpeedup.type): 1 in the real reports, whose rules (TheoreticalOccupancy,
// AchievedOccupancy without their parent rule) estimate a local speedup; 2 taken as global.
const char* ncuSpeedupType(std::uint32_t type)
{
    switch (type) {
    case 1:
        return core::kNcuSpeedupLocal;
    case 2:
        return core::kNcuSpeedupGlobal;
    default:
        return "";
    }
}

// The messages of a result's rule results, one NcuRule each; a rule with no message (it found
// nothing to say) gives none. A speedup that is not a number of 0 to 100 % is left out and
// counted. (The session writer cuts texts longer than a session keeps.)
void addRuleResults(const ncurep::ProfileResult& result, ImportedKernel& kernel, std::int64_t& badSpeedups)
{
    for (const auto& rule : result.rule_results()) {
        for (const auto& item : rule.body().items()) {
            if (!item.has_message() && !item.has_speedup())
                continue;
            core::NcuRule out;
            out.identifier = rule.identifier();
            out.name = rule.display_name();
            out.section = rule.section();
            out.type = ncuRuleType(item.message().type());
            out.message = item.message().text();
            if (item.has_speedup()) {
                const double pct = item.speedup().percent();
                if (std::isfinite(pct) && pct >= 0 && pct <= core::kNcuMaxSpeedupPct) {
                    out.speedupPct = pct;
                    out.speedupType = ncuSpeedupType(item.speedup().type());
                } else {
                    ++badSpeedups;
                }
            }
            kernel.rules.push_back(std::move(out));
        }
    }
}

// Pass 2: results [begin, end) into kernels; stops at the first bad one.
struct ResultBatch {
    std::vector<ImportedKernel> kernels;
    std::vector<std::int64_t> values; // numeric values stored, per kernel
    std::optional<core::Error> error; // of the result after the last kernel
    bool nameError = false; // the error is a name index past the end of the string table
    std::int64_t textMetrics = 0;
    std::int64_t nonFinite = 0;
    std::int64_t badSpeedups = 0; // rule speedups that are not numbers of 0 to 100 %
    std::string textExample;
};

class ResultConverter {
public:
    ResultConverter(std::string_view bytes, const std::string& path, const std::map<std::uint64_t, Process>& processes,
        const StringTable& table)
        : m_bytes(bytes)
        , m_path(path)
        , m_processes(processes)
        , m_table(table)
    { }

    // `firstId`: the ncu ID (index in the profile) of span 0.
    ResultBatch convert(std::span<const ResultSpan> spans, std::int64_t firstId);

private:
    core::Status add(const ResultSpan& span, std::int64_t id, ResultBatch& batch);

    std::string_view m_bytes;
    const std::string& m_path;
    const std::map<std::uint64_t, Process>& m_processes;
    const StringTable& m_table;
    ncurep::ProfileResult m_result; // reused: its memory serves every result
};

ResultBatch ResultConverter::convert(std::span<const ResultSpan> spans, std::int64_t firstId)
{
    ResultBatch batch;
    batch.kernels.reserve(spans.size());
    batch.values.reserve(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (auto status = add(spans[i], firstId + static_cast<std::int64_t>(i), batch); status.hasError()) {
            batch.error = status.error();
            break;
        }
    }
    return batch;
}

core::Status ResultConverter::add(const ResultSpan& span, std::int64_t id, ResultBatch& batch)
{
    const auto& result = m_result;
    if (!m_result.ParseFromArray(m_bytes.data() + span.at + 4, static_cast<int>(span.length)))
        return badAt(m_path, span.at + 4, fmt::format("the result ({} bytes) is not a valid message", span.length));
    const StringTable& table = m_table;

    ImportedKernel kernel;
    kernel.ncuId = id;
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
        kernel.name = fmt::format("(result {} has no kernel name)", id);
    kernel.context = static_cast<std::int64_t>(result.context());
    kernel.stream = static_cast<std::int64_t>(result.stream());
    if (result.grid().x() > 0 && result.grid().y() > 0 && result.grid().z() > 0)
        kernel.grid = { result.grid().x(), result.grid().y(), result.grid().z() };
    if (result.block().x() > 0 && result.block().y() > 0 && result.block().z() > 0)
        kernel.block = { result.block().x(), result.block().y(), result.block().z() };

    kernel.metrics.reserve(static_cast<std::size_t>(result.metrics_size()));
    std::int64_t values = 0;
    for (const auto& m : result.metrics()) {
        if (m.name_id() >= table.names.size()) {
            batch.nameError = true;
            return badAt(m_path, span.at,
                fmt::format("result {} names metric {}, past the end of the string table ({} names in all the "
                            "report's blocks)",
                    id, m.name_id(), table.names.size()));
        }
        const auto index = static_cast<std::size_t>(m.name_id());
        const std::string& name = table.names[index];
        if (m.value().value_case() == ncurep::MetricValue::kStringValue) {
            if (!applyTextAttribute(kernel, name, m.value().string_value())) {
                ++batch.textMetrics;
                if (batch.textExample.empty())
                    batch.textExample = name;
            }
            continue;
        }
        const double value = numberOf(m.value());
        if (!std::isfinite(value)) {
            ++batch.nonFinite;
            continue;
        }
        if (table.describes[index])
            applyKnownMetric(kernel, name, Metric { value, table.units[index] });
        kernel.metrics.set(table.ids[index], value); // a name given twice keeps its last value
        ++values;
        if (name == "launch__device_id")
            kernel.deviceIndex = value >= 0 && value < 65536 ? static_cast<int>(value) : 0;
    }
    addRuleResults(result, kernel, batch.badSpeedups);
    batch.kernels.push_back(std::move(kernel));
    batch.values.push_back(values);
    return {};
}

// Worker threads for `results` results: one per core, and one per 256 results at most.
std::size_t workersFor(std::size_t results)
{
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    return std::clamp<std::size_t>(results / 256, 1, std::min<std::size_t>(cores, 16));
}

} // namespace

core::Result<ReportStats> parseReport(
    std::string_view bytes, const std::string& path, ParsedProfile& profile, const ReportLimits& limits)
{
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: the report is larger than 2 GiB, which Ridgeline cannot read", path));
    ReportFraming framing(bytes, path, profile, limits);
    const core::Status framed = framing.read();
    const auto& spans = framing.results();

    // The results on worker threads, each a contiguous share.
    const std::size_t workers = workersFor(spans.size());
    std::vector<ResultBatch> batches(workers);
    const auto firstId = static_cast<std::int64_t>(profile.kernels.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t w = 0; w < workers; ++w) {
            const std::size_t begin = spans.size() * w / workers, end = spans.size() * (w + 1) / workers;
            auto work = [&, w, begin, end] {
                ResultConverter converter(bytes, path, framing.processes(), framing.table());
                batches[w] = converter.convert(
                    std::span(spans).subspan(begin, end - begin), firstId + static_cast<std::int64_t>(begin));
            };
            if (w + 1 == workers)
                work(); // this thread takes the last share
            else
                threads.emplace_back(work);
        }
    }

    // Joined in file order, up to the first error a parse in file order would meet.
    ReportStats stats;
    stats.version = framing.version();
    stats.ncuVersion = framing.ncuVersion();
    std::string textExample;
    std::int64_t values = 0;
    for (auto& batch : batches) {
        for (std::size_t i = 0; i < batch.kernels.size(); ++i) {
            values += batch.values[i];
            if (values > limits.maxValues)
                return badAt(path, spans[static_cast<std::size_t>(batch.kernels[i].ncuId - firstId)].at,
                    fmt::format("more than {} metric values: Ridgeline imports at most that many from one report "
                                "(profile fewer launches or metrics)",
                        limits.maxValues));
            profile.kernels.push_back(std::move(batch.kernels[i]));
        }
        stats.textMetrics += batch.textMetrics;
        stats.nonFinite += batch.nonFinite;
        stats.badSpeedups += batch.badSpeedups;
        if (textExample.empty())
            textExample = batch.textExample;
        // A name past the end of a table cut short is the cut's fault: its error is the clearer.
        if (batch.error)
            return batch.nameError && framed.hasError() ? framed.error() : *batch.error;
    }
    RIDGELINE_TRY(framed);
    stats.results = static_cast<std::int64_t>(spans.size());
    if (stats.results == 0)
        return core::makeError(
            core::ErrorCode::BadFile, fmt::format("{}: the report holds no results (ncu profiled no kernel)", path));

    const auto derived = deriveCounts(profile, static_cast<std::size_t>(firstId));
    auto& warnings = profile.warnings;
    if (stats.version != 7)
        warnings.push_back(fmt::format("{} is report format version {}; Ridgeline was checked against version 7 "
                                       "(Nsight Compute 2020.3 to 2024.2)",
            path, stats.version));
    if (stats.textMetrics > 0)
        warnings.push_back(fmt::format("{} text values of {} (e.g. {}) were not imported: metrics are numbers",
            stats.textMetrics, path, quotedField(textExample)));
    if (stats.nonFinite > 0)
        warnings.push_back(
            fmt::format("{} values of {} are not finite numbers and were not imported", stats.nonFinite, path));
    if (stats.badSpeedups > 0)
        warnings.push_back(fmt::format(
            "{} estimated speedups of {} are not numbers of 0 to 100 % and were left out", stats.badSpeedups, path));
    if (!derived.empty()) {
        std::string names;
        for (const auto& name : derived)
            names += (names.empty() ? "" : ", ") + name;
        warnings.push_back(fmt::format("{} holds rates only for {}: these counts are the rate x gpu__time_duration.sum "
                                       "(per_cycle_elapsed rates also x the unit's cycles_elapsed.avg.per_second)",
            path, names));
    }
    return stats;
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
    // Not zero-filled first: every byte is read over (a 200 MB report would be written twice).
    const auto bytes = std::make_unique_for_overwrite<char[]>(static_cast<std::size_t>(size));
    in.seekg(0);
    if (!in.read(bytes.get(), size))
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: cannot be read", path));
    return parseReport(std::string_view(bytes.get(), static_cast<std::size_t>(size)), path, profile);
}

} // namespace ridgeline::collectors::ncu
