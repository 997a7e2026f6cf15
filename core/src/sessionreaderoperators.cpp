// SPDX-License-Identifier: MIT
// The session reader's queries of PyTorch operators (schema v2) and the narrow scans that link GPU
// ops to them (operatorlinks.h).
#include "sessionreaderimpl.h"

namespace ridgeline::core {

using detail::inFile;
using sqlite::Statement;

namespace {

constexpr const char* kOperatorColumns
    = "id, process_id, thread_id, parent_id, (SELECT value FROM strings WHERE id = domain_id), "
      "(SELECT value FROM strings WHERE id = name_id), start_ns, end_ns, external_id, sequence_number, "
      "(SELECT value FROM strings WHERE id = input_dims_id), (SELECT value FROM strings WHERE id = input_types_id), "
      "(SELECT value FROM strings WHERE id = module_id), (SELECT value FROM strings WHERE id = call_stack_id)";

Operator operatorFromRow(const Statement& s)
{
    Operator op;
    op.id = s.columnInt(0);
    op.processId = s.columnInt(1);
    op.threadId = s.columnInt(2);
    op.parentId = s.columnInt(3);
    op.domain = s.columnText(4);
    op.name = s.columnText(5);
    op.startNs = s.columnInt(6);
    op.endNs = s.columnInt(7);
    op.externalId = s.columnInt(8);
    op.sequenceNumber = s.columnInt(9);
    op.inputDims = s.columnText(10);
    op.inputTypes = s.columnText(11);
    op.module = s.columnText(12);
    op.callStack = s.columnText(13);
    return op;
}

} // namespace

Result<std::vector<Operator>> SessionReader::operators()
{
    return m_impl->collect<Operator>(
        fmt::format("SELECT {} FROM operators ORDER BY id", kOperatorColumns), {}, operatorFromRow);
}

Result<std::vector<Operator>> SessionReader::operatorsById(const std::vector<std::int64_t>& ids)
{
    auto stmt = m_impl->prepare(fmt::format("SELECT {} FROM operators WHERE id = ?1", kOperatorColumns));
    if (stmt.hasError())
        return stmt.error();
    std::vector<Operator> out;
    out.reserve(ids.size());
    for (const auto id : ids) {
        auto& s = stmt.value();
        s.reset();
        s.bind(1, id);
        auto step = s.step();
        if (step.hasError())
            return inFile(m_impl->path, step.error());
        if (step.value() == Statement::Step::Row)
            out.push_back(operatorFromRow(s));
    }
    return out;
}

Status SessionReader::forEachOperatorSpan(const std::function<void(const OperatorSpan&)>& visit)
{
    return m_impl->query("SELECT id, process_id, thread_id, parent_id, domain_id, name_id, module_id, start_ns, "
                         "end_ns, external_id FROM operators",
        {}, [&](Statement& s) {
            visit({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4), s.columnInt(5),
                s.columnInt(6), s.columnInt(7), s.columnInt(8), s.columnInt(9) });
            return true;
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
    auto stmt = m_impl->prepare("SELECT value FROM strings WHERE id = ?1");
    if (stmt.hasError())
        return stmt.error();
    std::map<std::int64_t, std::string> out;
    for (const auto id : ids) {
        if (id == 0 || out.contains(id))
            continue;
        auto& s = stmt.value();
        s.reset();
        s.bind(1, id);
        auto step = s.step();
        if (step.hasError())
            return inFile(m_impl->path, step.error());
        if (step.value() == Statement::Step::Row)
            out.emplace(id, s.columnText(0));
    }
    return out;
}

} // namespace ridgeline::core
