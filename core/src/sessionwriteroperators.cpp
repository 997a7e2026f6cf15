// SPDX-License-Identifier: MIT
// SessionWriter's operators (schema v2; see sessionwriterimpl.h).
#include "sessionwriterimpl.h"

#include <array>
#include <vector>

namespace ridgeline::core {

Result<std::int64_t> SessionWriter::internString(std::string_view value)
{
    if (value.empty())
        return std::int64_t { 0 };
    return m_impl->internString(value);
}

Status SessionWriter::addOperators(std::span<const Operator> ops)
{
    std::vector<OperatorRow> rows;
    rows.reserve(ops.size());
    for (const auto& op : ops) {
        OperatorRow row { op.id, op.processId, op.threadId, op.parentId, 0, 0, op.startNs, op.endNs, op.externalId,
            op.sequenceNumber, 0, 0, 0, 0 };
        const std::pair<std::int64_t*, const std::string*> strings[] = { { &row.domainId, &op.domain },
            { &row.nameId, &op.name }, { &row.inputDimsId, &op.inputDims }, { &row.inputTypesId, &op.inputTypes },
            { &row.moduleId, &op.module }, { &row.callStackId, &op.callStack } };
        for (const auto& [id, text] : strings) {
            auto interned = internString(*text);
            if (interned.hasError())
                return writeError(interned.error(), "operators");
            *id = interned.value();
        }
        rows.push_back(row);
    }
    return addOperatorRows(rows);
}

Status SessionWriter::addOperatorRows(std::span<const OperatorRow> rows)
{
    auto& longest = m_impl->maxDurations["operators"];
    for (const auto& row : rows) {
        std::int64_t duration = 0; // hostile times saturate instead of overflowing
        if (__builtin_sub_overflow(row.endNs, row.startNs, &duration))
            duration = row.endNs > row.startNs ? std::numeric_limits<std::int64_t>::max() : 0;
        longest = std::max(longest, duration);
    }
    return m_impl->inTransaction("operators", [&]() -> Status {
        auto cached = m_impl->statement(
            "INSERT INTO operators(id, process_id, thread_id, parent_id, domain_id, name_id, start_ns, end_ns, "
            "external_id, sequence_number, input_dims_id, input_types_id, module_id, call_stack_id) "
            "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)");
        if (cached.hasError())
            return cached.error();
        Statement& s = *cached.value();
        // Operators are the most numerous rows of a trace. A binding outlives sqlite3_reset, so a
        // value is bound only when it differs from the previous row's (most columns rarely change).
        std::array<std::int64_t, 15> bound {};
        std::array<bool, 15> isBound {};
        auto bind = [&](int index, std::int64_t value) {
            const auto slot = static_cast<std::size_t>(index);
            if (isBound[slot] && bound[slot] == value)
                return;
            s.bind(index, value);
            bound[slot] = value;
            isBound[slot] = true;
        };
        for (const auto& row : rows) {
            if (row.id == 0) { // "the next free id"
                s.bindNull(1);
                isBound[1] = false;
            } else {
                bind(1, row.id);
            }
            bind(2, row.processId);
            bind(3, row.threadId);
            bind(4, row.parentId);
            bind(5, row.domainId);
            bind(6, row.nameId);
            bind(7, row.startNs);
            bind(8, row.endNs);
            bind(9, row.externalId);
            bind(10, row.sequenceNumber);
            bind(11, row.inputDimsId);
            bind(12, row.inputTypesId);
            bind(13, row.moduleId);
            bind(14, row.callStackId);
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
}

} // namespace ridgeline::core
