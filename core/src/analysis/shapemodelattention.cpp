// SPDX-License-Identifier: MIT
// Attention: the two GEMMs S = Q·Kᵀ and O = P·V, 2·B·Hq·Nq·Nkv·(dqk + dv) FLOPs (4·B·H·Nq·Nkv·d),
// halved when causal; the softmax is left out, as the FlashAttention paper's benchmarks and
// TraceLens (PerfModel SDPA.flops_func) count. The backward of the fused kernels recomputes
// Q·Kᵀ and does four more GEMMs: 2.5× the forward (TraceLens SDPA.flops_bwd_func, flash_impl).
// Bytes: Q, K, V read and O written (backward: Q, K, V, dO read and dQ, dK, dV written).
#include "shapemodelfamilies.h"

#include <cmath>
#include <fmt/format.h>

namespace ridgeline::core::shapes {

namespace {

enum class AttnLayout { BHND, BNHD, THD };

struct AttnSpec {
    std::size_t q = 0; // the index of Q (K and V follow)
    AttnLayout layout = AttnLayout::BHND;
    bool backward = false;
    int causal = -1; // the index of is_causal
    int maskType = -1; // the index of custom_mask_type (efficient attention: 0 none, 1 and 2 causal)
    int mask = -1; // the index of attn_mask / attn_bias, read when present
    int cuSeqQ = -1; // varlen: cu_seqlens_q, cu_seqlens_k (the next), max_seqlen_q, max_seqlen_k
    int maxSeqQ = -1;
};

AttnSpec attnSpec(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::SdpaFlash:
        return { 0, AttnLayout::BHND, false, 4, -1, -1, -1, -1 };
    case AttentionKind::SdpaEfficient:
    case AttentionKind::SdpaCudnn:
        return { 0, AttnLayout::BHND, false, 6, -1, 3, -1, -1 };
    case AttentionKind::SdpaMath:
    case AttentionKind::Sdpa:
        return { 0, AttnLayout::BHND, false, 5, -1, 3, -1, -1 };
    case AttentionKind::SdpaFlashBackward:
        return { 1, AttnLayout::BHND, true, 11, -1, -1, -1, -1 };
    case AttentionKind::SdpaEfficientBackward:
        return { 1, AttnLayout::BHND, true, 11, -1, 4, -1, -1 };
    case AttentionKind::SdpaCudnnBackward:
        return { 1, AttnLayout::BHND, true, 14, -1, 8, -1, -1 };
    case AttentionKind::FlashForward:
        return { 0, AttnLayout::BNHD, false, 8, -1, -1, 3, 5 };
    case AttentionKind::FlashBackward:
        return { 1, AttnLayout::BNHD, true, 11, -1, -1, 6, 8 };
    case AttentionKind::EfficientForward:
        return { 0, AttnLayout::BNHD, false, -1, 9, 3, 4, 6 };
    case AttentionKind::EfficientBackward:
        return { 1, AttnLayout::BNHD, true, -1, 14, 4, 6, 8 };
    case AttentionKind::FlashAttn:
        return { 0, AttnLayout::BNHD, false, 5, -1, -1, -1, -1 };
    case AttentionKind::FlashAttnBackward:
        return { 1, AttnLayout::BNHD, true, 11, -1, -1, -1, -1 };
    case AttentionKind::FlashAttnVarlen:
        return { 0, AttnLayout::THD, false, 9, -1, -1, 3, 5 };
    case AttentionKind::FlashAttnVarlenBackward:
        return { 1, AttnLayout::THD, true, 15, -1, -1, 9, 11 };
    }
    return {};
}

struct AttnShape {
    double b = 1;
    double hq = 0;
    double hkv = 0;
    double nq = 0;
    double nkv = 0;
    double dqk = 0;
    double dv = 0;
};

// The FLOPs of one (B, Hq, Nq, Nkv) block, before the causal halving.
double attnFlops(const AttnShape& s, double nq, double nkv, bool backward)
{
    if (!backward)
        return s.b * s.hq * nq * nkv * (2 * s.dqk + 2 * s.dv);
    // Recompute Q·Kᵀ, then dV = Pᵀ·dO, dP = dO·Vᵀ, dQ = dS·K, dK = dSᵀ·Q; grouped-query attention
    // adds the sum of dK and dV over the heads that share them.
    const double groups = s.hkv > 0 ? std::floor(s.hq / s.hkv) : 1;
    return s.b * s.hq * nq * nkv * (3 * 2 * s.dqk + 2 * 2 * s.dv) + s.b * nkv * (s.dv + s.dqk) * (groups - 1);
}

// Reads B, H, N, d of one of Q, K, V.
bool attnDims(const ShapeArg* t, AttnLayout layout, double& b, double& h, double& n, double& d)
{
    if (!t)
        return false;
    const Dims& x = t->dims;
    switch (layout) {
    case AttnLayout::BHND:
        if (x.size() != 4)
            return false;
        b = x[0], h = x[1], n = x[2], d = x[3];
        return true;
    case AttnLayout::BNHD:
        if (x.size() != 4)
            return false;
        b = x[0], n = x[1], h = x[2], d = x[3];
        return true;
    case AttnLayout::THD:
        if (x.size() != 3)
            return false;
        b = 1, n = x[0], h = x[1], d = x[2];
        return true;
    }
    return false;
}

} // namespace

OperatorModel modelAttention(std::string_view name, const ShapeArgs& args, int kind)
{
    AttnSpec spec = attnSpec(static_cast<AttentionKind>(kind));
    const ShapeArg* q = args.tensor(spec.q);
    const ShapeArg* k = args.tensor(spec.q + 1);
    const ShapeArg* v = args.tensor(spec.q + 2);
    if (!q || !k || !v)
        return noModel(name, "Q, K or V is not a tensor");
    // aten::_flash_attention_forward and friends take (total, H, d) with cumulative lengths.
    if (spec.layout == AttnLayout::BNHD && spec.cuSeqQ >= 0 && q->dims.size() == 3)
        spec.layout = AttnLayout::THD;
    AttnShape s;
    double bk = 0;
    double bv = 0;
    double hv = 0;
    double nv = 0;
    double dk = 0;
    if (!attnDims(q, spec.layout, s.b, s.hq, s.nq, s.dqk) || !attnDims(k, spec.layout, bk, s.hkv, s.nkv, dk)
        || !attnDims(v, spec.layout, bv, hv, nv, s.dv))
        return noModel(name, "Q, K and V are not of the expected rank");
    if (bk != s.b || bv != s.b || hv != s.hkv || nv != s.nkv || dk != s.dqk)
        return noModel(name, "Q, K and V do not agree in batch, heads, length or head size");
    if (s.hkv == 0 || std::fmod(s.hq, s.hkv) != 0)
        return noModel(name, "the heads of Q are not a multiple of those of K");

    bool causal = false;
    if (spec.causal >= 0) {
        const auto c = concreteBool(args.at(static_cast<std::size_t>(spec.causal)));
        if (!c)
            return noModel(name, "is_causal is not recorded (no Concrete Inputs)");
        causal = *c;
    } else if (spec.maskType >= 0) {
        const auto t = concreteInt(args.at(static_cast<std::size_t>(spec.maskType)));
        if (!t)
            return noModel(name, "custom_mask_type is not recorded (no Concrete Inputs)");
        causal = *t != 0;
    }

    double flops = 0;
    std::string shapeText;
    if (spec.layout == AttnLayout::THD) {
        // Variable-length sequences packed in one: only their number and the longest are known.
        // As TraceLens does: one sequence of the longest length, the others of equal length.
        const ShapeArg* cuQ = args.tensor(static_cast<std::size_t>(spec.cuSeqQ));
        const ShapeArg* cuK = args.tensor(static_cast<std::size_t>(spec.cuSeqQ + 1));
        const auto maxQ = concreteNumber(args.at(static_cast<std::size_t>(spec.maxSeqQ)));
        const auto maxK = concreteNumber(args.at(static_cast<std::size_t>(spec.maxSeqQ + 1)));
        if (!cuQ || !cuK || cuQ->dims.size() != 1 || cuK->dims.size() != 1 || cuQ->dims[0] < 2 || cuK->dims[0] < 2)
            return noModel(name, "the cumulative sequence lengths are not recorded");
        if (!maxQ || !maxK || *maxQ < 0 || *maxK < 0 || *maxQ > s.nq || *maxK > s.nkv)
            return noModel(name, "the longest sequence lengths are not recorded");
        const double seqs = cuQ->dims[0] - 1;
        const double seqsK = cuK->dims[0] - 1;
        double restQ = 0;
        double restK = 0;
        if (seqs > 1) {
            if (seqsK != seqs)
                return noModel(name, "Q and K have different numbers of sequences");
            restQ = std::floor((s.nq - *maxQ) / (seqs - 1));
            restK = std::floor((s.nkv - *maxK) / (seqsK - 1));
        }
        if (causal && (*maxQ != *maxK || restQ != restK))
            return noModel(name, "causal attention with Nq ≠ Nkv (the masked share depends on the alignment)");
        flops = attnFlops(s, *maxQ, *maxK, spec.backward) + (seqs - 1) * attnFlops(s, restQ, restK, spec.backward);
        shapeText = fmt::format("{} sequences: one of Nq={}, Nkv={} and {} of Nq={}, Nkv={} (estimate, as TraceLens); "
                                "Hq={}, Hkv={}, dqk={}, dv={}",
            num(seqs), num(*maxQ), num(*maxK), num(seqs - 1), num(restQ), num(restK), num(s.hq), num(s.hkv), num(s.dqk),
            num(s.dv));
    } else {
        if (causal && s.nq != s.nkv)
            return noModel(name, "causal attention with Nq ≠ Nkv (the masked share depends on the alignment)");
        flops = attnFlops(s, s.nq, s.nkv, spec.backward);
        shapeText = fmt::format("B={}, Hq={}, Hkv={}, Nq={}, Nkv={}, dqk={}, dv={}", num(s.b), num(s.hq), num(s.hkv),
            num(s.nq), num(s.nkv), num(s.dqk), num(s.dv));
    }
    if (causal)
        flops /= 2;

    const double bpe = q->type.bytes;
    const double out = q->elements() / (s.dqk > 0 ? s.dqk : 1) * s.dv; // O (and dO): Q's shape with dv
    const double mask = spec.mask >= 0 ? tensorBytes(args.tensor(static_cast<std::size_t>(spec.mask))) : 0;
    double bytes = 0;
    std::string bytesText;
    if (!spec.backward) {
        bytes = (q->elements() + k->elements() + v->elements() + out) * bpe + mask;
        bytesText = fmt::format("(Q {} + K {} + V {} + O {})·{}{}", num(q->elements()), num(k->elements()),
            num(v->elements()), num(out), num(bpe), mask > 0 ? " + mask " + num(mask) : std::string());
    } else {
        bytes = (2 * (q->elements() + k->elements() + v->elements()) + out) * bpe + mask;
        bytesText = fmt::format("(Q, K, V {} + dO {} + dQ, dK, dV {})·{}{}",
            num(q->elements() + k->elements() + v->elements()), num(out),
            num(q->elements() + k->elements() + v->elements()), num(bpe),
            mask > 0 ? " + mask " + num(mask) : std::string());
    }

    std::string flopsText;
    if (!spec.backward)
        flopsText = s.dqk == s.dv ? "4·B·H·Nq·Nkv·d" : "2·B·Hq·Nq·Nkv·(dqk + dv)";
    else
        flopsText
            = "2.5 × forward: 2·B·Hq·Nq·Nkv·(3·dqk + 2·dv)" + std::string(s.hq != s.hkv ? " + GQA head sums" : "");
    if (causal)
        flopsText += " ÷ 2 (causal)";
    const auto formula = fmt::format("{}; {} → {} FLOPs; bytes {} = {}{}", flopsText, shapeText, num(flops), bytesText,
        num(bytes),
        q->type.precision == Precision::FP32 ? " (fp32 on the FP32 pipe: PyTorch's default matmul does not use TF32)"
                                             : "");
    return work("attention", flops, bytes, matrixPipe(q->type.precision), q->type.precision, formula);
}

} // namespace ridgeline::core::shapes
