// SPDX-License-Identifier: MIT
// Schema discovery of an Nsight Systems export and its enumerations (ENUM_* tables when the
// export has them, NVIDIA's documented values otherwise).
#include "common/sqlitetables.h"
#include "nsysinternal.h"
#include "ridgeline/collectors/importers/nsysimporter.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace ridgeline::collectors {

namespace {

std::string lowered(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// Table names come from the file: only plain identifiers are ever put into SQL.
bool plainIdentifier(std::string_view name)
{
    return !name.empty() && name.size() <= 128
        && std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

} // namespace

namespace nsys {

bool isPlainIdentifier(std::string_view name)
{
    return plainIdentifier(name);
}

core::MemOpKind memOpKindOf(std::int64_t copyKind)
{
    // CUpti_ActivityMemcpyKind: 1 HtoD, 2 DtoH, 3 HtoA, 4 AtoH, 5 AtoA, 6 AtoD, 7 DtoA, 8 DtoD, 9 HtoH, 10 PtoP.
    switch (copyKind) {
    case 1:
    case 3:
        return core::MemOpKind::MemcpyHtoD;
    case 2:
    case 4:
        return core::MemOpKind::MemcpyDtoH;
    case 5:
    case 6:
    case 7:
    case 8:
        return core::MemOpKind::MemcpyDtoD;
    case 9:
        return core::MemOpKind::MemcpyHtoH;
    case 10:
        return core::MemOpKind::MemcpyPtoP;
    default:
        return core::MemOpKind::Other;
    }
}

std::optional<core::MemOpKind> memOpKindOfLabel(std::string_view label)
{
    std::string text = lowered(label);
    if (text.find("peer") != std::string::npos || text.find("ptop") != std::string::npos)
        return core::MemOpKind::MemcpyPtoP;
    // "host-to-device", "host to device", "cuda_memcpy_kind_htod" -> the two ends.
    std::string ends;
    for (std::string_view word : { "htod", "dtoh", "htoa", "atoh", "atoa", "atod", "dtoa", "dtod", "htoh" }) {
        if (text.size() >= word.size() && text.compare(text.size() - word.size(), word.size(), word) == 0)
            ends = std::string(word);
    }
    if (ends.empty()) {
        const auto to = text.find("to");
        if (to == std::string::npos)
            return std::nullopt;
        auto side = [](std::string_view part) -> char {
            if (part.find("host") != std::string_view::npos)
                return 'h';
            if (part.find("device") != std::string_view::npos || part.find("array") != std::string_view::npos)
                return 'd';
            return '?';
        };
        ends = { side(std::string_view(text).substr(0, to)), 't', 'o', side(std::string_view(text).substr(to + 2)) };
    }
    const char src = ends.front() == 'a' ? 'd' : ends.front();
    const char dst = ends.back() == 'a' ? 'd' : ends.back();
    if (src == 'h' && dst == 'd')
        return core::MemOpKind::MemcpyHtoD;
    if (src == 'd' && dst == 'h')
        return core::MemOpKind::MemcpyDtoH;
    if (src == 'd' && dst == 'd')
        return core::MemOpKind::MemcpyDtoD;
    if (src == 'h' && dst == 'h')
        return core::MemOpKind::MemcpyHtoH;
    return std::nullopt;
}

std::string memoryKindOf(std::int64_t kind)
{
    static constexpr const char* kNames[]
        = { "pageable", "pinned", "device", "array", "managed", "device-static", "managed-static" };
    if (kind >= 0 && kind < static_cast<std::int64_t>(std::size(kNames)))
        return kNames[kind];
    return "unknown";
}

std::string memoryKindOfLabel(std::string_view label)
{
    std::string text = lowered(label);
    static constexpr std::string_view kPrefix = "cuda_memopr_memory_kind_";
    if (text.rfind(kPrefix, 0) == 0)
        text.erase(0, kPrefix.size());
    std::replace(text.begin(), text.end(), '_', '-');
    std::replace(text.begin(), text.end(), ' ', '-');
    return text.empty() ? std::string("unknown") : text;
}

core::Result<Schema> Schema::discover(core::sqlite::Database& db)
{
    Schema schema;
    // Every table's columns in one statement: an export holds dozens of tables, and a statement
    // each was two thirds of the time of reading a small export (fuzz_nsys, docs/RELIABILITY.md
    // round 10). Virtual tables run module code when their columns are asked for: they are left
    // out before that.
    RIDGELINE_TRY(forEachRow(db,
        "SELECT t.name, c.name FROM sqlite_schema AS t, pragma_table_info(t.name) AS c "
        "WHERE t.type = 'table' AND lower(substr(coalesce(t.sql, ''), 1, 14)) <> 'create virtual'",
        "the schema", [&](const core::sqlite::Statement& row) {
            const std::string name = row.columnText(0);
            if (plainIdentifier(name))
                schema.m_tables[name].insert(row.columnText(1));
        }));
    return schema;
}

bool Schema::has(std::string_view table) const
{
    return m_tables.find(table) != m_tables.end();
}

bool Schema::has(std::string_view table, std::string_view column) const
{
    auto it = m_tables.find(table);
    return it != m_tables.end() && it->second.count(std::string(column)) > 0;
}

std::string Schema::column(std::string_view table, std::string_view column, std::string_view fallback) const
{
    return has(table, column) ? fmt::format("\"{}\"", column) : std::string(fallback);
}

std::string Schema::firstColumn(
    std::string_view table, std::initializer_list<std::string_view> columns, std::string_view fallback) const
{
    for (auto column : columns) {
        if (has(table, column))
            return fmt::format("\"{}\"", column);
    }
    return std::string(fallback);
}

bool Schema::isNsysExport() const
{
    for (const auto& [name, columns] : m_tables) {
        if (isNsysExportTable(name))
            return true;
    }
    return false;
}

bool Schema::hasTableStartingWith(std::string_view prefix) const
{
    auto it = m_tables.lower_bound(prefix);
    return it != m_tables.end() && std::string_view(it->first).substr(0, prefix.size()) == prefix;
}

std::string stringOf(const Schema& schema, const std::string& idExpression)
{
    if (!schema.has("StringIds", "id") || !schema.has("StringIds", "value") || idExpression == "NULL")
        return "NULL";
    return fmt::format("(SELECT value FROM StringIds WHERE id = {})", idExpression);
}

core::MemOpKind Enums::copyKind(std::int64_t id) const
{
    if (auto it = copyKinds.find(id); it != copyKinds.end())
        return it->second;
    return memOpKindOf(id);
}

std::string Enums::memoryKind(std::int64_t id) const
{
    if (auto it = memoryKinds.find(id); it != memoryKinds.end())
        return it->second;
    return memoryKindOf(id);
}

core::Result<Enums> readEnums(core::sqlite::Database& db, const Schema& schema)
{
    Enums enums;
    // Newer exports: ENUM_x(id, name, label); the name is the stable spelling.
    if (schema.has("ENUM_CUDA_MEMCPY_OPER", "id")) {
        const auto text = schema.firstColumn("ENUM_CUDA_MEMCPY_OPER", { "name", "label" }, "NULL");
        RIDGELINE_TRY(forEachRow(db, fmt::format("SELECT id, {} FROM ENUM_CUDA_MEMCPY_OPER", text),
            "ENUM_CUDA_MEMCPY_OPER", [&](const core::sqlite::Statement& row) {
                if (auto kind = memOpKindOfLabel(row.columnText(1)))
                    enums.copyKinds[row.columnInt(0)] = *kind;
            }));
    }
    if (schema.has("ENUM_CUDA_MEM_KIND", "id")) {
        const auto text = schema.firstColumn("ENUM_CUDA_MEM_KIND", { "name", "label" }, "NULL");
        RIDGELINE_TRY(forEachRow(db, fmt::format("SELECT id, {} FROM ENUM_CUDA_MEM_KIND", text), "ENUM_CUDA_MEM_KIND",
            [&](const core::sqlite::Statement& row) {
                if (!row.columnIsNull(1))
                    enums.memoryKinds[row.columnInt(0)] = memoryKindOfLabel(row.columnText(1));
            }));
    }
    return enums;
}

core::Status forEachRow(core::sqlite::Database& db, const std::string& sql, std::string_view what,
    const std::function<void(const core::sqlite::Statement&)>& row)
{
    auto stmt = db.prepareCached(sql); // kept by the connection: the row fuzzer reads one export again and again
    if (stmt.hasError())
        return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: {}", what, stmt.error().message));
    for (;;) {
        auto step = (*stmt.value()).step();
        if (step.hasError())
            return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: {}", what, step.error().message));
        if (step.value() == core::sqlite::Statement::Step::Done)
            return {};
        row(*stmt.value());
    }
}

} // namespace nsys

} // namespace ridgeline::collectors
