// SPDX-License-Identifier: MIT
#include "schema.h"

#include "metricblob.h"
#include "operatorchunks.h"
#include "ridgeline/core/store/sessionformat.h"
#include "rowloop.h"

#include <array>
#include <fmt/format.h>
#include <limits>
#include <span>

namespace ridgeline::core::schema {

namespace {

// Schema v1. Times are int64 ns; names are interned (kernel_names, strings, metric_names).
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE devices(
    id INTEGER PRIMARY KEY, host TEXT NOT NULL DEFAULT '', ordinal INTEGER NOT NULL DEFAULT 0,
    uuid TEXT NOT NULL DEFAULT '', name TEXT NOT NULL, cc_major INTEGER NOT NULL DEFAULT 0,
    cc_minor INTEGER NOT NULL DEFAULT 0, sm_count INTEGER NOT NULL DEFAULT 0,
    core_clock_khz INTEGER NOT NULL DEFAULT 0, memory_clock_khz INTEGER NOT NULL DEFAULT 0,
    memory_bytes INTEGER NOT NULL DEFAULT 0, memory_bus_width_bits INTEGER NOT NULL DEFAULT 0,
    l2_cache_bytes INTEGER NOT NULL DEFAULT 0, max_threads_per_sm INTEGER NOT NULL DEFAULT 0,
    shared_memory_per_sm_bytes INTEGER NOT NULL DEFAULT 0,
    nvlink_bandwidth REAL NOT NULL DEFAULT 0, pcie_bandwidth REAL NOT NULL DEFAULT 0);
CREATE TABLE ceilings(
    device_id INTEGER NOT NULL, resource TEXT NOT NULL, source TEXT NOT NULL, value REAL NOT NULL,
    unit TEXT NOT NULL, note TEXT NOT NULL DEFAULT '',
    PRIMARY KEY(device_id, resource, source)) WITHOUT ROWID;
CREATE TABLE processes(
    id INTEGER PRIMARY KEY, pid INTEGER NOT NULL, host TEXT NOT NULL DEFAULT '',
    rank INTEGER NOT NULL DEFAULT -1, world_size INTEGER NOT NULL DEFAULT 0,
    command TEXT NOT NULL DEFAULT '', start_ns INTEGER NOT NULL DEFAULT 0,
    end_ns INTEGER NOT NULL DEFAULT 0, exit_status INTEGER);
CREATE TABLE threads(
    id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, tid INTEGER NOT NULL, name TEXT NOT NULL DEFAULT '');
CREATE TABLE strings(id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);
CREATE TABLE kernel_names(id INTEGER PRIMARY KEY, raw TEXT NOT NULL UNIQUE, demangled TEXT NOT NULL);
CREATE TABLE kernels(
    id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, device_id INTEGER NOT NULL,
    context_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, correlation_id INTEGER NOT NULL,
    name_id INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
    grid_x INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
    block_x INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL,
    registers INTEGER NOT NULL, static_shared INTEGER NOT NULL, dynamic_shared INTEGER NOT NULL,
    graph_id INTEGER NOT NULL);
CREATE TABLE metric_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, unit TEXT NOT NULL DEFAULT '');
CREATE TABLE kernel_metrics(
    kernel_id INTEGER NOT NULL, metric_id INTEGER NOT NULL, value REAL NOT NULL,
    PRIMARY KEY(kernel_id, metric_id)) WITHOUT ROWID;
CREATE TABLE memops(
    id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, device_id INTEGER NOT NULL,
    stream_id INTEGER NOT NULL, correlation_id INTEGER NOT NULL, kind TEXT NOT NULL,
    bytes INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
    src_device_id INTEGER, dst_device_id INTEGER,
    src_memory TEXT NOT NULL DEFAULT '', dst_memory TEXT NOT NULL DEFAULT '');
CREATE TABLE api_calls(
    id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, thread_id INTEGER NOT NULL,
    domain_id INTEGER NOT NULL, name_id INTEGER NOT NULL, correlation_id INTEGER NOT NULL,
    start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, return_code INTEGER NOT NULL DEFAULT 0);
CREATE TABLE nvtx_ranges(
    id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, thread_id INTEGER NOT NULL,
    domain_id INTEGER NOT NULL, name_id INTEGER NOT NULL, start_ns INTEGER NOT NULL,
    end_ns INTEGER NOT NULL, color INTEGER NOT NULL DEFAULT 0, category INTEGER NOT NULL DEFAULT 0);
CREATE TABLE comm_ops(
    id INTEGER PRIMARY KEY, kernel_id INTEGER, process_id INTEGER NOT NULL, device_id INTEGER NOT NULL,
    collective TEXT NOT NULL, bytes INTEGER NOT NULL DEFAULT 0, data_type TEXT NOT NULL DEFAULT '',
    group_size INTEGER NOT NULL DEFAULT 0, root INTEGER NOT NULL DEFAULT -1,
    algorithm TEXT NOT NULL DEFAULT '', protocol TEXT NOT NULL DEFAULT '',
    process_group TEXT NOT NULL DEFAULT '', start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL);
CREATE TABLE verdicts(
    kernel_id INTEGER PRIMARY KEY, verdict TEXT NOT NULL, bound_by TEXT NOT NULL DEFAULT '',
    utilization REAL, reason TEXT NOT NULL DEFAULT '');
)sql";

constexpr const char* kIndexesV1 = R"sql(
CREATE INDEX IF NOT EXISTS kernels_by_device_time ON kernels(device_id, start_ns);
CREATE INDEX IF NOT EXISTS kernels_by_stream_time ON kernels(device_id, stream_id, start_ns);
CREATE INDEX IF NOT EXISTS kernels_by_name ON kernels(name_id);
CREATE INDEX IF NOT EXISTS memops_by_device_time ON memops(device_id, start_ns);
CREATE INDEX IF NOT EXISTS api_calls_by_thread_time ON api_calls(process_id, thread_id, start_ns);
CREATE INDEX IF NOT EXISTS api_calls_by_correlation ON api_calls(process_id, correlation_id);
CREATE INDEX IF NOT EXISTS nvtx_by_thread_time ON nvtx_ranges(process_id, thread_id, start_ns);
CREATE INDEX IF NOT EXISTS comm_ops_by_device_time ON comm_ops(device_id, start_ns);
CREATE INDEX IF NOT EXISTS ncu_rules_by_kernel ON ncu_rules(kernel_id);
)sql";

struct TableSpec {
    const char* name;
    const char* columns; // what this build reads, comma-separated
    int since = 1; // the schema version that added them (a file of an older one lacks them until migrated)
    int until = kSchemaVersion; // the last version that has them (a later migration dropped them)
};

// Every table and column the reader uses; validate() proves them before any query runs.
constexpr std::array kTables {
    TableSpec { "meta", "key, value" },
    TableSpec { "devices",
        "id, host, ordinal, uuid, name, cc_major, cc_minor, sm_count, core_clock_khz, memory_clock_khz, "
        "memory_bytes, memory_bus_width_bits, l2_cache_bytes, max_threads_per_sm, shared_memory_per_sm_bytes, "
        "nvlink_bandwidth, pcie_bandwidth" },
    TableSpec { "ceilings", "device_id, resource, source, value, unit, note" },
    TableSpec { "processes", "id, pid, host, rank, world_size, command, start_ns, end_ns, exit_status" },
    TableSpec { "threads", "id, process_id, tid, name" },
    TableSpec { "strings", "id, value" },
    TableSpec { "kernel_names", "id, raw, demangled" },
    TableSpec { "kernels",
        "id, process_id, device_id, context_id, stream_id, correlation_id, name_id, start_ns, end_ns, "
        "grid_x, grid_y, grid_z, block_x, block_y, block_z, registers, static_shared, dynamic_shared, graph_id" },
    TableSpec { "metric_names", "id, name, unit" },
    TableSpec { "kernel_metrics", "kernel_id, metric_id, value", 1, 2 },
    TableSpec { "memops",
        "id, process_id, device_id, stream_id, correlation_id, kind, bytes, start_ns, end_ns, src_device_id, "
        "dst_device_id, src_memory, dst_memory" },
    TableSpec {
        "api_calls", "id, process_id, thread_id, domain_id, name_id, correlation_id, start_ns, end_ns, return_code" },
    TableSpec { "nvtx_ranges", "id, process_id, thread_id, domain_id, name_id, start_ns, end_ns, color, category" },
    TableSpec { "comm_ops",
        "id, kernel_id, process_id, device_id, collective, bytes, data_type, group_size, root, algorithm, "
        "protocol, process_group, start_ns, end_ns" },
    TableSpec { "verdicts", "kernel_id, verdict, bound_by, utilization, reason" },
    // v2 (operators)
    TableSpec { "operator_chunks", "id, count, data", 2 },
    TableSpec { "api_calls", "external_id", 2 },
    // v2 (collectives): comm_ops.seq.
    TableSpec { "comm_ops", "seq", 2 },
    // v3: a kernel's metric values in one row (metricblob.h).
    TableSpec { "metric_values", "kernel_id, count, data", 3 },
    // v4 (CUDA graphs): kernels.graph_node_id, kernels.graph_range_kernels.
    TableSpec { "kernels", "graph_node_id, graph_range_kernels", 4 },
    // v5: per-rank summaries (cluster/ranksummary.h).
    TableSpec { "rank_summaries", "rank, version, data", 5 },
    // v7: Nsight Compute's rule results ("ncu estimates").
    TableSpec { "ncu_rules", "kernel_id, identifier, name, section, type, message, speedup_type, speedup_pct", 7 },
    // v8: per kernel name and device, the totals of the kernel table (store/kerneltotals.h).
    TableSpec { "kernel_totals", "name_id, device_id, launches, graph_level_launches, total_ns, min_ns, max_ns", 8 },
    TableSpec { "stored_summaries", "name, version", 8 },
    // v9: the whole session's timeline analysis per rank and device (analysis/storedtimeline.h).
    TableSpec { "timeline_summaries", "rank, device_id, verdicts_key, data", 9 },
};

struct Migration {
    int toVersion;
    const char* sql;
    Status (*convert)(sqlite::Database&) = nullptr; // run after `sql`, for what SQL cannot do
};

// Schema v2, operators: the PyTorch profiler's cpu_op and python_function events, nested on their
// thread, in chunks of packed columns (operatorchunks.h; their strings, 0 = empty, in `strings`),
// and the "External id" of API calls that links them.
constexpr const char* kV2Operators = R"sql(
CREATE TABLE operator_chunks(id INTEGER PRIMARY KEY, count INTEGER NOT NULL, data BLOB NOT NULL);
ALTER TABLE api_calls ADD COLUMN external_id INTEGER NOT NULL DEFAULT 0;
)sql";

// Schema v3: a kernel's metric values packed into one `metric_values` row (metricblob.h): an
// Nsight Compute report of 10,000 launches holds 3.3 M values, and a row each made its import
// take seconds. The rows of `kernel_metrics` are converted, then the table is dropped.
constexpr const char* kV3MetricValues = R"sql(
CREATE TABLE metric_values(kernel_id INTEGER PRIMARY KEY, count INTEGER NOT NULL, data BLOB NOT NULL);
)sql";

// Rows of a v1/v2 file are taken as they are, damage included: ids that are not positive
// integers cannot be packed and are left out; a value that is not a number becomes NaN, which
// `check` reports as it reported the text before.
Status packKernelMetrics(sqlite::Database& db)
{
    auto select = db.prepare("SELECT kernel_id, metric_id, CASE WHEN typeof(value) IN ('integer', 'real') THEN value "
                             "END FROM kernel_metrics WHERE typeof(kernel_id) = 'integer' AND typeof(metric_id) = "
                             "'integer' AND metric_id > 0 ORDER BY kernel_id, metric_id");
    if (select.hasError())
        return select.error();
    auto insert = db.prepare("INSERT INTO metric_values(kernel_id, count, data) VALUES(?1, ?2, ?3)");
    if (insert.hasError())
        return insert.error();
    std::vector<detail::MetricEntry> entries;
    std::string blob;
    std::int64_t kernel = 0;
    auto flush = [&]() -> Status {
        if (entries.empty())
            return {};
        detail::encodeMetricBlob(entries, blob);
        auto& s = insert.value();
        s.reset();
        s.bind(1, kernel);
        s.bind(2, static_cast<std::int64_t>(entries.size()));
        s.bindBlob(3, blob);
        entries.clear();
        return s.run();
    };
    auto packed = detail::forEachRow(select.value(), [&](sqlite::Statement& s) -> Status {
        const std::int64_t k = s.columnInt(0);
        if (k != kernel)
            RIDGELINE_TRY(flush());
        kernel = k;
        entries.push_back(
            { s.columnInt(1), s.columnIsNull(2) ? std::numeric_limits<double>::quiet_NaN() : s.columnDouble(2) });
        return {};
    });
    if (packed.hasError())
        return packed;
    RIDGELINE_TRY(flush());
    return db.exec("DROP TABLE kernel_metrics;");
}

// Schema v6: an operator's "Concrete Inputs" (its scalar arguments: a convolution's stride, an
// attention's is_causal), which the shape models read (analysis/shapemodel.h), as a 15th column of
// each operator in its chunk (operatorchunks.h). The chunks of an older file are re-packed with the
// column empty (0). A chunk that cannot be decoded is left as it is: reading it reports it corrupt.
Status addConcreteInputsColumn(sqlite::Database& db)
{
    auto select = db.prepare("SELECT id, count, data FROM operator_chunks WHERE typeof(count) = 'integer'");
    if (select.hasError())
        return select.error();
    auto update = db.prepare("UPDATE operator_chunks SET data = ?2 WHERE id = ?1");
    if (update.hasError())
        return update.error();
    std::vector<std::pair<std::int64_t, std::string>> repacked;
    std::vector<SessionWriter::OperatorRow> rows;
    auto read = detail::forEachRow(select.value(), [&](sqlite::Statement& s) -> Status {
        rows.clear();
        const bool sound = detail::decodeOperatorChunk(
            s.columnBlob(2), s.columnInt(1),
            [&](const detail::OperatorValues& values) { rows.push_back(detail::rowOf(values)); },
            detail::kOperatorColumnsV2);
        if (sound) {
            repacked.emplace_back(s.columnInt(0), std::string());
            detail::encodeOperatorChunk(rows, repacked.back().second);
        }
        return {};
    });
    if (read.hasError())
        return read;
    for (const auto& [id, data] : repacked) {
        auto& s = update.value();
        s.reset();
        s.bind(1, id);
        s.bindBlob(2, data);
        RIDGELINE_TRY(s.run());
    }
    return {};
}

constexpr const char* kV7NcuRules = R"sql(
CREATE TABLE ncu_rules(
    kernel_id INTEGER NOT NULL, identifier TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
    section TEXT NOT NULL DEFAULT '', type TEXT NOT NULL DEFAULT '', message TEXT NOT NULL DEFAULT '',
    speedup_type TEXT NOT NULL DEFAULT '', speedup_pct REAL);
)sql";

// Schema v8: what the writer derives from every launch and stores when it finishes, so that a reader
// does not scan 100 M launches for it. `stored_summaries` names what a session holds, complete, and in
// which version (a name absent: the reader works it out from the rows, as for any older file).
// kernel_totals: one row per kernel name and device (store/kerneltotals.h), stored as "kernel_totals".
constexpr const char* kV8StoredSummaries = R"sql(
CREATE TABLE stored_summaries(name TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE kernel_totals(
    name_id INTEGER NOT NULL, device_id INTEGER NOT NULL, launches INTEGER NOT NULL,
    graph_level_launches INTEGER NOT NULL, total_ns INTEGER NOT NULL, min_ns INTEGER NOT NULL,
    max_ns INTEGER NOT NULL, PRIMARY KEY(name_id, device_id)) WITHOUT ROWID;
)sql";

// Schema v9: the timeline analysis of the whole session, one row per rank and device (the JSON of a
// TimelineSummary, analysis/storedtimeline.h), with a key of the kernels' verdicts it was made with;
// stored as "timeline" by capture, `summarize`, and imports and merges of 1 M GPU ops or more.
constexpr const char* kV9TimelineSummaries = R"sql(
CREATE TABLE timeline_summaries(
    rank INTEGER NOT NULL, device_id INTEGER NOT NULL, verdicts_key INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY(rank, device_id)) WITHOUT ROWID;
)sql";

// Applied in order after v1, by migrate() to older files and by create() to new ones (a new file is
// v1 plus every step). Several self-contained steps may share a version.
constexpr std::array kMigrations {
    Migration { 2, kV2Operators },
    // v2 (collectives): the instance number of a collective within its process group (Kineto's
    // `Seq`), shared by every rank of one instance; -1 = not recorded.
    Migration { 2, "ALTER TABLE comm_ops ADD COLUMN seq INTEGER NOT NULL DEFAULT -1;" },
    Migration { 3, kV3MetricValues, packKernelMetrics },
    // v4 (CUDA graphs): a kernel's graph node (CUPTI graphNodeId; 0 = none) and, for a kernel of a
    // graph launch profiled as one counter range, the number of kernels that range covers (0 = its
    // counters are its own; the values are stored on the launch's first kernel).
    Migration { 4,
        "ALTER TABLE kernels ADD COLUMN graph_node_id INTEGER NOT NULL DEFAULT 0;"
        "ALTER TABLE kernels ADD COLUMN graph_range_kernels INTEGER NOT NULL DEFAULT 0;" },
    // v5: what `ridgeline summarize` and capture store of each rank (cluster/ranksummary.h): a
    // report over thousands of sessions reads these instead of every launch.
    Migration {
        5, "CREATE TABLE rank_summaries(rank INTEGER NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL);" },
    Migration { 6, "", addConcreteInputsColumn },
    // v7: Nsight Compute's own rule results per launch ("ncu estimates": OPT/WRN messages and, from
    // ncu 2024 on, an estimated speedup in percent, local or global; NULL when none).
    Migration { 7, kV7NcuRules },
    Migration { 8, kV8StoredSummaries },
    Migration { 9, kV9TimelineSummaries },
};

} // namespace

Status create(sqlite::Database& db)
{
    RIDGELINE_TRY(db.exec(kSchemaV1));
    for (const auto& step : std::span(kMigrations)) {
        RIDGELINE_TRY(db.exec(step.sql));
        if (step.convert != nullptr)
            RIDGELINE_TRY(step.convert(db));
    }
    const auto stamp = fmt::format("PRAGMA application_id={}; PRAGMA user_version={};", kApplicationId, kSchemaVersion);
    return db.exec(stamp.c_str());
}

Status createIndexes(sqlite::Database& db)
{
    return db.exec(kIndexesV1);
}

Status validate(sqlite::Database& db, int version)
{
    auto lookup = db.prepare("SELECT type, sql FROM sqlite_schema WHERE name = ?1");
    if (lookup.hasError())
        return makeError(
            ErrorCode::BadFile, fmt::format("the session's schema cannot be read ({})", lookup.error().message));
    for (const auto& table : kTables) {
        if (table.since > version || table.until < version)
            continue;
        auto& stmt = lookup.value();
        stmt.reset();
        stmt.bind(1, table.name);
        auto step = stmt.step();
        if (step.hasError())
            return makeError(
                ErrorCode::BadFile, fmt::format("the session's schema cannot be read ({})", step.error().message));
        if (step.value() != sqlite::Statement::Step::Row)
            return makeError(ErrorCode::BadFile, fmt::format("the session has no table '{}'", table.name));
        const std::string type = stmt.columnText(0);
        const std::string sql = stmt.columnText(1);
        if (type != "table" || sql.rfind("CREATE TABLE", 0) != 0)
            return makeError(ErrorCode::BadFile,
                fmt::format("'{}' in the session is a {} and not a plain table; refusing to read it", table.name,
                    type == "table" ? "virtual table" : type));
        // Preparing (not running) a query proves every column exists.
        auto probe = db.prepare(fmt::format("SELECT {} FROM \"{}\" LIMIT 0", table.columns, table.name));
        if (probe.hasError())
            return makeError(ErrorCode::BadFile,
                fmt::format("the session's table '{}' lacks columns this version reads ({})", table.name,
                    probe.error().message));
    }
    return {};
}

Status migrate(sqlite::Database& db, int fromVersion)
{
    if (fromVersion == kSchemaVersion)
        return {};
    if (fromVersion < 1 || fromVersion > kSchemaVersion)
        return makeError(ErrorCode::BadFile, fmt::format("no migration from schema version {}", fromVersion));
    auto transaction = sqlite::Transaction::begin(db);
    if (transaction.hasError())
        return transaction.error();
    for (const auto& step : std::span(kMigrations)) {
        if (step.toVersion <= fromVersion)
            continue;
        RIDGELINE_TRY(db.exec(step.sql));
        if (step.convert != nullptr)
            RIDGELINE_TRY(step.convert(db));
    }
    const auto stamp = fmt::format("PRAGMA user_version={};", kSchemaVersion);
    RIDGELINE_TRY(db.exec(stamp.c_str()));
    return transaction.value().commit();
}

} // namespace ridgeline::core::schema
