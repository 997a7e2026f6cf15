// SPDX-License-Identifier: MIT
// Nesting of the Kineto importer's operators (kinetointernal.h): exact, per thread, in integer
// nanoseconds. Kineto writes a thread's cpu_ops by start time and its python_function events after
// them, so nothing is settled before the trace has ended: each thread's operators are sorted by
// (start, longest first) and nested with one stack.
//
// Held until then, per operator: a 20-byte sort key in its thread's list, and its other columns as
// varints in one byte stream in file order (11 bytes on a real trace), not a 120-byte row. The sort
// takes the runs the file already has (a thread's cpu_ops are one, its python_functions another)
// and merges them, so a real trace sorts in about linear time.
#include "kinetointernal.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <utility>

namespace ridgeline::collectors::kineto {

namespace {

using Row = OperatorNesting::Row;

// The session's chunk of operators (core/src/store/operatorchunks.h): spans of this size make the
// same chunks as one call with every row.
constexpr std::size_t kRowsPerSpan = 4096;
constexpr std::uint32_t kNotPython = 0x80000000U; // in Key::order: of equal times, Python first
constexpr std::size_t kMaxOperators = kNotPython; // file indexes fit in the order's low 31 bits

#pragma pack(push, 4)
struct Key {
    std::int64_t start;
    std::int64_t end;
    std::uint32_t order; // kNotPython for a cpu_op, | its index in the file (of this trace)
    std::uint32_t index() const { return order & ~kNotPython; }
};
#pragma pack(pop)
static_assert(sizeof(Key) == 20);

// Per thread by start; of those that start together the longest holds the others; of equal times
// a Python function holds the operator it calls, else the one first in the file holds.
bool before(const Key& x, const Key& y)
{
    if (x.start != y.start)
        return x.start < y.start;
    if (x.end != y.end)
        return x.end > y.end;
    return x.order < y.order;
}

bool holds(const Key& outer, const Key& inner)
{
    return outer.start <= inner.start && inner.end <= outer.end;
}

// One that starts inside `open` and ends after it: a partial overlap.
bool crosses(const Key& open, const Key& op)
{
    return open.start < op.start && op.start < open.end && open.end < op.end;
}

// Sorts by merging the runs already in order, pairwise, until one is left; a list of many short
// runs (no real trace) is sorted whole.
void sortKeys(std::vector<Key>& keys)
{
    std::vector<std::size_t> bounds { 0 };
    for (std::size_t i = 1; i < keys.size(); ++i) {
        if (before(keys[i], keys[i - 1]))
            bounds.push_back(i);
    }
    bounds.push_back(keys.size());
    if (bounds.size() > 2 + keys.size() / 64) {
        std::sort(keys.begin(), keys.end(), before);
        return;
    }
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged { 0 };
        for (std::size_t j = 0; j + 1 < bounds.size(); j += 2) {
            const std::size_t last = std::min(j + 2, bounds.size() - 1);
            std::inplace_merge(keys.begin() + static_cast<std::ptrdiff_t>(bounds[j]),
                keys.begin() + static_cast<std::ptrdiff_t>(bounds[j + 1]),
                keys.begin() + static_cast<std::ptrdiff_t>(bounds[last]), before);
            merged.push_back(bounds[last]);
        }
        bounds = std::move(merged);
    }
}

// The nesting of one thread's keys, sorted: each operator's parent (file index + 1; 0 at top level)
// into `parents`; returns how many cross an operator open on the thread.
std::int64_t nestThread(const std::vector<Key>& keys, std::vector<std::uint32_t>& parents)
{
    std::int64_t overlapping = 0;
    std::vector<std::size_t> stack; // open operators, outermost first
    std::vector<bool> crossed(keys.size(), false); // it crosses one below it on the stack
    std::size_t crossing = 0; // how many such are on the stack (the stack is then loose)
    const auto parentOf = [&](std::size_t k) { return keys[k].index() + 1; };
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const Key& op = keys[k];
        std::uint32_t& parent = parents[op.index()];
        // Those that ended by the time it starts hold nothing more. Times are closed intervals (in µs
        // traces a child may start at the very µs its parent ends), so one that holds it stays.
        while (!stack.empty() && keys[stack.back()].end <= op.start && !holds(keys[stack.back()], op)) {
            crossing -= crossed[stack.back()] ? 1U : 0U;
            stack.pop_back();
        }
        if (stack.empty()) {
            stack.push_back(k);
            continue;
        }
        // Its parent is the innermost open operator that holds it. While the stack is nested, the
        // top holding it means every operator below does too.
        if (crossing == 0 && holds(keys[stack.back()], op)) {
            parent = parentOf(stack.back());
            stack.push_back(k);
            continue;
        }
        for (std::size_t i = stack.size(); i-- > 0;) {
            const Key& open = keys[stack[i]];
            crossed[k] = crossed[k] || crosses(open, op);
            if (parent == 0 && holds(open, op))
                parent = parentOf(stack[i]);
        }
        if (crossed[k]) {
            ++overlapping;
            ++crossing;
        }
        stack.push_back(k);
    }
    return overlapping;
}

std::uint64_t zigzag(std::int64_t value)
{
    return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}

std::int64_t unzigzag(std::uint64_t value)
{
    return static_cast<std::int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

// b - a and a + d, wrapping: hostile times may be any 64-bit values.
std::uint64_t difference(std::int64_t a, std::int64_t b)
{
    return zigzag(static_cast<std::int64_t>(static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a)));
}

std::int64_t plus(std::int64_t a, std::uint64_t zigzagged)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(unzigzag(zigzagged)));
}

// Varints appended to blocks of 1 MB (no copy of what is held when it grows), read back in order.
class ByteStream {
public:
    static constexpr std::size_t kRoom = 12 * 10; // the most one row takes: 12 varints of <= 10 bytes

    void reserveRow()
    {
        if (m_blocks.empty() || static_cast<std::size_t>(m_limit - m_at) < kRoom) {
            if (!m_blocks.empty())
                m_sizes.push_back(static_cast<std::size_t>(m_at - m_blocks.back().get()));
            m_blocks.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(kBlockBytes));
            m_at = m_blocks.back().get();
            m_limit = m_at + kBlockBytes;
        }
    }
    void put(std::uint64_t value)
    {
        while (value >= 0x80) {
            *m_at++ = static_cast<std::uint8_t>(value | 0x80);
            value >>= 7;
        }
        *m_at++ = static_cast<std::uint8_t>(value);
    }
    // Done writing: reading starts at the first block.
    void rewind()
    {
        if (!m_blocks.empty())
            m_sizes.push_back(static_cast<std::size_t>(m_at - m_blocks.back().get()));
        m_block = 0;
        m_at = m_blocks.empty() ? nullptr : m_blocks.front().get();
        m_limit = m_blocks.empty() ? nullptr : m_at + m_sizes.front();
    }
    // Reading: the next varint; blocks already read are freed.
    std::uint64_t get()
    {
        while (m_at == m_limit) {
            m_blocks[m_block].reset();
            ++m_block;
            m_at = m_blocks[m_block].get();
            m_limit = m_at + m_sizes[m_block];
        }
        std::uint64_t value = 0;
        for (int shift = 0;; shift += 7) {
            const std::uint8_t byte = *m_at++;
            value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0)
                return value;
        }
    }
    void clear() { *this = {}; }

private:
    static constexpr std::size_t kBlockBytes = std::size_t { 1 } << 20;
    std::vector<std::unique_ptr<std::uint8_t[]>> m_blocks;
    std::vector<std::size_t> m_sizes; // bytes written in each block
    std::size_t m_block = 0;
    std::uint8_t* m_at = nullptr;
    std::uint8_t* m_limit = nullptr;
};

// A thread's keys as added, in blocks of 64 Ki (1.25 MB): no list is copied as it grows, and
// none holds twice the room it needs.
class KeyBlocks {
public:
    void push_back(const Key& key)
    {
        if (m_blocks.empty() || m_blocks.back().size() == kBlockKeys) {
            m_blocks.emplace_back();
            m_blocks.back().reserve(kBlockKeys);
        }
        m_blocks.back().push_back(key);
        ++m_size;
    }
    // All of them in one list, each block freed once copied.
    std::vector<Key> take()
    {
        std::vector<Key> keys;
        keys.reserve(m_size);
        for (auto& block : m_blocks) {
            keys.insert(keys.end(), block.begin(), block.end());
            block = {};
        }
        *this = {};
        return keys;
    }

private:
    static constexpr std::size_t kBlockKeys = std::size_t { 1 } << 16;
    std::vector<std::vector<Key>> m_blocks;
    std::size_t m_size = 0;
};

struct Thread {
    std::int64_t processId = 0, threadId = 0;
    KeyBlocks keys;
};

} // namespace

struct OperatorNesting::Impl {
    std::int64_t nextId = 1;
    std::vector<Thread> threads;
    std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> threadIndex;
    std::uint32_t lastThread = 0;
    ByteStream columns; // per operator in file order: thread, then the columns of writeColumns
    std::size_t count = 0;
    Row previous; // the columns stored as differences from the operator before

    std::uint32_t threadOf(std::int64_t processId, std::int64_t threadId)
    {
        if (lastThread < threads.size() && threads[lastThread].processId == processId
            && threads[lastThread].threadId == threadId)
            return lastThread;
        const auto [it, added]
            = threadIndex.try_emplace({ processId, threadId }, static_cast<std::uint32_t>(threads.size()));
        if (added)
            threads.push_back({ processId, threadId, {} });
        lastThread = it->second;
        return lastThread;
    }
};

OperatorNesting::OperatorNesting(std::int64_t firstId)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->nextId = firstId;
}

OperatorNesting::~OperatorNesting() = default;

core::Status OperatorNesting::add(const Row& op, bool python)
{
    Impl& d = *m_impl;
    if (d.count >= kMaxOperators)
        return core::makeError(core::ErrorCode::InvalidArgument,
            fmt::format("a trace holds more than {} operators, the most Ridgeline nests", kMaxOperators));
    const std::uint32_t thread = d.threadOf(op.processId, op.threadId);
    const auto index = static_cast<std::uint32_t>(d.count++);
    d.threads[thread].keys.push_back({ op.startNs, op.endNs, index | (python ? 0U : kNotPython) });
    auto& out = d.columns;
    out.reserveRow();
    out.put(thread);
    out.put(difference(d.previous.startNs, op.startNs));
    out.put(difference(op.startNs, op.endNs));
    out.put(static_cast<std::uint64_t>(op.domainId));
    out.put(static_cast<std::uint64_t>(op.nameId));
    out.put(difference(d.previous.externalId, op.externalId));
    out.put(difference(d.previous.sequenceNumber, op.sequenceNumber));
    out.put(static_cast<std::uint64_t>(op.inputDimsId));
    out.put(static_cast<std::uint64_t>(op.inputTypesId));
    out.put(static_cast<std::uint64_t>(op.moduleId));
    out.put(static_cast<std::uint64_t>(op.callStackId));
    out.put(static_cast<std::uint64_t>(op.concreteInputsId));
    d.previous = op;
    return {};
}

std::size_t OperatorNesting::size() const
{
    return m_impl->count;
}

core::Result<std::int64_t> OperatorNesting::finish(const std::function<core::Status(std::span<const Row>)>& write)
{
    Impl& d = *m_impl;
    std::vector<std::uint32_t> parents(d.count, 0);
    std::int64_t overlapping = 0;
    for (auto& thread : d.threads) {
        std::vector<Key> keys = thread.keys.take();
        sortKeys(keys);
        overlapping += nestThread(keys, parents);
    }
    // Back in file order: ids follow it.
    d.columns.rewind();
    const std::int64_t firstId = d.nextId;
    std::vector<Row> rows;
    rows.reserve(std::min(d.count, kRowsPerSpan));
    Row previous;
    for (std::size_t i = 0; i < d.count; ++i) {
        auto& in = d.columns;
        const Thread& thread = d.threads[in.get()];
        Row row;
        row.id = firstId + static_cast<std::int64_t>(i);
        row.parentId = parents[i] == 0 ? 0 : firstId + parents[i] - 1;
        row.processId = thread.processId;
        row.threadId = thread.threadId;
        row.startNs = plus(previous.startNs, in.get());
        row.endNs = plus(row.startNs, in.get());
        row.domainId = static_cast<std::int64_t>(in.get());
        row.nameId = static_cast<std::int64_t>(in.get());
        row.externalId = plus(previous.externalId, in.get());
        row.sequenceNumber = plus(previous.sequenceNumber, in.get());
        row.inputDimsId = static_cast<std::int64_t>(in.get());
        row.inputTypesId = static_cast<std::int64_t>(in.get());
        row.moduleId = static_cast<std::int64_t>(in.get());
        row.callStackId = static_cast<std::int64_t>(in.get());
        row.concreteInputsId = static_cast<std::int64_t>(in.get());
        previous = row;
        rows.push_back(row);
        if (rows.size() == kRowsPerSpan || i + 1 == d.count) {
            RIDGELINE_TRY(write(rows));
            rows.clear();
        }
    }
    d.nextId += static_cast<std::int64_t>(d.count);
    d.threads.clear();
    d.threadIndex.clear();
    d.lastThread = 0;
    d.columns.clear();
    d.count = 0;
    d.previous = {};
    return overlapping;
}

} // namespace ridgeline::collectors::kineto
