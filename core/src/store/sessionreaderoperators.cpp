// SPDX-License-Identifier: MIT
// The session reader's queries of PyTorch operators (schema v2, stored in chunks: operatorchunks.h)
// and the narrow scans that link GPU ops to them (operatorlinks.h).
#include "operatorchunks.h"
#include "sessionreaderimpl.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace ridgeline::core {

using detail::inFile;
using sqlite::Statement;

namespace {

// Decodes the operator_chunks rows `sql` selects (id, count, data), calling visit(row, chunk) per
// operator; a malformed chunk is an error naming it.
template <typename ReaderImpl, typename Visit>
Status forEachOperatorRowOf(ReaderImpl& impl, const char* sql, const std::vector<std::int64_t>& args, Visit&& visit)
{
    bool malformed = false;
    std::int64_t chunk = 0;
    auto status = impl.query(sql, args, [&](Statement& s) {
        chunk = s.columnInt(0);
        malformed = !detail::decodeOperatorChunk(s.columnBlob(2), s.columnInt(1),
            [&](const detail::OperatorValues& values) { visit(detail::rowOf(values), chunk); });
        return !malformed;
    });
    if (status.hasError())
        return status;
    if (malformed)
        return makeError(ErrorCode::BadFile,
            fmt::format("{}: the session's operators are corrupt (operator_chunks row {})", impl.path, chunk));
    return {};
}

// Every operator of the session, chunk by chunk.
template <typename ReaderImpl, typename Visit> Status forEachOperatorRow(ReaderImpl& impl, Visit&& visit)
{
    return forEachOperatorRowOf(impl, "SELECT id, count, data FROM operator_chunks ORDER BY id", {}, visit);
}

// Rows with their strings, in `order` (ids; rows not in it are dropped), or in id order when empty.
Result<std::vector<Operator>> resolveOperators(
    SessionReader& reader, const std::vector<SessionWriter::OperatorRow>& rows, const std::vector<std::int64_t>& order)
{
    std::set<std::int64_t> stringIds;
    for (const auto& r : rows)
        stringIds.insert(
            { r.domainId, r.nameId, r.inputDimsId, r.inputTypesId, r.moduleId, r.callStackId, r.concreteInputsId });
    auto texts = reader.strings({ stringIds.begin(), stringIds.end() });
    if (texts.hasError())
        return texts.error();
    auto text = [&texts](std::int64_t id) {
        auto it = texts.value().find(id);
        return it == texts.value().end() ? std::string() : it->second;
    };
    std::vector<Operator> out;
    out.reserve(rows.size());
    for (const auto& r : rows) {
        out.push_back({ r.id, r.processId, r.threadId, r.parentId, text(r.domainId), text(r.nameId), r.startNs, r.endNs,
            r.externalId, r.sequenceNumber, text(r.inputDimsId), text(r.inputTypesId), text(r.moduleId),
            text(r.callStackId), text(r.concreteInputsId) });
    }
    if (order.empty()) {
        std::sort(out.begin(), out.end(), [](const Operator& a, const Operator& b) { return a.id < b.id; });
    } else {
        std::unordered_map<std::int64_t, std::size_t> position;
        for (std::size_t i = 0; i < order.size(); ++i)
            position.try_emplace(order[i], i);
        std::erase_if(out, [&position](const Operator& op) { return !position.contains(op.id); });
        std::sort(out.begin(), out.end(),
            [&position](const Operator& a, const Operator& b) { return position.at(a.id) < position.at(b.id); });
    }
    return out;
}

} // namespace

Result<bool> SessionReader::hasOperators()
{
    auto any = m_impl->db.queryInt("SELECT EXISTS(SELECT 1 FROM operator_chunks)");
    if (any.hasError())
        return inFile(m_impl->path, any.error());
    return any.value() != 0;
}

Result<bool> SessionReader::mayHaveOperatorShapes()
{
    // '[' is 0x5B and '\\' 0x5C: a range of the strings' UNIQUE index.
    auto any = m_impl->db.queryInt("SELECT EXISTS(SELECT 1 FROM strings WHERE value >= '[' AND value < '\\')");
    if (any.hasError())
        return inFile(m_impl->path, any.error());
    return any.value() != 0;
}

Result<std::vector<Operator>> SessionReader::operators()
{
    return operatorsById({});
}

Result<std::vector<Operator>> SessionReader::operatorsById(const std::vector<std::int64_t>& ids)
{
    // No index over packed operators: one pass keeps those asked for (all when `ids` is empty).
    const bool all = ids.empty();
    const std::unordered_set<std::int64_t> wanted(ids.begin(), ids.end());
    std::vector<SessionWriter::OperatorRow> rows;
    RIDGELINE_TRY(forEachOperatorRow(*m_impl, [&](const SessionWriter::OperatorRow& row, std::int64_t) {
        if (all || wanted.contains(row.id))
            rows.push_back(row);
    }));
    return resolveOperators(*this, rows, all ? std::vector<std::int64_t> {} : ids);
}

Result<std::vector<Operator>> SessionReader::operatorsInChunks(
    const std::vector<std::int64_t>& chunks, const std::vector<std::int64_t>& ids)
{
    const std::unordered_set<std::int64_t> wanted(ids.begin(), ids.end());
    std::vector<SessionWriter::OperatorRow> rows;
    for (const std::int64_t chunk : std::set<std::int64_t>(chunks.begin(), chunks.end())) {
        RIDGELINE_TRY(forEachOperatorRowOf(*m_impl, "SELECT id, count, data FROM operator_chunks WHERE id = ?1",
            { chunk }, [&](const SessionWriter::OperatorRow& row, std::int64_t) {
                if (wanted.contains(row.id))
                    rows.push_back(row);
            }));
    }
    return resolveOperators(*this, rows, ids);
}

Status SessionReader::forEachOperatorSpan(const std::function<void(const OperatorSpan&)>& visit)
{
    return forEachOperatorRow(*m_impl, [&](const SessionWriter::OperatorRow& r, std::int64_t chunk) {
        visit({ r.id, r.processId, r.threadId, r.parentId, r.domainId, r.nameId, r.moduleId, r.startNs, r.endNs,
            r.externalId, chunk, r.inputDimsId, r.inputTypesId, r.concreteInputsId });
    });
}

Status SessionReader::forEachOperatorRecord(const std::function<void(const OperatorRecord&)>& visit)
{
    return forEachOperatorRow(*m_impl, [&](const SessionWriter::OperatorRow& r, std::int64_t) {
        visit({ r.id, r.processId, r.threadId, r.parentId, r.domainId, r.nameId, r.startNs, r.endNs, r.externalId,
            r.sequenceNumber, r.inputDimsId, r.inputTypesId, r.moduleId, r.callStackId, r.concreteInputsId });
    });
}

Status SessionReader::forEachApiCallSpan(const std::function<void(const CallSpan&)>& visit)
{
    return m_impl->query("SELECT process_id, thread_id, correlation_id, external_id, start_ns, end_ns FROM api_calls",
        {}, [&](Statement& s) {
            visit({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4), s.columnInt(5) });
            return true;
        });
}

Result<std::map<std::int64_t, std::string>> SessionReader::strings(const std::vector<std::int64_t>& ids)
{
    std::vector<std::int64_t> wanted(ids); // each id once; 0 names no string
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::erase(wanted, 0);
    std::map<std::int64_t, std::string> out;
    RIDGELINE_TRY(m_impl->lookupEach("SELECT value FROM strings WHERE id = ?1", wanted,
        [&](std::int64_t id, const Statement& s) { out.emplace(id, s.columnText(0)); }));
    return out;
}

} // namespace ridgeline::core
