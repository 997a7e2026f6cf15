// SPDX-License-Identifier: MIT
// Reads a .ridge session, validated as untrusted input before any query (ARCHITECTURE §3): errors, not crashes.
// It keeps compiled queries and the small tables it read: one thread at a time (a thread opens its own).
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/kerneltotals.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::core {

namespace sqlite {
class Database;
}

// Ops overlapping [startNs, endNs) on a device and stream; unset fields do not filter.
struct TimeQuery {
    std::optional<std::int64_t> deviceId;
    std::optional<std::int64_t> streamId;
    std::optional<std::int64_t> startNs;
    std::optional<std::int64_t> endNs;
};

struct TableCounts {
    std::int64_t devices = 0, processes = 0, threads = 0, kernelNames = 0, kernels = 0, metrics = 0, memcpys = 0,
                 memsets = 0, apiCalls = 0, nvtxRanges = 0, commOps = 0, verdicts = 0, ceilings = 0, operators = 0,
                 ncuRules = 0;
};

// How long kernel launches waited on the GPU after the host call that launched them (Holistic
// Trace Analysis' "launch delay": kernel start − call start), and what those calls cost the CPU.
// Over the launches whose launching call (same process, same correlation id) is in the session.
struct LaunchDelays {
    std::int64_t launches = 0; // launches with a launching call; 0: none recorded
    double averageNs = 0;
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
    double averageCallNs = 0; // the launching calls' own duration
};

struct TimeSpan {
    std::int64_t startNs = 0; // first GPU op start
    std::int64_t endNs = 0; // last GPU op end
    bool empty = true;
    std::int64_t durationNs() const { return empty ? 0 : saturatingSub(endNs, startNs); }
};

class SessionReader {
public:
    static Result<SessionReader> open(const std::string& path);
    // A session held in memory, e.g. the bytes of a file (the fuzz targets): the same checks as
    // open() on a private read-only copy; nothing is read from or written to the disk. `name`
    // stands for the path in messages.
    static Result<SessionReader> openImage(std::string_view image, const std::string& name);
    // openImage(), on a copy whose rows may be changed through database() between reads (never its
    // schema); forgetCachedRows() after each change. For the row-editing fuzz targets, which read
    // one session thousands of times, each time changed, instead of opening thousands.
    static Result<SessionReader> openEditableImage(std::string_view image, const std::string& name);
    // A second reader of the same file, for work split over threads (a reader is used by one thread
    // at a time). InvalidArgument for a session opened from memory (openImage).
    Result<SessionReader> reopen() const;
    // A second reader for a scan of the ids [first, last] split in two parts on two threads, when
    // that pays: the ids more than 2 M apart, two cores, a session read from a file. nullopt when
    // the scan is better done in one.
    std::optional<SessionReader> readerForSplitScan(std::pair<std::int64_t, std::int64_t> ids) const;
    // Forgets what was cached from the rows (meta, devices, ceilings, processes, threads, kernel
    // names, metric names, counts, the GPU time span, longest durations, derived data).
    void forgetCachedRows();
    // Data a layer above derives from the rows (the analysis' figures from operator shapes), kept
    // for the reader's life under `key` so that the views of one open session derive it once. The
    // reader never looks inside; null when nothing is kept under the key.
    std::shared_ptr<const void> derived(std::string_view key) const;
    void keepDerived(std::string_view key, std::shared_ptr<const void> value);

    SessionReader(SessionReader&&) noexcept;
    SessionReader& operator=(SessionReader&&) noexcept;
    ~SessionReader();

    const std::string& path() const;
    // The schema version the file was written with (it is migrated in memory when older).
    int fileSchemaVersion() const;

    Result<std::map<std::string, std::string>> meta();
    Result<std::vector<Device>> devices();
    Result<std::vector<Ceiling>> ceilings(std::optional<std::int64_t> deviceId = std::nullopt);
    Result<std::vector<Process>> processes();
    Result<std::vector<Thread>> threads();
    Result<std::vector<KernelName>> kernelNames();
    Result<std::vector<Kernel>> kernels(const TimeQuery& query = {});
    // Streams kernels in start order without collecting them; `visit` returns false to stop early.
    Status forEachKernel(const TimeQuery& query, const std::function<bool(const Kernel&)>& visit);
    // The four columns aggregations need, in storage order: a narrow scan several times faster
    // than forEachKernel on large sessions.
    struct KernelTiming {
        std::int64_t deviceId, nameId, startNs, endNs;
        std::int64_t graphRangeKernels = 0; // Kernel::graphRangeKernels
    };
    Status forEachKernelTiming(const std::function<void(const KernelTiming&)>& visit);
    // The same for the kernels whose id is in [fromId, toId]: a part of the table, for a scan split
    // over threads (each with its own reader, reopen()).
    Status forEachKernelTiming(
        std::int64_t fromId, std::int64_t toId, const std::function<void(const KernelTiming&)>& visit);
    // The lowest and the highest kernel id, two lookups in the table's b-tree; nullopt without kernels.
    Result<std::optional<std::pair<std::int64_t, std::int64_t>>> kernelIdRange();
    // The same of the copies and memsets.
    Result<std::optional<std::pair<std::int64_t, std::int64_t>>> memOpIdRange();
    // The totals per kernel name and device the writer stored when it finished the session
    // (store/kerneltotals.h), in (name, device) order; nullopt when the session stores none of this
    // version (older, or written by a writer that failed) or one row cannot be the totals of any
    // launches: then they are worked out from the kernels (`check` reports stored totals that differ).
    Result<std::optional<std::vector<KernelTotals>>> storedKernelTotals();
    // The columns a timeline needs, every kernel in storage order (not time order): also a narrow
    // scan. `visit` returns false to stop early.
    struct KernelPlacement {
        std::int64_t id, processId, deviceId, streamId, correlationId, nameId, startNs, endNs;
    };
    Status forEachKernelPlacement(const std::function<bool(const KernelPlacement&)>& visit);
    // The same for the kernels whose id is in [fromId, toId] (a part of the table, as above).
    Status forEachKernelPlacement(
        std::int64_t fromId, std::int64_t toId, const std::function<bool(const KernelPlacement&)>& visit);
    // A kernel's metric values, by name. Values stored damaged (a row that cannot be decoded, an
    // id with no name) are left out here and in forEachMetric; `check` reports them.
    Result<std::vector<MetricValue>> metrics(std::int64_t kernelId);
    // Every metric of every kernel, ordered by kernel id.
    using MetricVisitor = std::function<void(std::int64_t kernelId, const std::string& name, double value)>;
    Status forEachMetric(const MetricVisitor& visit);
    // Only the metrics whose name `wanted` accepts (asked once per name), e.g. those the roofline
    // analysis reads (core::feedsAnalysis): a report reads 40 of an Nsight Compute launch's 330.
    Status forEachMetric(const std::function<bool(std::string_view name)>& wanted, const MetricVisitor& visit);
    // The kernels with these ids (missing ids are skipped), in the order given.
    Result<std::vector<Kernel>> kernelsById(const std::vector<std::int64_t>& ids);
    // Every launch of one kernel name on one device, in start order (uses the name index).
    Result<std::vector<Kernel>> kernelsOfName(std::int64_t nameId, std::int64_t deviceId);
    Result<std::vector<MemOp>> memOps(const TimeQuery& query = {});
    // The columns a timeline needs of every copy and memset, in storage order (not time order): a
    // narrow scan that neither sorts nor collects (memOps() sorts them all by start and copies every
    // column). `visit` returns false to stop early.
    struct MemOpPlacement {
        std::int64_t id, processId, deviceId, streamId, correlationId;
        MemOpKind kind;
        std::int64_t startNs, endNs;
    };
    Status forEachMemOpPlacement(const std::function<bool(const MemOpPlacement&)>& visit);
    Result<std::vector<ApiCall>> apiCalls(const TimeQuery& query = {});
    // The API call that launched a kernel: of its process, with its correlation id (the earliest,
    // i.e. the runtime call around its driver call); empty when the session has none.
    Result<std::optional<ApiCall>> launchingCall(const Kernel& kernel);
    // Launch delays over every launch of one kernel name on one device (kernels_by_name and
    // api_calls_by_correlation indexes).
    Result<LaunchDelays> launchDelays(std::int64_t nameId, std::int64_t deviceId);
    Result<std::vector<NvtxRange>> nvtxRanges(const TimeQuery& query = {});
    Result<std::vector<CommOp>> commOps(const TimeQuery& query = {});
    // Operators (PyTorch cpu_op / python_function), in id order.
    Result<std::vector<Operator>> operators();
    // Whether the session has any (without reading them).
    Result<bool> hasOperators();
    // False when no operator can carry shapes: no string of the session is JSON array text (as
    // "Input Dims" are). One index probe; true may still find none.
    Result<bool> mayHaveOperatorShapes();
    // The operators with these ids (missing ids are skipped), in the order given. One pass over
    // every operator (they have no index): for a few operators whose chunks are known, use
    // operatorsInChunks.
    Result<std::vector<Operator>> operatorsById(const std::vector<std::int64_t>& ids);
    // The same, reading only the operator_chunks rows `chunks` (OperatorSpan::chunk of each): the
    // operators of a selection without a scan.
    Result<std::vector<Operator>> operatorsInChunks(
        const std::vector<std::int64_t>& chunks, const std::vector<std::int64_t>& ids);
    // Narrow scans, in storage order, for linking GPU ops to operators (operatorlinks.h); names
    // and modules are ids into the session's strings (0: empty), resolved with strings().
    struct OperatorSpan {
        std::int64_t id, processId, threadId, parentId, domainId, nameId, moduleId, startNs, endNs, externalId;
        std::int64_t chunk; // the operator_chunks row that holds it
        std::int64_t inputDimsId, inputTypesId, concreteInputsId; // what the shape models read (shapemodel.h)
    };
    Status forEachOperatorSpan(const std::function<void(const OperatorSpan&)>& visit);
    // Every column of every operator, in storage order, texts as string ids (0: none).
    struct OperatorRecord {
        std::int64_t id, processId, threadId, parentId, domainId, nameId, startNs, endNs, externalId, sequenceNumber,
            inputDimsId, inputTypesId, moduleId, callStackId, concreteInputsId;
    };
    Status forEachOperatorRecord(const std::function<void(const OperatorRecord&)>& visit);
    struct CallSpan {
        std::int64_t processId, threadId, correlationId, externalId, startNs, endNs;
    };
    Status forEachApiCallSpan(const std::function<void(const CallSpan&)>& visit);
    // Interned strings by id; 0 and unknown ids are left out.
    Result<std::map<std::int64_t, std::string>> strings(const std::vector<std::int64_t>& ids);
    Result<std::vector<Verdict>> verdicts();
    // Nsight Compute's rule results (schema v7; none in older files), ordered by kernel id, then as
    // stored; of one kernel when `kernelId` is given. A speedup that is not a finite number in
    // [0, 100] is read as none; `check` reports it.
    Result<std::vector<NcuRule>> ncuRules(std::optional<std::int64_t> kernelId = std::nullopt);

    Result<TableCounts> counts();
    Result<TimeSpan> gpuTimeSpan();
    // Full page-level consistency check (PRAGMA quick_check): finds truncation and corruption
    // that opening alone does not read. Empty when the file is sound.
    Result<std::vector<std::string>> integrityProblems();
    // The open database, at the current schema (an older file is read from a migrated copy): for
    // core's value checks, which are SQL over every table. Read only.
    sqlite::Database& database();

private:
    struct Impl;
    explicit SessionReader(std::unique_ptr<Impl> impl);
    static Result<SessionReader> openImageAs(std::string_view image, const std::string& name, bool editable);
    // The lowest and highest id that `sql` ("SELECT min(id), max(id) FROM ...") finds.
    Result<std::optional<std::pair<std::int64_t, std::int64_t>>> idRangeOf(const char* sql);
    std::unique_ptr<Impl> m_impl;
};

} // namespace ridgeline::core
