// SPDX-License-Identifier: MIT
// Which PyTorch operator launched each kernel launch, and the stack above each operator, kept in
// memory while a session is open in the app (issue 17). Built once from the links of
// operatorlinks.h when the session is read (off the GUI thread), so that selecting a launch finds
// its operators with one binary search and a walk up the parents, never a scan of the operators.
//
// Compact: per operator its id, times, parent, name, module path, thread and chunk (44 bytes and a
// bit), per kernel launch with an operator 16 bytes. Names and module paths are held once each.
// What is not held (input shapes and types, call stack, External id) is read back from the file
// for the few operators of a selection: SessionReader::operatorsInChunks with chunkOf().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::core {

struct OperatorLinks;

class OperatorLookup {
public:
    static constexpr std::uint32_t kNone = 0xFFFF'FFFFU;

    // `names`: the text of every operator name id (SessionReader::strings). `moduleOf`: per operator
    // of `links` an index into `modules` (its module path, docs/OPERATORS.md), or kNone when it has
    // none; empty: no module paths.
    static OperatorLookup build(const OperatorLinks& links, const std::map<std::int64_t, std::string>& names,
        const std::vector<std::uint32_t>& moduleOf, std::vector<std::string> modules);

    std::size_t size() const { return m_ids.size(); }
    bool empty() const { return m_ids.empty(); }

    // Operators are numbered 0 .. size() - 1 in id order.
    std::int64_t id(std::uint32_t op) const { return m_ids[op]; }
    std::int64_t startNs(std::uint32_t op) const { return m_starts[op]; }
    std::int64_t endNs(std::uint32_t op) const { return m_ends[op]; }
    std::uint32_t parent(std::uint32_t op) const { return m_parents[op]; } // kNone at top level
    std::string_view name(std::uint32_t op) const { return m_names[m_nameOf[op]]; }
    std::string_view module(std::uint32_t op) const; // empty when it has none
    std::int64_t processId(std::uint32_t op) const { return m_threads[m_threadOf[op]].first; }
    std::int64_t threadId(std::uint32_t op) const { return m_threads[m_threadOf[op]].second; }
    bool isCpuOp(std::uint32_t op) const { return m_cpuOp[op]; } // else a python_function
    std::int64_t chunkOf(std::uint32_t op) const { return m_chunks[m_chunkOf[op]]; } // its operator_chunks row
    // The operator by its id; kNone when there is none.
    std::uint32_t find(std::int64_t operatorId) const;

    // `op` and the operators above it, innermost first, up to the top level.
    std::vector<std::uint32_t> stack(std::uint32_t op) const;

    struct Launch {
        std::uint32_t innermost = kNone; // the operator that launched it (operatorlinks.h)
        std::uint32_t outermost = kNone; // its top-level operator
        bool operator==(const Launch&) const = default;
    };
    // Of a kernel launch (kernels.id); both kNone when no operator launched it.
    Launch ofKernel(std::int64_t kernelId) const;
    std::size_t kernelsWithOperator() const { return m_kernels.size(); }

    // Heap and object bytes held, from the containers' capacities.
    std::size_t memoryBytes() const;

private:
    struct KernelEntry {
        std::int64_t kernelId;
        std::uint32_t innermost;
        std::uint32_t outermost;
    };
    std::vector<std::int64_t> m_ids, m_starts, m_ends;
    std::vector<std::uint32_t> m_parents, m_nameOf, m_moduleOf, m_threadOf, m_chunkOf;
    std::vector<bool> m_cpuOp;
    std::vector<std::string> m_names, m_modules;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_threads; // (process, OS thread id)
    std::vector<std::int64_t> m_chunks;
    std::vector<KernelEntry> m_kernels; // by kernel id
};

} // namespace ridgeline::core
