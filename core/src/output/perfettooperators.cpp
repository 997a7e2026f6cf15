// SPDX-License-Identifier: MIT
#include "perfettooperators.h"

#include "exportcommon.h"
#include "ridgeline/core/analysis/operatorlinks.h"
#include "ridgeline/core/base/saturating.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace ridgeline::core::detail {

Status PerfettoOperators::load(SessionReader& reader)
{
    auto counts = reader.counts();
    if (counts.hasError())
        return counts.error();
    if (counts.value().operators == 0)
        return {};
    // Which operator launched each GPU op, kept by operator id (the links are dropped after).
    std::vector<std::tuple<bool, std::int64_t, std::int64_t>> launchedBy; // (kernel, source id, operator id)
    {
        auto linked = linkOperators(reader);
        if (linked.hasError())
            return linked.error();
        const auto& links = linked.value();
        for (const auto& g : links.gpuOps) {
            if (g.innermost != GpuOpLink::kNone)
                launchedBy.emplace_back(g.kind == LinkedOpKind::Kernel || g.kind == LinkedOpKind::Collective,
                    g.sourceId, links.operators[g.innermost].id);
        }
    }
    RIDGELINE_TRY(
        reader.forEachOperatorRecord([this](const SessionReader::OperatorRecord& r) { m_records.push_back(r); }));
    std::sort(m_records.begin(), m_records.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    m_placed.assign(m_records.size(), { 0, 0 });
    for (const auto& [kernel, sourceId, operatorId] : launchedBy) {
        auto it = std::lower_bound(m_records.begin(), m_records.end(), operatorId,
            [](const SessionReader::OperatorRecord& r, std::int64_t id) { return r.id < id; });
        if (it != m_records.end() && it->id == operatorId)
            m_launches.push_back({ kernel, sourceId, static_cast<std::size_t>(it - m_records.begin()) });
    }
    std::sort(m_launches.begin(), m_launches.end());

    std::set<std::int64_t> ids;
    m_slices.reserve(m_records.size());
    for (std::size_t i = 0; i < m_records.size(); ++i) {
        const auto& r = m_records[i];
        m_slices.push_back({ r.processId, r.threadId, r.startNs, r.endNs, i });
        ids.insert({ r.domainId, r.nameId, r.inputDimsId, r.inputTypesId, r.moduleId, r.callStackId });
    }
    // Outer first: by start, the longer first, then by id (of identical ones the earlier is the parent).
    std::sort(m_slices.begin(), m_slices.end(), [this](const Slice& a, const Slice& b) {
        return std::tuple(a.startNs, b.endNs, m_records[a.record].id)
            < std::tuple(b.startNs, a.endNs, m_records[b.record].id);
    });
    auto texts = reader.strings({ ids.begin(), ids.end() });
    if (texts.hasError())
        return texts.error();
    m_texts = std::move(texts).value();
    return {};
}

const std::string& PerfettoOperators::text(std::int64_t id) const
{
    static const std::string kEmpty;
    auto it = m_texts.find(id);
    return it == m_texts.end() ? kEmpty : it->second;
}

std::string PerfettoOperators::name(const Slice& slice) const
{
    const std::string& n = text(m_records[slice.record].nameId);
    return n.empty() ? std::string("operator") : n;
}

const char* PerfettoOperators::category(const Slice& slice) const
{
    return text(m_records[slice.record].domainId) == "python_function" ? "python_function" : "cpu_op";
}

nlohmann::json PerfettoOperators::args(const Slice& slice) const
{
    const auto& r = m_records[slice.record];
    nlohmann::json args
        = { { "operator_id", r.id }, { "start_ns", r.startNs }, { "duration_ns", saturatingSub(r.endNs, r.startNs) } };
    if (r.externalId != 0)
        args["external_id"] = r.externalId;
    if (r.sequenceNumber >= 0)
        args["sequence_number"] = r.sequenceNumber;
    const std::pair<const char*, std::int64_t> texts[] = { { "input_dims", r.inputDimsId },
        { "input_types", r.inputTypesId }, { "module", r.moduleId }, { "call_stack", r.callStackId } };
    for (const auto& [key, id] : texts) {
        if (const auto& value = text(id); !value.empty())
            args[key] = value;
    }
    return args;
}

std::optional<std::pair<std::int64_t, std::int64_t>> PerfettoOperators::span() const
{
    if (m_records.empty())
        return std::nullopt;
    std::pair<std::int64_t, std::int64_t> out { m_records.front().startNs, m_records.front().endNs };
    for (const auto& r : m_records) {
        out.first = std::min(out.first, r.startNs);
        out.second = std::max(out.second, r.endNs);
    }
    return out;
}

void PerfettoOperators::placed(const Slice& slice, std::int64_t pid, std::int64_t tid)
{
    m_placed[slice.record] = { pid, tid };
}

std::optional<PerfettoOperators::Origin> PerfettoOperators::launcherOf(bool kernel, std::int64_t sourceId) const
{
    const Launch key { kernel, sourceId, 0 };
    auto it = std::lower_bound(m_launches.begin(), m_launches.end(), key);
    if (it == m_launches.end() || it->kernel != kernel || it->sourceId != sourceId)
        return std::nullopt;
    const auto& [pid, tid] = m_placed[it->record];
    if (pid == 0)
        return std::nullopt;
    return Origin { pid, tid, m_records[it->record].startNs };
}

void PerfettoOperators::keepWithin(const TimeWindow& window)
{
    std::erase_if(m_slices, [&](const Slice& s) { return !overlaps(s.startNs, s.endNs, window); });
}

} // namespace ridgeline::core::detail
