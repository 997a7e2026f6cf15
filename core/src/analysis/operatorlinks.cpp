// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/operatorlinks.h"

#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "timeline/sessiongpuops.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

namespace ridgeline::core {

namespace {

constexpr std::size_t kNone = GpuOpLink::kNone;

struct ProcessCorrelationHash {
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& key) const noexcept
    {
        // In unsigned arithmetic: a hostile session's ids can be anything (signed overflow is undefined).
        return std::hash<std::uint64_t>()(
            static_cast<std::uint64_t>(key.first) * 1'000'003u + static_cast<std::uint64_t>(key.second));
    }
};

using ProcessCorrelation = std::pair<std::int64_t, std::int64_t>;

// Sorts `items`, which mostly come as a few ascending runs (a session's operators by thread and
// start, read chunk by chunk): adjacent runs are merged pairwise, one linear pass per halving of
// their number. On the 301 MB PyTorch trace (848,120 operators in 456 runs) std::sort fell back to
// heapsort on them and took a sixth of `report`. Many runs (shuffled input): std::sort. The caller's
// order is total (ids break ties), so either way gives the same result.
template <typename T, typename Less> void sortRuns(std::vector<T>& items, Less less)
{
    std::vector<std::size_t> bounds { 0 }; // where each run starts, then the end
    for (std::size_t i = 1; i < items.size(); ++i) {
        if (less(items[i], items[i - 1]))
            bounds.push_back(i);
    }
    bounds.push_back(items.size());
    if (bounds.size() - 1 > std::max<std::size_t>(64, items.size() / 256)) {
        std::sort(items.begin(), items.end(), less);
        return;
    }
    const auto at = [&items](std::size_t i) { return items.begin() + static_cast<std::ptrdiff_t>(i); };
    while (bounds.size() > 2) {
        const std::size_t runs = bounds.size() - 1;
        std::vector<std::size_t> merged { 0 };
        for (std::size_t r = 0; r + 2 <= runs; r += 2) {
            std::inplace_merge(at(bounds[r]), at(bounds[r + 1]), at(bounds[r + 2]), less);
            merged.push_back(bounds[r + 2]);
        }
        if (runs % 2 == 1) // the last run has no partner this pass
            merged.push_back(bounds[runs]);
        bounds = std::move(merged);
    }
}

// The operators of each thread, by start (and the longest first among equal starts), and the
// operators by External id: what finding the operator of a call needs.
class OperatorIndex {
public:
    explicit OperatorIndex(const OperatorLinks& links)
        : m_links(links)
    {
        const auto& ops = links.operators;
        // The keys sorted side by side, not through indexes into the operators: a third of the
        // time of linking a large trace went to the cache misses of the indirect compare.
        struct Key {
            std::int64_t processId, threadId, startNs, endNs, id;
            std::size_t index;
        };
        std::vector<Key> keys(ops.size());
        for (std::size_t i = 0; i < ops.size(); ++i)
            keys[i] = { ops[i].processId, ops[i].threadId, ops[i].startNs, ops[i].endNs, ops[i].id, i };
        sortRuns(keys, [](const Key& x, const Key& y) {
            // Of two with the same times the later id is the inner one (the importer nests an
            // operator inside an identical one listed before it).
            return std::tie(x.processId, x.threadId, x.startNs, y.endNs, x.id)
                < std::tie(y.processId, y.threadId, y.startNs, x.endNs, y.id);
        });
        m_byThread.resize(ops.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            m_byThread[i] = keys[i].index;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            if (ops[i].externalId != 0)
                m_byExternal.push_back({ ops[i].processId, ops[i].externalId, i });
        }
        std::sort(m_byExternal.begin(), m_byExternal.end());
    }

    // The innermost operator of the thread whose time holds [start, end]; kNone when none does.
    std::size_t holding(std::int64_t processId, std::int64_t threadId, std::int64_t start, std::int64_t end) const
    {
        const auto& ops = m_links.operators;
        // The last operator of the thread that starts at or before `start`: the innermost holder is
        // it or one of its ancestors, since operators nest.
        auto it = std::upper_bound(m_byThread.begin(), m_byThread.end(), std::tuple { processId, threadId, start },
            [&ops](const std::tuple<std::int64_t, std::int64_t, std::int64_t>& key, std::size_t i) {
                return key < std::tuple { ops[i].processId, ops[i].threadId, ops[i].startNs };
            });
        if (it == m_byThread.begin())
            return kNone;
        std::size_t at = *std::prev(it);
        if (ops[at].processId != processId || ops[at].threadId != threadId)
            return kNone;
        for (; at != kNone; at = m_links.parent[at]) {
            if (ops[at].startNs <= start && end <= ops[at].endNs)
                return at;
        }
        return kNone;
    }

    std::size_t withExternalId(std::int64_t processId, std::int64_t externalId) const
    {
        auto it = std::lower_bound(m_byExternal.begin(), m_byExternal.end(), std::tuple { processId, externalId, 0UL });
        if (it == m_byExternal.end() || std::get<0>(*it) != processId || std::get<1>(*it) != externalId)
            return kNone;
        return std::get<2>(*it);
    }

private:
    const OperatorLinks& m_links;
    std::vector<std::size_t> m_byThread;
    std::vector<std::tuple<std::int64_t, std::int64_t, std::size_t>> m_byExternal; // (process, External id, index)
};

struct Call {
    std::int64_t threadId, externalId, startNs, endNs;
};

Status loadOperators(SessionReader& reader, OperatorLinks& links)
{
    RIDGELINE_TRY(
        reader.forEachOperatorSpan([&](const SessionReader::OperatorSpan& op) { links.operators.push_back(op); }));
    auto& ops = links.operators;
    if (!std::is_sorted(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.id < b.id; }))
        std::sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    links.parent.assign(ops.size(), kNone);
    std::set<std::int64_t> domains;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        domains.insert(ops[i].domainId);
        if (ops[i].parentId == 0)
            continue;
        auto it = std::lower_bound(ops.begin(), ops.end(), ops[i].parentId,
            [](const SessionReader::OperatorSpan& op, std::int64_t id) { return op.id < id; });
        // A parent that is missing (or, in a hostile file, not an ancestor) ends the chain.
        if (it != ops.end() && it->id == ops[i].parentId && it->id != ops[i].id)
            links.parent[i] = static_cast<std::size_t>(it - ops.begin());
    }
    // A hostile file may loop parents: cut any chain longer than the number of operators.
    for (std::size_t i = 0; i < ops.size(); ++i) {
        std::size_t steps = 0;
        for (std::size_t at = links.parent[i]; at != kNone && steps <= ops.size(); at = links.parent[at])
            ++steps;
        if (steps > ops.size())
            links.parent[i] = kNone;
    }
    auto names = reader.strings({ domains.begin(), domains.end() });
    if (names.hasError())
        return names.error();
    for (const auto& [id, name] : names.value()) {
        if (name == "cpu_op")
            links.cpuOpDomainId = id;
    }
    return {};
}

LinkedOpKind kindOf(const detail::SessionGpuOp& g)
{
    switch (g.op.kind) {
    case GpuOpKind::Collective:
        return LinkedOpKind::Collective;
    case GpuOpKind::Memcpy:
        return LinkedOpKind::Memcpy;
    case GpuOpKind::Memset:
        return LinkedOpKind::Memset;
    default:
        return LinkedOpKind::Kernel;
    }
}

} // namespace

Result<OperatorLinks> linkOperators(SessionReader& reader)
{
    // Linked once: the kernels' verdicts use their figures from shapes, which need these links.
    auto linked = linkOperators(reader, [](SessionReader&) -> Result<KernelVerdicts> { return KernelVerdicts {}; });
    if (linked.hasError())
        return linked.error();
    auto shapes = sessionOperatorShapes(reader, &linked.value());
    if (shapes.hasError())
        return shapes.error();
    auto verdicts = kernelVerdicts(reader);
    if (verdicts.hasError())
        return verdicts.error();
    for (auto& link : linked.value().gpuOps) {
        if (link.kind != LinkedOpKind::Kernel && link.kind != LinkedOpKind::Collective)
            continue;
        if (auto it = verdicts.value().find(link.sourceId); it != verdicts.value().end())
            link.verdict = it->second;
    }
    return linked;
}

Result<OperatorLinks> linkOperators(SessionReader& reader, const KernelVerdictSource& verdicts)
{
    OperatorLinks links;
    RIDGELINE_TRY(loadOperators(reader, links));

    // The GPU ops (comm_ops rows without a kernel are not launched by a call: left out).
    auto gpuOps = detail::SessionGpuOps::load(reader, { std::nullopt, false, false }, verdicts);
    if (gpuOps.hasError())
        return gpuOps.error();
    std::vector<std::int64_t> correlations;
    RIDGELINE_TRY(gpuOps.value().forEach(reader, [&](const detail::SessionGpuOp& g) {
        if (g.source == detail::GpuOpSource::CommOp)
            return true;
        GpuOpLink link;
        link.kind = kindOf(g);
        link.sourceId = g.sourceId;
        link.processId = g.processId;
        link.deviceId = g.deviceId;
        link.nameId = g.source == detail::GpuOpSource::Kernel ? g.nameId : -1;
        link.memOpKind = g.memOpKind;
        link.startNs = g.op.startNs;
        link.endNs = g.op.endNs;
        link.verdict = g.op.verdict;
        links.gpuOps.push_back(link);
        correlations.push_back(g.correlationId);
        return true;
    }));

    // Their launching calls: per (process, correlation id) the earliest.
    std::unordered_map<ProcessCorrelation, Call, ProcessCorrelationHash> calls;
    for (std::size_t i = 0; i < links.gpuOps.size(); ++i) {
        if (correlations[i] != 0)
            calls.try_emplace({ links.gpuOps[i].processId, correlations[i] }, Call { 0, 0, 0, -1 });
    }
    RIDGELINE_TRY(reader.forEachApiCallSpan([&](const SessionReader::CallSpan& c) {
        auto it = calls.find({ c.processId, c.correlationId });
        if (it == calls.end())
            return;
        Call& call = it->second;
        if (call.endNs < call.startNs || c.startNs < call.startNs) // the first seen, or an earlier one
            call = { c.threadId, c.externalId, c.startNs, c.endNs };
    }));

    const OperatorIndex index(links);
    for (std::size_t i = 0; i < links.gpuOps.size(); ++i) {
        auto& link = links.gpuOps[i];
        if (correlations[i] == 0)
            continue;
        const auto found = calls.find({ link.processId, correlations[i] });
        if (found == calls.end() || found->second.endNs < found->second.startNs)
            continue;
        const Call& call = found->second;
        link.hasCall = true;
        std::size_t byTime = index.holding(link.processId, call.threadId, call.startNs, call.endNs);
        // The innermost cpu_op; a python_function only when no cpu_op holds the call.
        for (std::size_t at = byTime; at != kNone; at = links.parent[at]) {
            if (links.isCpuOp(at)) {
                byTime = at;
                break;
            }
        }
        std::size_t innermost = byTime;
        // Older traces repeat the correlation id as the call's External id: no link to an operator.
        if (call.externalId != 0 && call.externalId != correlations[i]) {
            const std::size_t named = index.withExternalId(link.processId, call.externalId);
            const bool holds = named != kNone && links.operators[named].threadId == call.threadId
                && links.operators[named].startNs <= call.startNs && call.endNs <= links.operators[named].endNs;
            if (holds) {
                ++links.byExternalId;
                if (named != byTime)
                    ++links.externalIdDisagrees;
                innermost = named;
            } else {
                ++links.externalIdUnmatched;
            }
        }
        link.innermost = innermost;
        for (std::size_t at = innermost; at != kNone; at = links.parent[at]) {
            if (links.isCpuOp(at) || !links.isCpuOp(innermost))
                link.outermost = at;
        }
    }
    return links;
}

} // namespace ridgeline::core
