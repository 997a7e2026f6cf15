// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/operatorshapes.h"

#include "ridgeline/core/analysis/operatorlinks.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionreader.h"
#include "sessionanalysis.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <tuple>

namespace ridgeline::core {

namespace {

constexpr std::size_t kNoOperator = GpuOpLink::kNone;

} // namespace

bool isFusableFamily(std::string_view family)
{
    return family == "elementwise" || family == "norm" || family == "softmax" || family == "reduction";
}

bool traceJsonNestsTooDeep(std::string_view text)
{
    int depth = 0;
    for (const char c : text) {
        depth += c == '[' || c == '{' ? 1 : c == ']' || c == '}' ? -1 : 0;
        if (depth > 16)
            return true;
    }
    return false;
}

namespace {

// A trace's JSON text on one line without spaces ("[[512], [141, 512]]" as "[[512],[141,512]]"):
// traces write Input Dims across lines as often as not. Text that is no JSON is kept as it is.
std::string compactJson(std::string_view text)
{
    if (text.empty() || traceJsonNestsTooDeep(text))
        return std::string(text);
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    return parsed.is_discarded() ? std::string(text)
                                 : parsed.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// cuBLAS and CUTLASS name a float32 GEMM or convolution that runs on tensor cores as TF32 so:
// "sm80_xmma_gemm_f32f32_tf32f32_...", "cutlass_80_tensorop_s1688gemm_..." (single precision on the
// m16n8k8 TF32 instruction). Only asked of kernels whose operator's inputs are float32.
bool namesTf32(std::string_view kernelName)
{
    return kernelName.find("tf32") != std::string_view::npos || kernelName.find("s1688") != std::string_view::npos;
}

// What is known of each operator name (by string id).
struct NameFacts {
    std::string text;
    bool modelled = false;
    bool composite = false;
};

// A kernel's time; a hostile file's end before its start counts as none.
std::int64_t timeOf(const GpuOpLink& g)
{
    return std::max<std::int64_t>(g.durationNs(), 0);
}

// The outermost operator with a model on the chain from `innermost` up, composites giving way to
// a modelled operator below them; kNoOperator when none has a model.
std::size_t owningOperator(
    const OperatorLinks& links, std::size_t innermost, const std::unordered_map<std::int64_t, NameFacts>& names)
{
    std::size_t owner = kNoOperator;
    for (std::size_t at = innermost; at != kNoOperator; at = links.parent[at]) {
        if (!links.isCpuOp(at))
            continue;
        const auto it = names.find(links.operators[at].nameId);
        if (it == names.end() || !it->second.modelled)
            continue;
        if (!it->second.composite || owner == kNoOperator)
            owner = at;
    }
    return owner;
}

// The calls whose model is worked out once: the same operator with the same texts.
using CallKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>; // name, dims, types, concrete
using RowKey = std::tuple<std::int64_t, std::int64_t, std::int64_t>; // name, dims, types

struct OwnedKernels {
    std::vector<std::size_t> gpuOps; // indexes into links.gpuOps
    std::int64_t timeNs = 0;
};

class ShapeAttribution {
public:
    ShapeAttribution(SessionReader& reader, const OperatorLinks& links)
        : m_reader(reader)
        , m_links(links)
    { }

    Result<OperatorShapes> run()
    {
        RIDGELINE_TRY(loadNames());
        auto kernelNames = m_reader.kernelNames();
        if (kernelNames.hasError())
            return kernelNames.error();
        for (const auto& k : kernelNames.value())
            m_kernelNames[k.id] = k.demangled.empty() ? k.raw : k.demangled;
        RIDGELINE_TRY(detail::loadDevices(m_reader, m_devices, m_ceilings));
        // Each kernel to the operator call that owns its work, or (unmodelled) to its innermost cpu_op.
        std::map<std::size_t, OwnedKernels> owned; // by operator index, in id order
        for (std::size_t i = 0; i < m_links.gpuOps.size(); ++i) {
            const GpuOpLink& g = m_links.gpuOps[i];
            if (g.kind != LinkedOpKind::Kernel && g.kind != LinkedOpKind::Collective)
                continue;
            m_out.kernelTimeNs = saturatingAdd(m_out.kernelTimeNs, timeOf(g));
            if (g.kind != LinkedOpKind::Kernel || g.innermost == kNoOperator || !m_links.isCpuOp(g.innermost))
                continue;
            std::size_t owner = owningOperator(m_links, g.innermost, m_names);
            if (owner == kNoOperator)
                owner = g.innermost;
            auto& kernels = owned[owner];
            kernels.gpuOps.push_back(i);
            kernels.timeNs = saturatingAdd(kernels.timeNs, timeOf(g));
        }
        RIDGELINE_TRY(loadTexts(owned));
        for (const auto& [op, kernels] : owned)
            attribute(op, kernels);
        markFusableChains();
        finishRows();
        return std::move(m_out);
    }

private:
    Status loadNames()
    {
        std::vector<std::int64_t> ids;
        for (const auto& op : m_links.operators)
            ids.push_back(op.nameId);
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        auto texts = m_reader.strings(ids);
        if (texts.hasError())
            return texts.error();
        for (auto& [id, text] : texts.value()) {
            NameFacts facts;
            facts.modelled = hasShapeModel(text);
            facts.composite = isCompositeOperator(text);
            facts.text = std::move(text);
            m_names.emplace(id, std::move(facts));
        }
        return {};
    }

    // The shapes, types and concrete inputs of the operators that own kernels.
    Status loadTexts(const std::map<std::size_t, OwnedKernels>& owned)
    {
        std::vector<std::int64_t> ids;
        for (const auto& entry : owned) {
            const auto& op = m_links.operators[entry.first];
            ids.insert(ids.end(), { op.inputDimsId, op.inputTypesId, op.concreteInputsId });
        }
        auto texts = m_reader.strings(ids);
        if (texts.hasError())
            return texts.error();
        m_texts = std::move(texts).value();
        return {};
    }

    std::string_view text(std::int64_t id) const
    {
        const auto it = m_texts.find(id);
        return it == m_texts.end() ? std::string_view() : std::string_view(it->second);
    }

    std::string_view nameOf(std::int64_t nameId) const
    {
        const auto it = m_names.find(nameId);
        return it == m_names.end() ? std::string_view() : std::string_view(it->second.text);
    }

    // The model of a call, once per distinct (name, dims, types, concrete inputs).
    const std::pair<std::shared_ptr<const ShapeCall>, std::string>& modelOf(const SessionReader::OperatorSpan& op)
    {
        const CallKey key { op.nameId, op.inputDimsId, op.inputTypesId, op.concreteInputsId };
        auto [it, inserted] = m_models.try_emplace(key);
        if (inserted) {
            const std::string_view name = nameOf(op.nameId);
            auto model
                = modelOperator({ name, text(op.inputDimsId), text(op.inputTypesId), text(op.concreteInputsId) });
            if (model.work)
                it->second.first = std::make_shared<const ShapeCall>(ShapeCall { std::string(name), *model.work });
            else
                it->second.second = model.reason.empty() ? fmt::format("no model for {}", name) : model.reason;
        }
        return it->second;
    }

    // A float32 GEMM or convolution whose kernels ran as TF32 (their names say so): its FLOPs are
    // judged against the TF32 tensor roof, not the FP32 one it would exceed.
    std::shared_ptr<const ShapeCall> onItsPipe(
        const std::shared_ptr<const ShapeCall>& call, const OwnedKernels& kernels)
    {
        const OperatorWork& w = call->work;
        if (w.pipe != Resource::FP32 || (w.family != "GEMM" && w.family != "convolution"))
            return call;
        const bool tf32 = std::any_of(kernels.gpuOps.begin(), kernels.gpuOps.end(), [&](std::size_t i) {
            const auto it = m_kernelNames.find(m_links.gpuOps[i].nameId);
            return it != m_kernelNames.end() && namesTf32(it->second);
        });
        if (!tf32)
            return call;
        auto& variant = m_tf32Calls[call.get()];
        if (!variant) {
            ShapeCall onTensorCores = *call;
            onTensorCores.work.pipe = Resource::TF32Tensor;
            onTensorCores.work.formula += "; on the TF32 tensor pipe, as its kernel's name says";
            variant = std::make_shared<const ShapeCall>(std::move(onTensorCores));
        }
        return variant;
    }

    void attribute(std::size_t opIndex, const OwnedKernels& kernels)
    {
        const auto& op = m_links.operators[opIndex];
        const auto& [modelled, reason] = modelOf(op);
        const auto call = modelled ? onItsPipe(modelled, kernels) : modelled;
        const std::size_t rowIndex = rowFor(op);
        OperatorShapeRow& row = m_out.rows[rowIndex];
        row.calls += 1;
        row.kernels += static_cast<std::int64_t>(kernels.gpuOps.size());
        row.gpuTimeNs = saturatingAdd(row.gpuTimeNs, kernels.timeNs);
        auto& refs = m_rowRefs[rowIndex];
        for (const std::size_t i : kernels.gpuOps) {
            const GpuOpLink& g = m_links.gpuOps[i];
            if (timeOf(g) > m_rowLongest[rowIndex]) {
                m_rowLongest[rowIndex] = timeOf(g);
                row.deviceId = g.deviceId;
            }
            auto& ref = refs[{ g.nameId, g.deviceId }];
            ref.launches += 1;
            ref.timeNs = saturatingAdd(ref.timeNs, timeOf(g));
        }
        if (call && isFusableFamily(call->work.family)) {
            m_callRow[opIndex] = rowIndex;
            for (const std::size_t i : kernels.gpuOps)
                m_fusableKernel[i] = opIndex;
        }
        if (!call) {
            if (row.reason.empty())
                row.reason = reason;
            return;
        }
        if (!row.work)
            row.work = call->work;
        row.flops += call->work.flops;
        row.bytes += call->work.bytes;
        m_out.modelledTimeNs = saturatingAdd(m_out.modelledTimeNs, kernels.timeNs);
        const double count = static_cast<double>(kernels.gpuOps.size());
        for (const std::size_t i : kernels.gpuOps) {
            const GpuOpLink& g = m_links.gpuOps[i];
            // In proportion to time; evenly when the calls' kernels took no time at all.
            const double share = kernels.timeNs > 0
                ? static_cast<double>(timeOf(g)) / static_cast<double>(kernels.timeNs)
                : 1.0 / count;
            m_out.byKernel[g.sourceId]
                = ShapeFigures { call->work.flops * share, call->work.bytes * share, share, call };
        }
    }

    // Kernels of fusable calls next to a kernel of another fusable call on the same device (in start
    // order; any other kernel in between breaks the chain): each such call counts once for its row.
    void markFusableChains()
    {
        if (m_fusableKernel.empty())
            return;
        struct Placed {
            std::int64_t deviceId, startNs;
            std::size_t owner; // the fusable call, or kNoOperator
        };
        std::vector<Placed> order;
        for (std::size_t i = 0; i < m_links.gpuOps.size(); ++i) {
            const GpuOpLink& g = m_links.gpuOps[i];
            if (g.kind != LinkedOpKind::Kernel && g.kind != LinkedOpKind::Collective)
                continue;
            const auto it = m_fusableKernel.find(i);
            order.push_back({ g.deviceId, g.startNs, it == m_fusableKernel.end() ? kNoOperator : it->second });
        }
        std::stable_sort(order.begin(), order.end(), [](const Placed& a, const Placed& b) {
            return std::tie(a.deviceId, a.startNs) < std::tie(b.deviceId, b.startNs);
        });
        std::set<std::size_t> chained;
        for (std::size_t i = 1; i < order.size(); ++i) {
            const Placed& a = order[i - 1];
            const Placed& b = order[i];
            if (a.deviceId == b.deviceId && a.owner != kNoOperator && b.owner != kNoOperator && a.owner != b.owner) {
                chained.insert(a.owner);
                chained.insert(b.owner);
            }
        }
        for (const std::size_t op : chained)
            m_out.rows[m_callRow.at(op)].callsInFusableChain += 1;
    }

    std::size_t rowFor(const SessionReader::OperatorSpan& op)
    {
        const RowKey key { op.nameId, op.inputDimsId, op.inputTypesId };
        auto [it, inserted] = m_rowIndex.try_emplace(key, m_out.rows.size());
        if (inserted) {
            OperatorShapeRow row;
            row.name = std::string(nameOf(op.nameId));
            row.inputDims = compactJson(text(op.inputDimsId));
            row.inputTypes = compactJson(text(op.inputTypesId));
            m_out.rows.push_back(std::move(row));
            m_rowLongest.push_back(-1);
            m_rowRefs.emplace_back();
        }
        return it->second;
    }

    // Each modelled row's verdict: its work per call over its GPU time per call, against the
    // roofs of its device, by the rules of a launch (analyzeKernel).
    void finishRows()
    {
        for (std::size_t r = 0; r < m_out.rows.size(); ++r) {
            auto& refs = m_out.rows[r].kernelRefs;
            for (const auto& [key, ref] : m_rowRefs[r])
                refs.push_back({ key.first, key.second, ref.launches, ref.timeNs });
            std::stable_sort(
                refs.begin(), refs.end(), [](const auto& a, const auto& b) { return a.timeNs > b.timeNs; });
        }
        for (auto& row : m_out.rows) {
            if (!row.work || row.calls <= 0)
                continue;
            KernelFacts facts;
            facts.durationNs = row.gpuTimeNs / row.calls;
            if (auto d = m_devices.find(row.deviceId); d != m_devices.end())
                facts.device = &d->second;
            if (auto c = m_ceilings.find(row.deviceId); c != m_ceilings.end())
                facts.ceilings = c->second;
            const double calls = static_cast<double>(row.calls);
            auto call = std::make_shared<const ShapeCall>(ShapeCall { row.name, *row.work });
            facts.shapes = ShapeFigures { row.flops / calls, row.bytes / calls, 1.0, std::move(call) };
            row.analysis = analyzeKernel(facts);
        }
        std::stable_sort(m_out.rows.begin(), m_out.rows.end(), [](const auto& a, const auto& b) {
            return std::tie(b.gpuTimeNs, a.name, a.inputDims) < std::tie(a.gpuTimeNs, b.name, b.inputDims);
        });
    }

    SessionReader& m_reader;
    const OperatorLinks& m_links;
    std::unordered_map<std::int64_t, NameFacts> m_names;
    std::unordered_map<std::int64_t, std::string> m_kernelNames; // kernel_names.id -> demangled (else raw)
    std::map<const ShapeCall*, std::shared_ptr<const ShapeCall>> m_tf32Calls; // a call's TF32 variant
    std::map<std::int64_t, std::string> m_texts;
    std::map<CallKey, std::pair<std::shared_ptr<const ShapeCall>, std::string>> m_models;
    std::map<RowKey, std::size_t> m_rowIndex;
    std::vector<std::int64_t> m_rowLongest; // per row: its longest launch, whose device judges it
    struct RefSums {
        std::int64_t launches = 0, timeNs = 0;
    };
    std::vector<std::map<std::pair<std::int64_t, std::int64_t>, RefSums>> m_rowRefs; // per row: by (name, device)
    std::unordered_map<std::size_t, std::size_t> m_fusableKernel; // gpuOps index -> its fusable call (operator index)
    std::unordered_map<std::size_t, std::size_t> m_callRow; // fusable call -> its row
    std::map<std::int64_t, Device> m_devices;
    std::map<std::int64_t, std::vector<Ceiling>> m_ceilings;
    OperatorShapes m_out;
};

} // namespace

Result<OperatorShapes> modelOperatorShapes(SessionReader& reader, const OperatorLinks& links)
{
    return ShapeAttribution(reader, links).run();
}

std::vector<KernelSummary> shapeSummaries(const OperatorShapes& shapes)
{
    std::vector<KernelSummary> out;
    for (std::size_t i = 0; i < shapes.rows.size(); ++i) {
        const OperatorShapeRow& row = shapes.rows[i];
        if (!row.work)
            continue;
        KernelSummary k;
        k.nameId = -1 - static_cast<std::int64_t>(i);
        k.deviceId = row.deviceId;
        k.name = row.name + (row.inputDims.empty() ? std::string() : " " + row.inputDims);
        k.mangledName = k.name;
        k.shortName = k.name;
        k.launches = row.calls;
        k.totalNs = row.gpuTimeNs;
        k.minNs = k.maxNs = row.calls > 0 ? row.gpuTimeNs / row.calls : 0;
        k.shareOfKernelTime = shapes.kernelTimeNs > 0
            ? static_cast<double>(row.gpuTimeNs) / static_cast<double>(shapes.kernelTimeNs)
            : 0.0;
        k.analysis = row.analysis;
        out.push_back(std::move(k));
    }
    return out;
}

Result<std::shared_ptr<const OperatorShapes>> sessionOperatorShapes(SessionReader& reader, const OperatorLinks* links)
{
    constexpr std::string_view kKey = "analysis/operator-shapes";
    if (auto kept = reader.derived(kKey))
        return std::static_pointer_cast<const OperatorShapes>(kept);
    auto withOperators = reader.hasOperators();
    if (withOperators.hasError())
        return withOperators.error();
    auto withShapes = withOperators.value() ? reader.mayHaveOperatorShapes() : Result<bool>(false);
    if (withShapes.hasError())
        return withShapes.error();
    auto shapes = std::make_shared<OperatorShapes>();
    if (withShapes.value()) {
        auto modelled = links ? modelOperatorShapes(reader, *links) : modelOperatorShapes(reader);
        if (modelled.hasError())
            return modelled.error();
        *shapes = std::move(modelled).value();
    }
    reader.keepDerived(kKey, shapes);
    return std::shared_ptr<const OperatorShapes>(std::move(shapes));
}

Result<OperatorShapes> modelOperatorShapes(SessionReader& reader)
{
    auto links = linkOperators(reader, [](SessionReader&) -> Result<KernelVerdicts> { return KernelVerdicts {}; });
    if (links.hasError())
        return links.error();
    return modelOperatorShapes(reader, links.value());
}

} // namespace ridgeline::core
