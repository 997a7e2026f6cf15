// SPDX-License-Identifier: MIT
// Shared between the parts of the Nsight Systems importer: the discovered schema of an export
// and the records read from it before they are written as a session.
#pragma once

#include "ridgeline/collectors/importers/importwarning.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sqlite.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {
class SessionWriter;
}

namespace ridgeline::collectors::nsys {

// A timestamp read from the export, kept within +-2^61 ns (73 years) so that no difference of two
// of them (durations, spans) can overflow, whatever a corrupt file holds.
inline std::int64_t timeOf(std::int64_t ns)
{
    constexpr std::int64_t kLimit = std::int64_t { 1 } << 61;
    return ns < -kLimit ? -kLimit : (ns > kLimit ? kLimit : ns);
}

// Which tables and columns the export has. Only plain tables count (no views or virtual tables).
class Schema {
public:
    static core::Result<Schema> discover(core::sqlite::Database& db);

    bool has(std::string_view table) const;
    bool has(std::string_view table, std::string_view column) const;
    // `"column"` when the table has it, else `fallback` (an SQL literal such as "NULL" or "0").
    std::string column(std::string_view table, std::string_view column, std::string_view fallback) const;
    // The first of `columns` the table has, quoted; `fallback` when none.
    std::string firstColumn(
        std::string_view table, std::initializer_list<std::string_view> columns, std::string_view fallback) const;
    // Does the file look like an nsys export at all?
    bool isNsysExport() const;
    // Has it a table whose name starts with `prefix` ("CUPTI_ACTIVITY_KIND_")?
    bool hasTableStartingWith(std::string_view prefix) const;

private:
    std::map<std::string, std::set<std::string>, std::less<>> m_tables;
};

// Text of a StringIds id: "(SELECT value FROM StringIds WHERE id = <expr>)", or "NULL" without StringIds.
std::string stringOf(const Schema& schema, const std::string& idExpression);

// NVTX_EVENTS.eventType values (nsys NvtxEventType).
inline constexpr std::int64_t kNvtxMark = 34;
inline constexpr std::int64_t kNvtxPushPopRange = 59;
inline constexpr std::int64_t kNvtxStartEndRange = 60;
inline constexpr std::int64_t kNvtxDomainCreate = 75;

struct Enums {
    std::map<std::int64_t, core::MemOpKind> copyKinds; // ENUM_CUDA_MEMCPY_OPER, when present
    std::map<std::int64_t, std::string> memoryKinds; // ENUM_CUDA_MEM_KIND, when present
    core::MemOpKind copyKind(std::int64_t id) const;
    std::string memoryKind(std::int64_t id) const;
};
core::Result<Enums> readEnums(core::sqlite::Database& db, const Schema& schema);

// Integer entries of an NVTX payload by entry name ("Message size [bytes]" -> 1048576).
using PayloadValues = std::map<std::string, std::int64_t, std::less<>>;

// An NCCL API call as its NVTX range in the domain "NCCL" records it (the range text is the API
// name, "ncclAllReduce"), with the integer entries of its payload when one could be decoded.
struct NcclCall {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t processId = 0; // pid
    std::int64_t threadId = 0; // tid
    std::string name;
    PayloadValues values;
};

// What an NCCL call tells of the kernel it launched (nsysncclmatch.cpp).
struct NcclArgs {
    std::string collective; // "AllReduce", ... from the API name
    std::int64_t bytes = 0; // S as nccl-tests counts it; 0 when it cannot be told
    int groupSize = 0; // from the communicator's init payload ("No. of ranks"); 0 unknown
    int root = -1;
    std::string processGroup; // the communicator id in hex, "0x..."
};

struct Activity {
    std::map<std::int64_t, core::Device> devices; // by nsys device id (= CUDA device index)
    std::vector<core::Kernel> kernels; // processId holds the pid until the session ids are known
    std::vector<std::pair<std::string, std::string>> kernelNames; // raw, demangled; index = nameId
    std::vector<core::MemOp> memops; // processId holds the pid
    std::vector<core::ApiCall> apiCalls; // processId holds the pid
    std::vector<core::NvtxRange> nvtxRanges; // processId holds the pid
    std::map<std::int64_t, std::string> processNames; // pid -> name (PROCESSES)
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threadNames; // (pid, tid) -> name
    std::int64_t graphLaunches = 0; // kernels that are whole CUDA graph launches (CUPTI_ACTIVITY_KIND_GRAPH_TRACE)
    bool cudaTables = false; // the export has a CUPTI_ACTIVITY_KIND_* table (CUDA was traced)
    std::map<std::string, std::string> exportMeta; // EXPORT_META_DATA / META_DATA_EXPORT
    std::vector<NcclCall> ncclCalls; // NCCL's NVTX ranges, by start
    std::int64_t ncclCallsWithPayload = 0; // those of them whose payload gave values
    std::map<std::size_t, NcclArgs> ncclArgs; // by index into kernels: the call that launched it
    ImportWarnings warnings;
};

core::Status readDevices(core::sqlite::Database& db, const Schema& schema, Activity& activity);
core::Status readKernels(core::sqlite::Database& db, const Schema& schema, Activity& activity);
// Whole CUDA graph launches (`--cuda-graph-trace=graph`), added to the kernels (graphId set, no node).
core::Status readGraphLaunches(core::sqlite::Database& db, const Schema& schema, Activity& activity);
core::Status readMemOps(core::sqlite::Database& db, const Schema& schema, const Enums& enums, Activity& activity);
core::Status readApiCalls(core::sqlite::Database& db, const Schema& schema, Activity& activity);
core::Status readNvtx(core::sqlite::Database& db, const Schema& schema, Activity& activity);
core::Status readProcessInfo(core::sqlite::Database& db, const Schema& schema, Activity& activity);
// NCCL's NVTX ranges and their payloads (binaryData, or the dynamic payload tables).
core::Status readNcclCalls(core::sqlite::Database& db, const Schema& schema, Activity& activity);
// Pairs NCCL calls with the NCCL kernels they launched (fills ncclArgs; warns about the rest).
void matchNcclCalls(Activity& activity);
// Only plain identifiers (letters, digits, '_') read from a file are ever put into SQL.
bool isPlainIdentifier(std::string_view name);

// Everything the importer reads of an open export (a file, or an image in memory for the fuzz
// target). Errors: BadFile when it is not an export or cannot be read.
core::Result<Activity> readExport(core::sqlite::Database& db);
// Writes what was read into `writer`'s session (the caller finishes it); `origin` names the export.
core::Result<NsysImportSummary> writeActivity(core::SessionWriter& writer, Activity& activity, std::string_view origin);

// Runs `sql` and calls `row` for each result row; errors become BadFile naming the table.
core::Status forEachRow(core::sqlite::Database& db, const std::string& sql, std::string_view what,
    const std::function<void(const core::sqlite::Statement&)>& row);

} // namespace ridgeline::collectors::nsys
