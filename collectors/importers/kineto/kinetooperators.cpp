// SPDX-License-Identifier: MIT
// Nesting of the Kineto importer's operators (kinetointernal.h): one stack of open operators per
// thread, fed in file order, so only the operators still open are held while a trace streams in.
#include "kinetointernal.h"

#include <utility>

namespace ridgeline::collectors::kineto {

namespace {

using Row = OperatorNesting::Row;

bool holds(const Row& outer, const Row& inner)
{
    return outer.startNs <= inner.startNs && inner.endNs <= outer.endNs;
}

} // namespace

void OperatorNesting::add(Row op, std::vector<Row>& settled)
{
    auto& stack = m_open[{ op.processId, op.threadId }];
    op.id = m_nextId++;
    op.parentId = 0;
    // Those that ended by the time it starts hold nothing more. Times are closed intervals (in µs
    // traces a child may start at the very µs its parent ends): one that holds it, or that it holds
    // (both last 0 at the same instant), stays for the nesting below.
    while (!stack.empty() && stack.back().endNs <= op.startNs && !holds(stack.back(), op) && !holds(op, stack.back())) {
        settled.push_back(std::move(stack.back()));
        stack.pop_back();
    }
    // Operators that start with it and end within it came first in the file but are its children.
    std::size_t inside = stack.size();
    while (inside > 0 && holds(op, stack[inside - 1]) && !holds(stack[inside - 1], op))
        --inside;
    if (inside < stack.size())
        stack[inside].parentId = op.id;
    if (inside == 0 || holds(stack[inside - 1], op)) {
        op.parentId = inside == 0 ? 0 : stack[inside - 1].id;
        stack.insert(stack.begin() + static_cast<std::ptrdiff_t>(inside), op);
        return;
    }
    // It overlaps the one below without nesting in it: its parent is the nearest that holds it, and
    // it is settled at once (nothing later nests in it).
    ++m_overlapping;
    for (std::size_t i = inside; i-- > 0;) {
        if (holds(stack[i], op)) {
            op.parentId = stack[i].id;
            break;
        }
    }
    settled.push_back(op);
}

std::int64_t OperatorNesting::finish(std::vector<Row>& settled)
{
    for (auto& [thread, stack] : m_open) {
        for (auto& op : stack)
            settled.push_back(std::move(op));
    }
    m_open.clear();
    return std::exchange(m_overlapping, 0);
}

} // namespace ridgeline::collectors::kineto
