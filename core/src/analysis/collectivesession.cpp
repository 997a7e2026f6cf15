// SPDX-License-Identifier: MIT
#include "collectivesession.h"

#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionreader.h"
#include "sessionanalysis.h"

#include <algorithm>
#include <set>

namespace ridgeline::core::detail {

namespace {

struct ReaderFacts {
    std::map<std::int64_t, Device> devices;
    std::map<std::int64_t, std::vector<Ceiling>> ceilings;
    std::map<std::int64_t, int> rankOfProcess;
    std::set<std::string> hosts;
};

Result<ReaderFacts> readFacts(SessionReader& reader)
{
    ReaderFacts f;
    RIDGELINE_TRY(loadDevices(reader, f.devices, f.ceilings));
    auto processes = reader.processes();
    if (processes.hasError())
        return processes.error();
    for (const auto& p : processes.value()) {
        f.rankOfProcess[p.id] = p.rank;
        if (p.rank >= 0 && !p.host.empty())
            f.hosts.insert(p.host);
    }
    return f;
}

} // namespace

Result<SessionCollectives> loadCollectives(std::span<SessionReader* const> readers)
{
    SessionCollectives out;
    std::vector<ReaderFacts> facts;
    std::set<std::string> hosts;
    std::vector<std::size_t> firstOp;
    std::int64_t idBase = 0;
    for (SessionReader* reader : readers) {
        auto f = readFacts(*reader);
        if (f.hasError())
            return f.error();
        hosts.insert(f.value().hosts.begin(), f.value().hosts.end());
        auto ops = reader->commOps();
        if (ops.hasError())
            return ops.error();
        firstOp.push_back(out.ops.size());
        std::int64_t maxId = 0;
        for (auto& op : ops.value()) {
            maxId = std::max(maxId, op.id);
            const auto rank = f.value().rankOfProcess.find(op.processId);
            out.rankOfOp.push_back(rank == f.value().rankOfProcess.end() ? -1 : rank->second);
            op.id += idBase;
            out.ops.push_back(std::move(op));
        }
        idBase += maxId;
        facts.push_back(std::move(f).value());
    }
    firstOp.push_back(out.ops.size());

    std::vector<CollectiveOpRef> refs;
    refs.reserve(out.ops.size());
    for (std::size_t r = 0; r < facts.size(); ++r) {
        const ReaderFacts& f = facts[r];
        for (std::size_t i = firstOp[r]; i < firstOp[r + 1]; ++i) {
            const CommOp& op = out.ops[i];
            refs.push_back({ op.id, out.rankOfOp[i], op.processGroup, op.collective, op.seq, op.startNs, op.endNs });
            CollectiveFigures fig;
            fig.collective = op.collective;
            fig.algorithm = op.algorithm;
            fig.protocol = op.protocol;
            const auto type = collectiveTypeFromName(op.collective);
            const auto factor = busBandwidthFactor(type, op.groupSize);
            if (op.bytes > 0 && factor && op.endNs > op.startNs) {
                fig.launches = 1;
                fig.bytes = static_cast<double>(op.bytes);
                fig.busBytes = fig.bytes * *factor;
                fig.durationNs = static_cast<double>(saturatingSub(op.endNs, op.startNs));
            }
            LinkContext context;
            if (auto d = f.devices.find(op.deviceId); d != f.devices.end())
                context.device = &d->second;
            if (auto c = f.ceilings.find(op.deviceId); c != f.ceilings.end())
                context.ceilings = c->second;
            context.groupSize = op.groupSize;
            context.hosts = static_cast<int>(hosts.size());
            fig.link = chooseLink(context);
            out.figures[op.id] = std::move(fig);
        }
    }
    out.ranks = matchAcrossRanks(refs);
    for (const auto& instance : out.ranks.instances) {
        if (instance.lastRank < 0)
            continue;
        for (const auto& m : instance.members) {
            if (m.rank == instance.lastRank || m.waitNs <= 0)
                continue;
            auto& fig = out.figures[m.opId];
            fig.waitNs += static_cast<double>(m.waitNs);
            auto& late = fig.lateRanks[instance.lastRank];
            late.first += 1;
            late.second += static_cast<double>(m.waitNs);
        }
    }
    return out;
}

std::vector<const CollectiveInstance*> mostSkewedInstances(const CrossRankAnalysis& ranks, std::size_t count)
{
    std::vector<const CollectiveInstance*> skewed;
    for (const auto& i : ranks.instances)
        skewed.push_back(&i);
    std::stable_sort(
        skewed.begin(), skewed.end(), [](const auto* a, const auto* b) { return a->startSkewNs > b->startSkewNs; });
    skewed.resize(std::min(skewed.size(), count));
    return skewed;
}

} // namespace ridgeline::core::detail
