// SPDX-License-Identifier: MIT
// Writes a .ridge session: bulk inserts with prepared statements, one transaction per call
// (or per batch), atomic publication of the finished file.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace ridgeline::core {

enum class SessionStatus { Complete, Partial };
const char* toString(SessionStatus status);

struct WriterOptions {
    // Replace a file that already exists at the path (only once finish() succeeds).
    bool replaceExisting = false;
    // Write into "<path>.tmp-<pid>" and rename onto <path> in finish(): a crash or a full disk
    // never leaves a half-written session under the final name. Off for live part files that
    // others read while they grow.
    bool atomic = true;
    // Build the time-range indexes at once instead of in finish() (slower bulk inserts).
    bool indexesUpFront = false;
    // Test hook: limit the database to this many pages to simulate a full disk (0 = no limit).
    std::int64_t maxPageCount = 0;
    // No file at all: the session is built in memory (`path` only names it) and stays open after
    // finish(), for image(). What the fuzz targets import into; `replaceExisting` and `atomic`
    // do not apply.
    bool inMemory = false;
};

class SessionWriter {
public:
    static Result<SessionWriter> create(const std::string& path, const WriterOptions& options = {});

    SessionWriter(SessionWriter&&) noexcept;
    SessionWriter& operator=(SessionWriter&&) noexcept;
    // Without finish(): an atomic writer removes its temporary file; a live one leaves a partial session.
    ~SessionWriter();

    Status setMeta(std::string_view key, std::string_view value);

    // Group several calls below into one transaction (e.g. one CUPTI buffer).
    Status beginBatch();
    Status commitBatch();

    // Device ids are taken as given (0 is the first device); returns the id.
    Result<std::int64_t> addDevice(const Device& device);
    // For every other record an id of 0 means "the next free id"; the first id assigned is returned.
    Result<std::int64_t> addProcess(const Process& process);
    Status addThreads(std::span<const Thread> threads);
    Status addCeilings(std::span<const Ceiling> ceilings);
    // Interns a kernel name; an empty `demangled` is demangled here.
    Result<std::int64_t> internKernelName(std::string_view raw, std::string_view demangled = {});
    Result<std::int64_t> addKernels(std::span<const Kernel> kernels);
    // Metric values, in any order and for any kernels; a value given again for the same kernel
    // and metric (in this call or an earlier one) replaces the earlier one.
    Status addMetrics(std::span<const MetricValue> metrics);
    // The same by interned name: what a bulk importer writes (one name lookup per metric, not per
    // value). A metric's unit is recorded from the first call that gives one.
    Result<std::int64_t> internMetricName(std::string_view name, std::string_view unit = {});
    Status addKernelMetrics(std::int64_t kernelId, std::span<const MetricById> values);
    // Marks kernels already written as part of a CUDA graph launch profiled as one range over
    // `kernels` kernels (Kernel::graphRangeKernels).
    Status setGraphRangeKernels(std::span<const std::int64_t> kernelIds, std::int64_t kernels);
    Result<std::int64_t> addMemOps(std::span<const MemOp> memops);
    Result<std::int64_t> addApiCalls(std::span<const ApiCall> calls);
    Result<std::int64_t> addNvtxRanges(std::span<const NvtxRange> ranges);
    Result<std::int64_t> addCommOps(std::span<const CommOp> ops);
    // Operators with their ids and parents set by the caller (parents may follow their children).
    Status addOperators(std::span<const Operator> ops);
    // The same as rows whose strings are already interned (internString; 0 = empty): what a bulk
    // importer writes, without a string per operator.
    struct OperatorRow {
        std::int64_t id = 0, processId = 0, threadId = 0, parentId = 0, domainId = 0, nameId = 0, startNs = 0,
                     endNs = 0, externalId = 0, sequenceNumber = -1, inputDimsId = 0, inputTypesId = 0, moduleId = 0,
                     callStackId = 0, concreteInputsId = 0;
    };
    Status addOperatorRows(std::span<const OperatorRow> rows);
    // The same in two steps, for an importer that packs its rows on another thread while this
    // writer works: packOperators touches no writer (it may run on any thread), addOperatorChunk
    // stores what it packed. A chunk holds at most kOperatorChunkRows rows, in the order given.
    static constexpr std::size_t kOperatorChunkRows = 4096;
    struct OperatorChunk {
        std::int64_t count = 0;
        std::int64_t longest = 0; // its longest operator's duration
        std::string data; // as stored (core/src/store/operatorchunks.h)
    };
    static Status packOperators(std::span<const OperatorRow> rows, OperatorChunk& chunk);
    Status addOperatorChunk(const OperatorChunk& chunk);
    // The id of a string in the session's string table (added when new); 0 for the empty string.
    Result<std::int64_t> internString(std::string_view value);
    // Replaces the verdicts of the given kernels.
    Status setVerdicts(std::span<const Verdict> verdicts);
    // Nsight Compute's rule results of kernels already written (added, in the order given).
    Status addNcuRules(std::span<const NcuRule> rules);

    // Builds the session's indexes now instead of in finish(): for an importer that has written
    // every row an index covers while others (operator chunks, which none covers) are still being
    // made on another thread. Rows added later are indexed as they go in, only more slowly.
    Status buildIndexes();
    // Marks the session complete or partial, builds indexes, leaves a single self-contained
    // file (no -wal) and, for an atomic writer, publishes it under its final name.
    Status finish(SessionStatus status);

    const std::string& path() const;
    // An in-memory writer's session as the bytes of a .ridge file, once finish() succeeded
    // (SessionReader::openImage reads them); an error before, or for a writer with a file. The
    // bytes are made when asked for: most fuzz inputs never need them.
    Result<std::string> image();
    // An in-memory writer only: empties the session (rows and metadata) back to what create() made,
    // keeping the connection and its compiled statements, so that the fuzz targets import input
    // after input into one session instead of opening one per input. An open batch is rolled back.
    Status reset();

private:
    struct Impl;
    explicit SessionWriter(std::unique_ptr<Impl> impl);
    Status setFirstMeta(); // format, version, creation time, status (partial), host
    std::unique_ptr<Impl> m_impl;
};

} // namespace ridgeline::core
