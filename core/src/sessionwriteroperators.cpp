// SPDX-License-Identifier: MIT
// SessionWriter's operators (schema v2; see sessionwriterimpl.h).
#include "sessionwriterimpl.h"

namespace ridgeline::core {

Status SessionWriter::addOperators(std::span<const Operator> ops)
{
    m_impl->noteDurations("operators", ops);
    return m_impl->inTransaction("operators", [&]() -> Status {
        auto cached = m_impl->statement(
            "INSERT INTO operators(id, process_id, thread_id, parent_id, domain_id, name_id, start_ns, end_ns, "
            "external_id, sequence_number, input_dims_id, input_types_id, module_id, call_stack_id) "
            "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)");
        if (cached.hasError())
            return cached.error();
        Statement& s = *cached.value();
        // Empty strings (most operators have no module or call stack) are 0, not interned.
        auto bindString = [&](int index, const std::string& value) -> Status {
            if (value.empty()) {
                s.bind(index, std::int64_t { 0 });
                return {};
            }
            auto id = m_impl->internString(value);
            if (id.hasError())
                return id.error();
            s.bind(index, id.value());
            return {};
        };
        for (const auto& op : ops) {
            bindId(s, 1, op.id);
            s.bind(2, op.processId);
            s.bind(3, op.threadId);
            s.bind(4, op.parentId);
            RIDGELINE_TRY(bindString(5, op.domain));
            RIDGELINE_TRY(bindString(6, op.name));
            s.bind(7, op.startNs);
            s.bind(8, op.endNs);
            s.bind(9, op.externalId);
            s.bind(10, op.sequenceNumber);
            RIDGELINE_TRY(bindString(11, op.inputDims));
            RIDGELINE_TRY(bindString(12, op.inputTypes));
            RIDGELINE_TRY(bindString(13, op.module));
            RIDGELINE_TRY(bindString(14, op.callStack));
            RIDGELINE_TRY(s.run());
        }
        return {};
    });
}

} // namespace ridgeline::core
