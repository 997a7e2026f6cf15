// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/opportunities.h"

#include "opportunityadvice.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/store/sessionreader.h"
#include "rooflinemetrics.h"
#include "sessionanalysis.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <tuple>
#include <utility>

namespace ridgeline::core {

const char* toString(OpportunityKind kind)
{
    switch (kind) {
    case OpportunityKind::Operator:
        return "op";
    case OpportunityKind::Kernel:
        return "kernel";
    case OpportunityKind::Copy:
        return "copy";
    }
    return "kernel";
}

namespace {

// The largest utilisation of the resources of one kind, and which.
std::pair<double, std::optional<Resource>> busiestOf(const KernelAnalysis& a, ResourceKind kind)
{
    double most = 0;
    std::optional<Resource> which;
    for (const auto& [res, util] : a.utilization) {
        if (kindOf(res) == kind && util >= 0 && (!which || util > most)) {
            most = util;
            which = res;
        }
    }
    return { most, which };
}

} // namespace

bool putOnRoof(const KernelAnalysis& a, std::int64_t gpuTimeNs, Opportunity& row, std::optional<double> copies)
{
    const double time = static_cast<double>(std::max<std::int64_t>(gpuTimeNs, 0));
    // The time the utilisations are over: the launches with figures, or a collective's with sizes.
    double figuresNs = a.figuresNs;
    if (!(figuresNs > 0) && a.comm && a.comm->durationNs > 0)
        figuresNs = a.comm->durationNs;
    if (!(figuresNs > 0))
        return false;
    // How many times the analysis's amounts the row's work is: `copies` exactly (an operator shape's
    // calls), else its time over the time its figures are from.
    const double scale = copies ? *copies : time / figuresNs;
    const auto ceilingOf = [&](Resource r) -> std::optional<double> {
        const auto c = a.ceilingsUsed.find(r);
        return c != a.ceilingsUsed.end() && c->second.value > 0 ? std::optional(c->second.value) : std::nullopt;
    };

    // Compute: the precision mix's time at peak: the sum of its pipes' times.
    double compute = 0;
    bool computeKnown = false;
    if (copies) {
        for (const auto& [precision, ops] : a.flopsByPrecision) {
            if (const auto c = ceilingOf(precision)) {
                compute += ops / *c * 1e9 * scale;
                computeKnown = true;
            }
        }
    } else {
        for (const auto& [res, util] : a.utilization) {
            if (kindOf(res) == ResourceKind::Compute) {
                compute += std::max(util, 0.0) * time;
                computeKnown = true;
            }
        }
    }
    const auto [memoryShare, level] = busiestOf(a, ResourceKind::Memory);
    const auto [linkShare, linkName] = busiestOf(a, ResourceKind::Link);
    double memory = memoryShare * time;
    if (copies && level) {
        const auto bytes = a.bytesByLevel.find(*level);
        const auto c = ceilingOf(*level);
        memory = bytes != a.bytesByLevel.end() && c ? bytes->second / *c * 1e9 * scale : 0.0;
    }
    double throughput = 0;
    for (const char* unit : { "SM", "Memory" })
        if (auto it = a.speedOfLight.find(unit); it != a.speedOfLight.end())
            throughput = std::max(throughput, it->second);
    if (!computeKnown && !level && !linkName && a.speedOfLight.empty())
        return false;

    row.roofTimes = { compute, memory, throughput * time, linkShare * time };
    // The roof named is the first of these within 2 % of the largest: a figure Ridgeline counted
    // before Nsight Compute's throughput, which tells the unit less precisely.
    const std::pair<double, const char*> limits[] = {
        { row.roofTimes.computeNs, "compute" },
        { row.roofTimes.memoryNs, "memory" },
        { row.roofTimes.linkNs, "link" },
        { row.roofTimes.throughputNs, "throughput" },
    };
    double most = 0;
    for (const auto& [ns, name] : limits)
        most = std::max(most, ns);
    row.limitedBy.clear();
    for (const auto& [ns, name] : limits) {
        if (most > 0 && ns >= 0.98 * most) {
            row.limitedBy = name;
            break;
        }
    }
    row.overRoof = most > time * 1.0001;
    const std::int64_t gpuNs = std::max<std::int64_t>(gpuTimeNs, 0);
    row.timeAtRoofNs = std::min(saturatingRound(std::min(most, time)), gpuNs);
    row.recoverableNs = gpuNs - std::max<std::int64_t>(row.timeAtRoofNs, 0);

    row.flops = 0;
    for (const auto& [precision, ops] : a.flopsByPrecision)
        row.flops += ops * scale;
    if (computeKnown && compute > 0)
        row.computeRoof = row.flops / (compute / 1e9);
    // The memory level that bounds it; a copy's or collective's link when it moves no memory.
    const std::optional<Resource> bytesAt = level ? level : linkName;
    row.bytes = 0;
    if (bytesAt) {
        row.memoryLevel = toString(*bytesAt);
        if (auto b = a.bytesByLevel.find(*bytesAt); b != a.bytesByLevel.end())
            row.bytes = b->second * scale;
        else if (a.comm && linkName && *bytesAt == *linkName)
            row.bytes = a.comm->busBytes * scale;
        if (const auto c = ceilingOf(*bytesAt))
            row.memoryRoof = *c;
        else if (a.comm && a.comm->link.bytesPerS > 0)
            row.memoryRoof = a.comm->link.bytesPerS;
    }
    row.figuresShare = a.durationNs > 0 ? std::min(figuresNs / a.durationNs, 1.0) : 1.0;
    row.verdict = a.verdict;
    row.boundBy = a.boundBy;
    return true;
}

namespace {

using NameDevice = std::pair<std::int64_t, std::int64_t>;

struct LaunchSums {
    std::int64_t launches = 0;
    std::int64_t timeNs = 0;
};

// The operator (without a model) that launched the most of a kernel's time: named when the
// kernel has no figures of its own.
struct LaunchedBy {
    std::string text; // "aten::cat (no model for aten::cat)"
    std::int64_t timeNs = -1;
};

class OpportunityFinder {
public:
    explicit OpportunityFinder(SessionReader& reader)
        : m_reader(reader)
    { }

    Result<Opportunities> run()
    {
        RIDGELINE_TRY(detail::loadDevices(m_reader, m_devices, m_ceilings));
        auto shapes = sessionOperatorShapes(m_reader);
        if (shapes.hasError())
            return shapes.error();
        m_shapes = std::move(shapes).value();
        auto kernels = summarizeKernels(m_reader);
        if (kernels.hasError())
            return kernels.error();
        auto estimates = ncuEstimatesByKernel(m_reader);
        if (estimates.hasError())
            return estimates.error();
        m_ncuEstimates = std::move(estimates).value();
        m_context.shapes = m_shapes.get();
        addOperatorRows();
        addKernelRows(kernels.value());
        RIDGELINE_TRY(addCopyRows());
        finish();
        return std::move(m_out);
    }

private:
    // Every roof of a device (the figures of a launch with no counters: the datasheet's, measured
    // or stored counter ceilings), for advice that names another unit's roof.
    const ResourceMap<CeilingUsed>& roofsOf(std::int64_t deviceId)
    {
        auto [it, inserted] = m_roofs.try_emplace(deviceId);
        if (inserted) {
            KernelFacts facts;
            if (auto d = m_devices.find(deviceId); d != m_devices.end())
                facts.device = &d->second;
            if (auto c = m_ceilings.find(deviceId); c != m_ceilings.end())
                facts.ceilings = c->second;
            it->second = detail::chooseCeilings(facts);
        }
        return it->second;
    }

    std::string deviceNameOf(std::int64_t deviceId) const
    {
        const auto d = m_devices.find(deviceId);
        return d == m_devices.end() ? std::string() : d->second.name;
    }

    void rank(Opportunity row, const OperatorShapeRow* shape)
    {
        row.deviceName = deviceNameOf(row.deviceId);
        m_context.roofs = &roofsOf(row.deviceId);
        row.advice = detail::opportunityAdvice(row, shape, m_context);
        m_out.rows.push_back(std::move(row));
    }

    void listApart(UnrankedTime time) { m_out.unranked.push_back(std::move(time)); }

    void addOperatorRows()
    {
        for (const OperatorShapeRow& shape : m_shapes->rows) {
            if (!shape.work) {
                for (const auto& ref : shape.kernelRefs) {
                    auto& by = m_launchedBy[{ ref.nameId, ref.deviceId }];
                    if (ref.timeNs > by.timeNs)
                        by = { fmt::format("{} ({})", shape.name, shape.reason), ref.timeNs };
                }
                continue;
            }
            for (const auto& ref : shape.kernelRefs) {
                auto& owned = m_owned[{ ref.nameId, ref.deviceId }];
                owned.launches += ref.launches;
                owned.timeNs = saturatingAdd(owned.timeNs, ref.timeNs);
            }
            Opportunity row;
            row.kind = OpportunityKind::Operator;
            row.name = shape.name;
            row.fullName = shape.name;
            row.inputDims = shape.inputDims;
            row.inputTypes = shape.inputTypes;
            row.deviceId = shape.deviceId;
            row.calls = shape.calls;
            row.gpuTimeNs = shape.gpuTimeNs;
            row.kernels = shape.kernelRefs;
            row.analysis = shape.analysis;
            if (putOnRoof(shape.analysis, shape.gpuTimeNs, row, static_cast<double>(shape.calls))) {
                rank(std::move(row), &shape);
            } else {
                listApart({ OpportunityKind::Operator, shape.name, shape.name, shape.deviceId, shape.calls,
                    shape.gpuTimeNs, noRoofReason(shape.deviceId), row.kernels });
            }
        }
    }

    std::string noRoofReason(std::int64_t deviceId) const
    {
        const std::string device = deviceNameOf(deviceId);
        return fmt::format("no ceiling known for {}: name the GPU (ridgeline import --gpu) or measure its ceilings",
            device.empty() ? "its GPU" : device);
    }

    // Why a kernel's remaining launches have no roof.
    std::string unrankedReason(const KernelSummary& k) const
    {
        const KernelAnalysis& a = k.analysis;
        if (!a.collective.empty() || !a.commByName.empty())
            return "communication: the trace records no message sizes for it, so no bus bandwidth";
        if (a.hasCounters)
            return noRoofReason(k.deviceId);
        if (auto by = m_launchedBy.find({ k.nameId, k.deviceId }); by != m_launchedBy.end())
            return "no counters; launched by " + by->second.text;
        return "no counters, and no PyTorch operator with recorded shapes launched it";
    }

    // Kernels (name and device) over their launches that no modelled operator owns.
    void addKernelRows(const std::vector<KernelSummary>& kernels)
    {
        for (const KernelSummary& k : kernels) {
            m_out.gpuTimeNs = saturatingAdd(m_out.gpuTimeNs, k.totalNs);
            LaunchSums rest { k.launches, k.totalNs };
            if (auto owned = m_owned.find({ k.nameId, k.deviceId }); owned != m_owned.end()) {
                rest.launches -= owned->second.launches;
                rest.timeNs = saturatingSub(rest.timeNs, owned->second.timeNs);
            }
            if (rest.launches <= 0)
                continue;
            const std::vector<OpportunityKernel> refs { { k.nameId, k.deviceId, rest.launches, rest.timeNs } };
            Opportunity row;
            row.kind = OpportunityKind::Kernel;
            row.name = k.displayName();
            row.fullName = k.name;
            row.deviceId = k.deviceId;
            row.calls = rest.launches;
            row.gpuTimeNs = rest.timeNs;
            row.kernels = refs;
            row.analysis = k.analysis;
            if (auto ncu = m_ncuEstimates.find({ k.nameId, k.deviceId }); ncu != m_ncuEstimates.end())
                row.ncuEstimates = ncu->second;
            // Figures from shapes are those of the owned launches, not of these.
            const bool ownFigures = k.analysis.hasCounters || k.analysis.comm.has_value();
            if (ownFigures && putOnRoof(k.analysis, rest.timeNs, row))
                rank(std::move(row), nullptr);
            else
                listApart({ OpportunityKind::Kernel, row.name, k.name, k.deviceId, rest.launches, rest.timeNs,
                    unrankedReason(k), refs });
        }
    }

    // Copies and memsets by kind and device: their bytes over the link or memory they move through.
    Status addCopyRows()
    {
        auto ops = m_reader.memOps();
        if (ops.hasError())
            return ops.error();
        struct CopySums {
            std::int64_t count = 0, timeNs = 0, pageable = 0;
            double bytes = 0;
            MemOp first;
        };
        std::map<std::pair<MemOpKind, std::int64_t>, CopySums> byKind;
        for (const MemOp& op : ops.value()) {
            auto& s = byKind[{ op.kind, op.deviceId }];
            if (s.count++ == 0)
                s.first = op;
            s.timeNs = saturatingAdd(s.timeNs, std::max<std::int64_t>(saturatingSub(op.endNs, op.startNs), 0));
            s.bytes += static_cast<double>(std::max<std::int64_t>(op.bytes, 0));
            s.pageable += op.srcMemory == "pageable" || op.dstMemory == "pageable" ? 1 : 0;
        }
        for (const auto& [key, s] : byKind) {
            m_out.gpuTimeNs = saturatingAdd(m_out.gpuTimeNs, s.timeNs);
            const KernelAnalysis kind = analyzeMemOp(s.first);
            Opportunity row;
            row.kind = OpportunityKind::Copy;
            row.name = copyName(key.first);
            row.fullName = row.name;
            row.deviceId = key.second;
            row.calls = s.count;
            row.gpuTimeNs = s.timeNs;
            row.pageableCopies = s.pageable;
            KernelAnalysis a;
            a.verdict = kind.verdict;
            a.boundBy = kind.boundBy;
            a.durationNs = a.figuresNs = static_cast<double>(s.timeNs);
            const auto res = kind.bytesByLevel.empty() ? std::nullopt : std::optional(kind.bytesByLevel.begin()->first);
            const auto& roofs = roofsOf(key.second);
            const auto roof = res ? roofs.find(*res) : roofs.end();
            if (res && roof != roofs.end() && s.timeNs > 0 && roof->second.value > 0) {
                // A device-to-device copy reads and writes each byte.
                const double bytes = s.bytes * (key.first == MemOpKind::MemcpyDtoD ? 2.0 : 1.0);
                a.bytesByLevel[*res] = bytes;
                a.ceilingsUsed[*res] = roof->second;
                a.utilization[*res] = bytes / (static_cast<double>(s.timeNs) / 1e9) / roof->second.value;
                a.reason = fmt::format("{}: {} in {} copies", kind.reason.substr(0, kind.reason.find(':')),
                    formatBytes(s.bytes), formatCount(s.count));
            }
            row.analysis = a;
            if (putOnRoof(a, s.timeNs, row))
                rank(std::move(row), nullptr);
            else
                listApart({ OpportunityKind::Copy, row.name, row.name, key.second, s.count, s.timeNs,
                    res ? noRoofReason(key.second) : std::string("a copy that does not involve a GPU's memory"), {} });
        }
        return {};
    }

    static std::string copyName(MemOpKind kind)
    {
        switch (kind) {
        case MemOpKind::MemcpyHtoD:
            return "memcpy HtoD";
        case MemOpKind::MemcpyDtoH:
            return "memcpy DtoH";
        case MemOpKind::MemcpyDtoD:
            return "memcpy DtoD";
        case MemOpKind::MemcpyPtoP:
            return "memcpy PtoP";
        case MemOpKind::MemcpyHtoH:
            return "memcpy HtoH";
        case MemOpKind::Memset:
            return "memset";
        case MemOpKind::Other:
            break;
        }
        return "memcpy";
    }

    void finish()
    {
        for (const Opportunity& row : m_out.rows) {
            m_out.rankedTimeNs = saturatingAdd(m_out.rankedTimeNs, row.gpuTimeNs);
            m_out.timeAtRoofNs = saturatingAdd(m_out.timeAtRoofNs, row.timeAtRoofNs);
            m_out.recoverableNs = saturatingAdd(m_out.recoverableNs, row.recoverableNs);
            // Split over the devices its kernels ran on, by their time.
            const auto add = [&](std::int64_t deviceId, double share) {
                auto& d = m_out.byDevice[deviceId];
                const double ns = static_cast<double>(row.gpuTimeNs) * share;
                d.gpuTimeNs = saturatingAdd(d.gpuTimeNs, saturatingRound(ns));
                d.rankedTimeNs = saturatingAdd(d.rankedTimeNs, saturatingRound(ns));
                d.timeAtRoofNs += static_cast<double>(row.timeAtRoofNs) * share;
                d.recoverableNs += static_cast<double>(row.recoverableNs) * share;
            };
            if (row.kernels.empty() || row.gpuTimeNs <= 0) {
                add(row.deviceId, 1.0);
                continue;
            }
            for (const auto& k : row.kernels)
                add(k.deviceId, static_cast<double>(k.timeNs) / static_cast<double>(row.gpuTimeNs));
        }
        for (const UnrankedTime& time : m_out.unranked) {
            m_out.unrankedTimeNs = saturatingAdd(m_out.unrankedTimeNs, time.gpuTimeNs);
            auto& d = m_out.byDevice[time.deviceId];
            d.gpuTimeNs = saturatingAdd(d.gpuTimeNs, time.gpuTimeNs);
        }
        std::stable_sort(m_out.rows.begin(), m_out.rows.end(), [](const Opportunity& a, const Opportunity& b) {
            return std::tie(b.recoverableNs, b.gpuTimeNs, a.name, a.inputDims)
                < std::tie(a.recoverableNs, a.gpuTimeNs, b.name, b.inputDims);
        });
        std::stable_sort(m_out.unranked.begin(), m_out.unranked.end(),
            [](const UnrankedTime& a, const UnrankedTime& b) { return a.gpuTimeNs > b.gpuTimeNs; });
    }

    SessionReader& m_reader;
    std::map<std::int64_t, Device> m_devices;
    std::map<std::int64_t, std::vector<Ceiling>> m_ceilings;
    std::map<std::int64_t, ResourceMap<CeilingUsed>> m_roofs;
    std::shared_ptr<const OperatorShapes> m_shapes;
    std::map<NameDevice, LaunchSums> m_owned; // launches that modelled operator rows own
    std::map<NameDevice, LaunchedBy> m_launchedBy;
    std::map<NcuKernelKey, std::vector<NcuEstimate>> m_ncuEstimates;
    detail::OpportunityContext m_context;
    Opportunities m_out;
};

} // namespace

Result<Opportunities> findOpportunities(SessionReader& reader)
{
    return OpportunityFinder(reader).run();
}

Result<std::shared_ptr<const Opportunities>> sessionOpportunities(SessionReader& reader)
{
    constexpr std::string_view kKey = "analysis/opportunities";
    if (auto kept = reader.derived(kKey))
        return std::static_pointer_cast<const Opportunities>(kept);
    auto found = findOpportunities(reader);
    if (found.hasError())
        return found.error();
    auto shared = std::make_shared<const Opportunities>(std::move(found).value());
    reader.keepDerived(kKey, shared);
    return std::shared_ptr<const Opportunities>(std::move(shared));
}

} // namespace ridgeline::core
