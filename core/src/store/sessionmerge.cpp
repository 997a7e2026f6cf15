// SPDX-License-Identifier: MIT
// Merging sessions: every input's ids are shifted past those of the inputs before it, so that
// references between tables (kernel -> device, process, name; metric, verdict, comm op -> kernel)
// stay right and nothing collides.
#include "ridgeline/core/store/sessionmerge.h"

#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <set>
#include <unordered_map>

namespace ridgeline::core {

namespace {

constexpr std::size_t kBatch = 10'000;

// Added to an input's ids; advanced past its largest id once the input is written.
struct Offsets {
    std::int64_t device = 0;
    std::int64_t process = 0;
    std::int64_t kernel = 0;
    std::int64_t op = 0; // operators
};

struct Largest {
    std::int64_t device = -1;
    std::int64_t process = 0;
    std::int64_t kernel = 0;
};

std::string identity(const std::string& path)
{
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : canonical.string();
}

Status checkPaths(const std::vector<std::string>& inputs, const std::string& output)
{
    if (inputs.size() < 2)
        return makeError(ErrorCode::InvalidArgument, "merge needs at least two sessions");
    std::error_code ec;
    const auto out = identity(output);
    std::set<std::string> seen;
    for (const auto& input : inputs) {
        const auto in = identity(input);
        if (in == out || std::filesystem::equivalent(input, output, ec))
            return makeError(ErrorCode::InvalidArgument,
                fmt::format("{} is both an input and the output: a session cannot be merged into itself", input));
        if (!seen.insert(in).second)
            return makeError(
                ErrorCode::InvalidArgument, fmt::format("{} is given twice: each session is merged once", input));
    }
    return {};
}

// Ids a merge can renumber: not negative, and far from overflowing once shifted.
constexpr std::int64_t kMaxId = std::int64_t { 1 } << 62;

bool mergeable(std::int64_t id, std::int64_t offset)
{
    return id >= 0 && id <= kMaxId - offset;
}

Error idsOutOfRange(std::string_view table)
{
    return makeError(ErrorCode::BadFile,
        fmt::format("the {} table has ids out of range (negative or above 2^62): they cannot be renumbered", table));
}

// Wrapping addition: a reference to a row that does not exist stays dangling, never overflows.
std::int64_t plus(std::int64_t id, std::int64_t offset)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(id) + static_cast<std::uint64_t>(offset));
}

std::optional<std::int64_t> shifted(const std::optional<std::int64_t>& id, std::int64_t offset)
{
    if (!id)
        return std::nullopt;
    return plus(*id, offset);
}

Status copyKernels(SessionReader& reader, SessionWriter& writer, const Offsets& offsets,
    const std::unordered_map<std::int64_t, std::int64_t>& names, Largest& largest)
{
    std::vector<Kernel> batch;
    Status failed;
    auto flush = [&]() -> bool {
        if (batch.empty())
            return true;
        auto added = writer.addKernels(batch);
        batch.clear();
        if (added.hasError()) {
            failed = added.error();
            return false;
        }
        return true;
    };
    RIDGELINE_TRY(reader.forEachKernel({}, [&](const Kernel& kernel) {
        if (!mergeable(kernel.id, offsets.kernel)) {
            failed = idsOutOfRange("kernels");
            return false;
        }
        Kernel k = kernel;
        largest.kernel = std::max(largest.kernel, k.id);
        k.id = plus(k.id, offsets.kernel);
        k.deviceId = plus(k.deviceId, offsets.device);
        k.processId = plus(k.processId, offsets.process);
        if (auto it = names.find(k.nameId); it != names.end())
            k.nameId = it->second;
        batch.push_back(k);
        return batch.size() < kBatch || flush();
    }));
    RIDGELINE_TRY(failed);
    if (!flush())
        return failed;
    return {};
}

Status copyMetrics(SessionReader& reader, SessionWriter& writer, std::int64_t kernelOffset)
{
    std::vector<MetricValue> batch;
    std::map<std::string, std::int64_t> firstKernel; // metric name -> a kernel that has it (old id)
    Status failed;
    RIDGELINE_TRY(reader.forEachMetric([&](std::int64_t kernelId, const std::string& name, double value) {
        if (failed.hasError())
            return;
        firstKernel.try_emplace(name, kernelId);
        batch.push_back({ plus(kernelId, kernelOffset), name, value, {} });
        if (batch.size() >= kBatch) {
            failed = writer.addMetrics(batch);
            batch.clear();
        }
    }));
    RIDGELINE_TRY(failed);
    RIDGELINE_TRY(writer.addMetrics(batch));
    // Units: one value of each metric again, now with its unit (the writer records it once).
    std::vector<MetricValue> withUnits;
    for (const auto& [name, kernelId] : firstKernel) {
        auto values = reader.metrics(kernelId);
        if (values.hasError())
            return values.error();
        for (const auto& v : values.value()) {
            if (v.name == name && !v.unit.empty())
                withUnits.push_back({ plus(kernelId, kernelOffset), v.name, v.value, v.unit });
        }
    }
    return writer.addMetrics(withUnits);
}

template <typename T>
Status addAll(
    std::vector<T>& records, Result<std::int64_t> (SessionWriter::*add)(std::span<const T>), SessionWriter& writer)
{
    for (auto& r : records)
        r.id = 0; // referenced by nothing: the writer numbers them
    auto added = (writer.*add)(records);
    if (added.hasError())
        return added.error();
    return {};
}

// Copies the records that keep their own ids (devices, processes), shifted by `offset`; `largest`
// is raised to the largest id read.
template <typename T>
Status copyNumbered(Result<std::vector<T>> records, const char* table, std::int64_t offset, std::int64_t& largest,
    Result<std::int64_t> (SessionWriter::*add)(const T&), SessionWriter& writer)
{
    if (records.hasError())
        return records.error();
    for (auto r : records.value()) {
        if (!mergeable(r.id, offset))
            return idsOutOfRange(table);
        largest = std::max(largest, r.id);
        r.id = plus(r.id, offset);
        if (auto added = (writer.*add)(r); added.hasError())
            return added.error();
    }
    return {};
}

// Copies one input; `complete` is cleared when the input is partial.
Status copySession(SessionReader& reader, SessionWriter& writer, Offsets& offsets, bool& complete)
{
    auto meta = reader.meta();
    if (meta.hasError())
        return meta.error();
    if (auto it = meta.value().find(metakey::Status); it == meta.value().end() || it->second != "complete")
        complete = false;

    Largest largest;
    RIDGELINE_TRY(
        copyNumbered(reader.devices(), "devices", offsets.device, largest.device, &SessionWriter::addDevice, writer));
    auto ceilings = reader.ceilings();
    if (ceilings.hasError())
        return ceilings.error();
    for (auto& c : ceilings.value())
        c.deviceId = plus(c.deviceId, offsets.device);
    RIDGELINE_TRY(writer.addCeilings(ceilings.value()));

    RIDGELINE_TRY(copyNumbered(
        reader.processes(), "processes", offsets.process, largest.process, &SessionWriter::addProcess, writer));
    auto threads = reader.threads();
    if (threads.hasError())
        return threads.error();
    for (auto& t : threads.value()) {
        t.id = 0;
        t.processId = plus(t.processId, offsets.process);
    }
    RIDGELINE_TRY(writer.addThreads(threads.value()));

    // Kernel names are shared: the same raw name in two inputs is one name.
    auto names = reader.kernelNames();
    if (names.hasError())
        return names.error();
    std::unordered_map<std::int64_t, std::int64_t> nameIds;
    for (const auto& n : names.value()) {
        auto id = writer.internKernelName(n.raw, n.demangled);
        if (id.hasError())
            return id.error();
        nameIds[n.id] = id.value();
    }
    RIDGELINE_TRY(copyKernels(reader, writer, offsets, nameIds, largest));
    RIDGELINE_TRY(copyMetrics(reader, writer, offsets.kernel));
    auto verdicts = reader.verdicts();
    if (verdicts.hasError())
        return verdicts.error();
    for (auto& v : verdicts.value())
        v.kernelId = plus(v.kernelId, offsets.kernel);
    RIDGELINE_TRY(writer.setVerdicts(verdicts.value()));
    auto ncuRules = reader.ncuRules();
    if (ncuRules.hasError())
        return ncuRules.error();
    for (auto& r : ncuRules.value())
        r.kernelId = plus(r.kernelId, offsets.kernel);
    RIDGELINE_TRY(writer.addNcuRules(ncuRules.value()));

    auto memops = reader.memOps();
    if (memops.hasError())
        return memops.error();
    for (auto& m : memops.value()) {
        m.processId = plus(m.processId, offsets.process);
        m.deviceId = plus(m.deviceId, offsets.device);
        m.srcDeviceId = shifted(m.srcDeviceId, offsets.device);
        m.dstDeviceId = shifted(m.dstDeviceId, offsets.device);
    }
    RIDGELINE_TRY(addAll(memops.value(), &SessionWriter::addMemOps, writer));
    auto calls = reader.apiCalls();
    if (calls.hasError())
        return calls.error();
    for (auto& c : calls.value())
        c.processId = plus(c.processId, offsets.process); // threadId is the OS thread id, not a row id
    RIDGELINE_TRY(addAll(calls.value(), &SessionWriter::addApiCalls, writer));
    auto ranges = reader.nvtxRanges();
    if (ranges.hasError())
        return ranges.error();
    for (auto& r : ranges.value())
        r.processId = plus(r.processId, offsets.process);
    RIDGELINE_TRY(addAll(ranges.value(), &SessionWriter::addNvtxRanges, writer));
    auto comms = reader.commOps();
    if (comms.hasError())
        return comms.error();
    for (auto& c : comms.value()) {
        c.kernelId = shifted(c.kernelId, offsets.kernel);
        c.processId = plus(c.processId, offsets.process);
        c.deviceId = plus(c.deviceId, offsets.device);
    }
    RIDGELINE_TRY(addAll(comms.value(), &SessionWriter::addCommOps, writer));
    auto ops = reader.operators();
    if (ops.hasError())
        return ops.error();
    std::int64_t largestOp = 0;
    for (auto& op : ops.value()) {
        largestOp = std::max(largestOp, op.id);
        op.id = plus(op.id, offsets.op);
        op.parentId = op.parentId == 0 ? 0 : plus(op.parentId, offsets.op);
        op.processId = plus(op.processId, offsets.process);
    }
    RIDGELINE_TRY(writer.addOperators(ops.value()));

    offsets.op += largestOp;
    offsets.device += largest.device + 1;
    offsets.process += largest.process;
    offsets.kernel += largest.kernel;
    return {};
}

} // namespace

Status mergeSessions(const std::vector<std::string>& inputs, const std::string& output, bool overwrite)
{
    RIDGELINE_TRY(checkPaths(inputs, output));
    // Every input is opened (and so validated) before anything is written.
    std::vector<SessionReader> readers;
    for (const auto& input : inputs) {
        auto reader = SessionReader::open(input);
        if (reader.hasError())
            return reader.error();
        readers.push_back(std::move(reader.value()));
    }
    WriterOptions options;
    options.replaceExisting = overwrite;
    auto created = SessionWriter::create(output, options);
    if (created.hasError())
        return created.error();
    auto& writer = created.value();
    RIDGELINE_TRY(writer.beginBatch());
    std::string origin;
    for (const auto& input : inputs)
        origin += (origin.empty() ? "" : ", ") + std::filesystem::path(input).filename().string();
    RIDGELINE_TRY(writer.setMeta(metakey::Source, "merge"));
    RIDGELINE_TRY(writer.setMeta(metakey::Origin, origin));
    Offsets offsets;
    bool complete = true;
    for (std::size_t i = 0; i < readers.size(); ++i) {
        auto copied = copySession(readers[i], writer, offsets, complete);
        if (copied.hasError())
            return makeError(copied.error().code, fmt::format("{}: {}", inputs[i], copied.error().message));
    }
    RIDGELINE_TRY(writer.commitBatch());
    return writer.finish(complete ? SessionStatus::Complete : SessionStatus::Partial);
}

} // namespace ridgeline::core
