// SPDX-License-Identifier: MIT
#include "sessionanalysis.h"

#include "collectivesession.h"
#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/model/commnames.h"
#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>

namespace ridgeline::core::detail {

KernelFacts launchFacts(const Kernel& kernel)
{
    KernelFacts f;
    f.kernelId = kernel.id;
    f.durationNs = kernel.durationNs();
    f.grid = kernel.grid;
    f.block = kernel.block;
    f.graphRangeKernels = kernel.graphRangeKernels;
    return f;
}

Status loadDevices(SessionReader& reader, std::map<std::int64_t, Device>& devices,
    std::map<std::int64_t, std::vector<Ceiling>>& ceilings)
{
    auto deviceList = reader.devices();
    if (deviceList.hasError())
        return deviceList.error();
    for (auto& d : deviceList.value())
        devices[d.id] = std::move(d);
    auto ceilingList = reader.ceilings();
    if (ceilingList.hasError())
        return ceilingList.error();
    for (auto& c : ceilingList.value())
        ceilings[c.deviceId].push_back(std::move(c));
    return {};
}

Result<SessionFacts> SessionFacts::load(SessionReader& reader)
{
    SessionFacts facts;
    RIDGELINE_TRY(loadDevices(reader, facts.m_devices, facts.m_ceilings));
    // Only what the analysis reads: an Nsight Compute launch has ten times as many values.
    auto metrics
        = reader.forEachMetric(feedsAnalysis, [&](std::int64_t kernelId, const std::string& name, double value) {
              facts.m_metrics[kernelId].emplace(name, value);
          });
    if (metrics.hasError())
        return metrics.error();
    SessionReader* readers[] = { &reader };
    auto comms = loadCollectives(readers);
    if (comms.hasError())
        return comms.error();
    for (const auto& op : comms.value().ops) {
        if (!op.kernelId)
            continue;
        facts.m_collectives[*op.kernelId] = op.collective.empty() ? "collective" : op.collective;
        if (auto f = comms.value().figures.find(op.id); f != comms.value().figures.end())
            facts.m_commFigures[*op.kernelId] = f->second;
    }
    auto names = reader.kernelNames();
    if (names.hasError())
        return names.error();
    bool anyNccl = false;
    for (auto& n : names.value()) {
        auto& name = facts.m_names[n.id];
        name = n.demangled.empty() ? std::move(n.raw) : std::move(n.demangled);
        anyNccl = anyNccl || isCommunicationKernelName(name);
    }
    // Without counters, a kernel's FLOPs and bytes may come from its PyTorch operator's shapes.
    auto shapes = sessionOperatorShapes(reader);
    if (shapes.hasError())
        return shapes.error();
    facts.m_shapes = std::move(shapes).value();
    // Communication kernels (commnames.h) are communication whichever importer read them, with or
    // without comm_ops.
    if (anyNccl) {
        auto scanned = reader.forEachKernel({}, [&](const Kernel& kernel) {
            if (auto it = facts.m_names.find(kernel.nameId);
                it != facts.m_names.end() && isCommunicationKernelName(it->second))
                facts.m_ncclKernels.push_back(kernel.id);
            return true;
        });
        if (scanned.hasError())
            return scanned.error();
    }
    return facts;
}

KernelFacts SessionFacts::factsFor(const Kernel& kernel) const
{
    KernelFacts f = launchFacts(kernel);
    if (auto d = m_devices.find(kernel.deviceId); d != m_devices.end())
        f.device = &d->second;
    if (auto c = m_ceilings.find(kernel.deviceId); c != m_ceilings.end())
        f.ceilings = c->second;
    if (auto m = m_metrics.find(kernel.id); m != m_metrics.end())
        f.metrics = m->second;
    if (auto c = m_collectives.find(kernel.id); c != m_collectives.end())
        f.collective = c->second;
    if (auto n = m_names.find(kernel.nameId); n != m_names.end())
        f.name = n->second;
    if (auto c = m_commFigures.find(kernel.id); c != m_commFigures.end())
        f.comm = c->second;
    if (auto s = m_shapes->byKernel.find(kernel.id); s != m_shapes->byKernel.end())
        f.shapes = s->second;
    return f;
}

std::vector<std::int64_t> SessionFacts::analysedKernelIds() const
{
    std::vector<std::int64_t> ids;
    ids.reserve(m_metrics.size() + m_collectives.size() + m_shapes->byKernel.size());
    for (const auto& entry : m_metrics)
        ids.push_back(entry.first);
    for (const auto& entry : m_shapes->byKernel)
        ids.push_back(entry.first);
    for (const auto& entry : m_collectives)
        ids.push_back(entry.first);
    ids.insert(ids.end(), m_ncclKernels.begin(), m_ncclKernels.end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

} // namespace ridgeline::core::detail

namespace ridgeline::core {

Status analyzeSession(SessionReader& reader, const std::function<void(const Kernel&, const KernelAnalysis&)>& visit)
{
    auto facts = detail::SessionFacts::load(reader);
    if (facts.hasError())
        return facts.error();
    return reader.forEachKernel({}, [&](const Kernel& kernel) {
        visit(kernel, analyzeKernel(facts.value().factsFor(kernel)));
        return true;
    });
}

} // namespace ridgeline::core
