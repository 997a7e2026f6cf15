// SPDX-License-Identifier: MIT
// Aggregation of `report --by op|module` (operatorreport.h); the writers are in operatorreportwrite.cpp.
#include "ridgeline/core/output/operatorreport.h"

#include "base/enumnames.h"
#include "ridgeline/core/analysis/operatorlinks.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace ridgeline::core {

namespace {

constexpr std::size_t kNone = GpuOpLink::kNone;
constexpr std::string_view kModulePrefix = "nn.Module: ";

// Rows by key, created as operators are met.
class Rows {
public:
    std::size_t rowOf(const std::string& key)
    {
        auto [it, added] = m_index.try_emplace(key, m_rows.size());
        if (added) {
            m_rows.emplace_back();
            m_rows.back().name = key;
        }
        return it->second;
    }
    OperatorReportRow& operator[](std::size_t row) { return m_rows[row]; }
    std::vector<OperatorReportRow> take() { return std::move(m_rows); }

private:
    std::map<std::string, std::size_t, std::less<>> m_index;
    std::vector<OperatorReportRow> m_rows;
};

// The row of each operator: by its name, or by its module path. The module path is the "Module
// Hierarchy" of the operator or of the nearest operator above it that has one; without any, the
// python_function "nn.Module: X" operators around it, outer to inner, joined by '.'.
std::vector<std::size_t> rowsOfOperators(
    const OperatorLinks& links, ReportGrouping by, const std::map<std::int64_t, std::string>& strings, Rows& rows)
{
    const auto& ops = links.operators;
    auto text = [&strings](std::int64_t id) -> const std::string& {
        static const std::string kEmpty;
        auto it = strings.find(id);
        return it == strings.end() ? kEmpty : it->second;
    };
    std::vector<std::size_t> rowOf(ops.size(), kNone);
    if (by == ReportGrouping::Op) {
        std::unordered_map<std::int64_t, std::size_t> byName;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            auto [it, added] = byName.try_emplace(ops[i].nameId, 0);
            if (added)
                it->second = rows.rowOf(text(ops[i].nameId));
            rowOf[i] = it->second;
        }
        return rowOf;
    }
    // Module paths, memoised per operator; an operator's path depends on its ancestors' only.
    std::vector<std::string> pathOf(ops.size());
    std::vector<char> known(ops.size(), 0);
    std::vector<std::size_t> chain;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        chain.clear();
        for (std::size_t at = i; at != kNone && !known[at]; at = links.parent[at])
            chain.push_back(at);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const std::size_t at = *it;
            const std::string inherited = links.parent[at] == kNone ? std::string() : pathOf[links.parent[at]];
            const std::string& name = text(ops[at].nameId);
            if (ops[at].moduleId != 0)
                pathOf[at] = text(ops[at].moduleId);
            else if (!links.isCpuOp(at) && name.starts_with(kModulePrefix))
                pathOf[at] = (inherited.empty() ? "" : inherited + ".") + name.substr(kModulePrefix.size());
            else
                pathOf[at] = inherited;
            known[at] = 1;
        }
    }
    for (std::size_t i = 0; i < ops.size(); ++i)
        rowOf[i] = rows.rowOf(pathOf[i].empty() ? std::string("(no module)") : pathOf[i]);
    return rowOf;
}

// Each operator's time less the time its children cover within it (their union, clipped to it):
// children that cross each other, or an operator they cross (hostile or partly overlapping
// traces), never make a self time negative.
std::vector<std::int64_t> selfTimes(const OperatorLinks& links)
{
    const auto& ops = links.operators;
    std::vector<std::int64_t> self(ops.size(), 0);
    std::vector<std::size_t> firstChild(ops.size() + 1, 0); // children of i: [firstChild[i], firstChild[i + 1])
    for (std::size_t i = 0; i < ops.size(); ++i) {
        self[i] = std::max<std::int64_t>(saturatingSub(ops[i].endNs, ops[i].startNs), 0);
        if (links.parent[i] != kNone)
            ++firstChild[links.parent[i] + 1];
    }
    for (std::size_t i = 0; i < ops.size(); ++i)
        firstChild[i + 1] += firstChild[i];
    std::vector<std::size_t> children(firstChild.back());
    std::vector<std::size_t> next(firstChild.begin(), firstChild.end() - 1);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (links.parent[i] != kNone)
            children[next[links.parent[i]]++] = i;
    }
    const auto byStart = [&ops](std::size_t a, std::size_t b) { return ops[a].startNs < ops[b].startNs; };
    for (std::size_t p = 0; p < ops.size(); ++p) {
        const auto first = children.begin() + static_cast<std::ptrdiff_t>(firstChild[p]);
        const auto last = children.begin() + static_cast<std::ptrdiff_t>(firstChild[p + 1]);
        if (first == last)
            continue;
        if (!std::is_sorted(first, last, byStart))
            std::sort(first, last, byStart);
        std::int64_t covered = 0;
        std::int64_t reach = ops[p].startNs; // covered up to here
        for (auto it = first; it != last; ++it) {
            const std::int64_t from = std::max(ops[*it].startNs, reach);
            const std::int64_t to = std::min(ops[*it].endNs, ops[p].endNs);
            if (to > from) {
                covered = saturatingAdd(covered, saturatingSub(to, from));
                reach = to;
            }
        }
        self[p] = std::max<std::int64_t>(saturatingSub(self[p], covered), 0);
    }
    return self;
}

} // namespace

std::optional<ReportGrouping> reportGroupingFromString(std::string_view text)
{
    static constexpr detail::EnumNames<ReportGrouping, 3> kGroupings { {
        { ReportGrouping::Kernel, "kernel" },
        { ReportGrouping::Op, "op" },
        { ReportGrouping::Module, "module" },
    } };
    return detail::valueOf(kGroupings, text);
}

Result<OperatorReport> buildOperatorReport(SessionReader& reader, ReportGrouping by)
{
    auto linked = linkOperators(reader);
    if (linked.hasError())
        return linked.error();
    return buildOperatorReport(reader, linked.value(), by);
}

Result<OperatorReport> buildOperatorReport(
    SessionReader& reader, const OperatorLinks& links, ReportGrouping by, OperatorAttribution* attribution)
{
    const auto& ops = links.operators;

    OperatorReport report;
    report.path = reader.path();
    report.by = by;
    report.operators = static_cast<std::int64_t>(ops.size());
    report.byExternalId = links.byExternalId;
    report.externalIdDisagrees = links.externalIdDisagrees;
    report.externalIdUnmatched = links.externalIdUnmatched;

    std::set<std::int64_t> ids;
    for (const auto& op : ops) {
        ids.insert(op.nameId);
        if (by == ReportGrouping::Module && op.moduleId != 0)
            ids.insert(op.moduleId);
    }
    auto strings = reader.strings({ ids.begin(), ids.end() });
    if (strings.hasError())
        return strings.error();
    Rows rows;
    const auto rowOf = rowsOfOperators(links, by, strings.value(), rows);

    const auto self = selfTimes(links);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::int64_t duration = std::max<std::int64_t>(saturatingSub(ops[i].endNs, ops[i].startNs), 0);
        OperatorReportRow& row = rows[rowOf[i]];
        ++row.calls;
        row.selfCpuTimeNs = saturatingAdd(row.selfCpuTimeNs, self[i]);
        const std::size_t parent = links.parent[i];
        // By module, an operator's time counts once: for the outermost operator of the module.
        if (by == ReportGrouping::Op || parent == kNone || rowOf[parent] != rowOf[i])
            row.cpuTimeNs = saturatingAdd(row.cpuTimeNs, duration);
    }
    for (const auto& g : links.gpuOps) {
        const std::int64_t duration = g.durationNs();
        report.gpuTimeNs = saturatingAdd(report.gpuTimeNs, duration);
        ++report.gpuOps;
        if (g.innermost == kNone) {
            report.unattributedGpuTimeNs = saturatingAdd(report.unattributedGpuTimeNs, duration);
            ++report.unattributedGpuOps;
            report.withoutCall += g.hasCall ? 0 : 1;
            continue;
        }
        OperatorReportRow& row = rows[rowOf[g.innermost]];
        row.gpuTimeNs = saturatingAdd(row.gpuTimeNs, duration);
        ++row.gpuOps;
        row.kernels += g.kind == LinkedOpKind::Kernel || g.kind == LinkedOpKind::Collective ? 1 : 0;
        auto& byVerdict = row.timeByVerdictNs[static_cast<std::size_t>(g.verdict)];
        byVerdict = saturatingAdd(byVerdict, duration);
        if (by == ReportGrouping::Op && g.outermost != kNone) {
            auto& topLevel = rows[rowOf[g.outermost]].topLevelGpuTimeNs;
            topLevel = saturatingAdd(topLevel, duration);
        }
    }
    report.rows = rows.take();
    for (auto& row : report.rows)
        row.shareOfGpuTime
            = report.gpuTimeNs > 0 ? static_cast<double>(row.gpuTimeNs) / static_cast<double>(report.gpuTimeNs) : 0.0;
    std::vector<std::size_t> order(report.rows.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto& unsorted = report.rows;
    std::sort(order.begin(), order.end(), [&unsorted](std::size_t x, std::size_t y) {
        const OperatorReportRow& a = unsorted[x];
        const OperatorReportRow& b = unsorted[y];
        return std::tie(b.gpuTimeNs, b.cpuTimeNs, a.name) < std::tie(a.gpuTimeNs, a.cpuTimeNs, b.name);
    });
    std::vector<OperatorReportRow> sorted;
    sorted.reserve(order.size());
    std::vector<std::size_t> sortedIndex(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        sortedIndex[order[i]] = i;
        sorted.push_back(std::move(report.rows[order[i]]));
    }
    report.rows = std::move(sorted);
    if (attribution) {
        attribution->rowOfOperator.resize(ops.size());
        for (std::size_t i = 0; i < ops.size(); ++i)
            attribution->rowOfOperator[i] = sortedIndex[rowOf[i]];
        attribution->rowOfGpuOp.resize(links.gpuOps.size());
        for (std::size_t i = 0; i < links.gpuOps.size(); ++i) {
            const std::size_t innermost = links.gpuOps[i].innermost;
            attribution->rowOfGpuOp[i] = innermost == kNone ? kNone : sortedIndex[rowOf[innermost]];
        }
    }
    return report;
}

} // namespace ridgeline::core
