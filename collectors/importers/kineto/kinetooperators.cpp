// SPDX-License-Identifier: MIT
// Nesting of the Kineto importer's operators (kinetointernal.h): exact, per thread, in integer
// nanoseconds. Kineto writes a thread's cpu_ops by start time and its python_function events after
// them, so nothing is settled before the trace has ended: the operators are sorted per thread by
// (start, longest first) and nested with one stack.
#include "kinetointernal.h"

#include <algorithm>
#include <utility>

namespace ridgeline::collectors::kineto {

namespace {

using Row = OperatorNesting::Row;

bool holds(const Row& outer, const Row& inner)
{
    return outer.startNs <= inner.startNs && inner.endNs <= outer.endNs;
}

// One that starts inside `open` and ends after it: a partial overlap.
bool crosses(const Row& open, const Row& op)
{
    return open.startNs < op.startNs && op.startNs < open.endNs && open.endNs < op.endNs;
}

} // namespace

void OperatorNesting::add(Row op, bool python)
{
    op.id = static_cast<std::int64_t>(m_rows.size()); // its place in the file, until it has an id
    op.parentId = 0;
    m_rows.push_back(op);
    m_python.push_back(python);
}

std::int64_t OperatorNesting::finish(std::vector<Row>& settled)
{
    // Per thread, by start; of those that start together the longest holds the others; of equal
    // times a Python function holds the operator it calls, else the one first in the file holds.
    std::sort(m_rows.begin(), m_rows.end(), [&](const Row& x, const Row& y) {
        if (x.processId != y.processId)
            return x.processId < y.processId;
        if (x.threadId != y.threadId)
            return x.threadId < y.threadId;
        if (x.startNs != y.startNs)
            return x.startNs < y.startNs;
        if (x.endNs != y.endNs)
            return x.endNs > y.endNs;
        const bool px = m_python[static_cast<std::size_t>(x.id)];
        const bool py = m_python[static_cast<std::size_t>(y.id)];
        return px != py ? px : x.id < y.id;
    });
    m_python.clear();
    m_python.shrink_to_fit();

    std::int64_t overlapping = 0;
    std::vector<std::size_t> stack; // open operators of the current thread, outermost first
    std::vector<bool> crossed(m_rows.size(), false); // it crosses one below it on the stack
    std::size_t crossing = 0; // how many such are on the stack (the stack is then loose)
    // Ids follow the file order: `id` holds the operator's place in the file until the end.
    const std::int64_t firstId = m_nextId;
    const auto idOf = [&](std::size_t k) { return firstId + m_rows[k].id; };
    for (std::size_t k = 0; k < m_rows.size(); ++k) {
        Row& op = m_rows[k];
        if (k > 0 && (m_rows[k - 1].processId != op.processId || m_rows[k - 1].threadId != op.threadId)) {
            stack.clear();
            crossing = 0;
        }
        // Those that ended by the time it starts hold nothing more. Times are closed intervals (in µs
        // traces a child may start at the very µs its parent ends), so one that holds it stays.
        while (!stack.empty() && m_rows[stack.back()].endNs <= op.startNs && !holds(m_rows[stack.back()], op)) {
            crossing -= crossed[stack.back()] ? 1U : 0U;
            stack.pop_back();
        }
        if (stack.empty()) {
            stack.push_back(k);
            continue;
        }
        // Its parent is the innermost open operator that holds it. While the stack is nested, the
        // top holding it means every operator below does too.
        if (crossing == 0 && holds(m_rows[stack.back()], op)) {
            op.parentId = idOf(stack.back());
            stack.push_back(k);
            continue;
        }
        for (std::size_t i = stack.size(); i-- > 0;) {
            const Row& open = m_rows[stack[i]];
            crossed[k] = crossed[k] || crosses(open, op);
            if (op.parentId == 0 && holds(open, op))
                op.parentId = idOf(stack[i]);
        }
        if (crossed[k]) {
            ++overlapping;
            ++crossing;
        }
        stack.push_back(k);
    }
    // Back in file order, which is id order, in place: each swap puts one operator where it belongs.
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        while (static_cast<std::size_t>(m_rows[i].id) != i)
            std::swap(m_rows[i], m_rows[static_cast<std::size_t>(m_rows[i].id)]);
    }
    for (Row& op : m_rows)
        op.id += firstId;
    m_nextId += static_cast<std::int64_t>(m_rows.size());
    if (settled.empty())
        settled = std::move(m_rows);
    else
        settled.insert(settled.end(), m_rows.begin(), m_rows.end());
    m_rows = {};
    return overlapping;
}

} // namespace ridgeline::collectors::kineto
