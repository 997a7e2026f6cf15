// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/advice.h"

#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/model/resource.h"

namespace ridgeline::core {

namespace {

using Advice = std::vector<std::string>;

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool isTensorBound(std::string_view boundBy)
{
    return resourceFromString(boundBy) == Resource::Tensor || isTensorPipe(boundBy);
}

Advice computeAdvice(std::string_view boundBy)
{
    if (boundBy == resource::FP64)
        return { "Check that double precision is needed: FP32 runs at many times the FP64 rate on most GPUs.",
            "On A100/H100, move matrix work to FP64 tensor cores (cuBLAS/cuSOLVER DGEMM use them).",
            "Do less arithmetic: hoist loop-invariant work, reuse results instead of recomputing them." };
    if (boundBy == resource::FP32)
        return { "Move matrix-shaped work to tensor cores: TF32 (cuBLAS/cuDNN math mode) or FP16/BF16 with "
                 "FP32 accumulation.",
            "Cut instructions: let the compiler fuse multiply-adds (FMA), hoist invariant work out of loops, use "
            "fast intrinsics (__expf, __fdividef) where the accuracy allows.",
            "Near the FP32 roof only less work or a faster unit helps: profile the algorithm, not the memory "
            "accesses." };
    if (boundBy == resource::FP16)
        return { "Use tensor cores (cuBLAS, CUTLASS, WMMA/MMA) instead of CUDA-core half arithmetic.",
            "Use packed half2/bfloat162 arithmetic so every instruction does two operations." };
    if (isTensorBound(boundBy))
        return { "The tensor cores are near their peak: a lower precision (BF16/FP16 instead of TF32, FP8 on "
                 "Hopper) or less work (structured sparsity, smaller shapes) are the remaining levers.",
            "Keep matrix dimensions multiples of 8 (16 for INT8/FP8) so no tensor work is spent on padding.",
            "Overlap the epilogue (bias, activation) with the next tile, or fuse it, so the tensor pipe never "
            "waits." };
    if (boundBy == "SM")
        return { "Issue fewer instructions: the SM is busy, but not (or not known to be) with floating point. Nsight "
                 "Compute's Compute Workload Analysis and Instruction Statistics name the busiest pipe (ALU, FMA, "
                 "LSU, ...).",
            "Cut integer and address arithmetic: hoist index computations out of loops, use 32-bit indices where they "
            "suffice, replace division and modulo by run-time values with multiplications or precomputed "
            "constants.",
            "Cut load/store instructions: vector loads and stores (float4, 128-bit) move the same bytes in a quarter "
            "of the instructions; keep reused values in registers; avoid shared-memory bank conflicts (replays).",
            "Fuse neighbouring elementwise kernels so the per-element overhead (index math, loads, stores, launch) "
            "is paid once." };
    return { "Do less arithmetic or use a faster unit for it (tensor cores, lower precision)." };
}

Advice memoryAdvice(std::string_view boundBy)
{
    if (boundBy == resource::DRAM)
        return { "Reuse each byte more: tile the data into shared memory or registers so a value loaded from "
                 "DRAM serves several operations.",
            "Fuse this kernel with its producer or consumer so intermediate results stay on chip instead of "
            "round-tripping through DRAM.",
            "Coalesce global accesses (consecutive threads read consecutive addresses) and use vector loads "
            "(float4) so no fetched byte is wasted.",
            "Move fewer bytes: smaller data types (FP16/BF16, INT8) or compressed formats.",
            "Keep a reused working set resident in L2 (cudaAccessPolicyWindow, persisting L2 cache)." };
    if (boundBy == resource::L2)
        return { "Serve more requests from L1/shared memory: stage reused data in shared memory per block.",
            "Improve locality between neighbouring blocks (tile or swizzle the block order) and avoid scattered "
            "or strided accesses.",
            "Aggregate atomics in shared memory before one global atomic per block." };
    if (boundBy == resource::L1)
        return { "Remove shared-memory bank conflicts (pad the arrays, or swizzle the index).",
            "Keep per-thread data in registers; check for register spills to local memory (-Xptxas -v).",
            "Use wider loads (128-bit) so fewer L1 transactions carry the same bytes." };
    return { "Reuse data on chip (tiling, fusion) so fewer bytes move through the memory hierarchy." };
}

Advice communicationAdvice(std::string_view boundBy)
{
    if (boundBy == resource::PCIe)
        return { "Use pinned (page-locked) host memory and cudaMemcpyAsync on a separate stream so copies overlap "
                 "with kernels.",
            "Batch small copies into large ones; per-copy overhead dominates below a few hundred KiB.",
            "Keep data on the GPU between kernels instead of copying it back and forth." };
    if (boundBy == resource::NVLink)
        return { "Overlap peer-to-peer copies with computation on another stream.",
            "Partition the data so each GPU mostly reads its own memory." };
    return { "Overlap the collective with computation: bucket gradients and launch communication on its own "
             "stream as soon as a bucket is ready.",
        "Send fewer bytes: lower-precision communication (BF16/FP8), gradient compression, or fewer, larger "
        "buckets to amortise latency.",
        "Check the path the collective takes (NVLink or PCIe, ring or tree: NCCL_ALGO, NCCL_PROTO) and that "
        "ranks on one node use NVLink." };
}

Advice latencyAdvice(std::string_view hint)
{
    if (startsWith(hint, "less than one wave"))
        return { "Launch more blocks: the grid does not fill every SM once. Split the work finer, or batch several "
                 "independent problems into one launch.",
            "Use smaller blocks (more blocks for the same threads) so the work spreads over all SMs.",
            "Run independent small kernels concurrently in separate streams or one CUDA graph." };
    if (startsWith(hint, "too short"))
        return { "Fuse this kernel with its neighbours or batch several calls into one launch: ramp-up, tail and "
                 "launch overhead dominate a kernel this short.",
            "Capture the sequence of small launches in a CUDA graph to cut launch overhead." };
    return { "Raise occupancy: fewer registers per thread (__launch_bounds__, -maxrregcount) and less shared memory "
             "per block, so more warps hide latency.",
        "Give each thread more independent work in flight: several loads before their first use, unrolled loops, "
        "asynchronous copies (cp.async / TMA) to prefetch.",
        "Remove synchronisation from the hot loop (__syncthreads, atomics, host syncs) and check warp divergence." };
}

Advice unknownAdvice(bool hasCounters)
{
    if (hasCounters)
        return { "Add ceilings for this GPU (measured, or from 'ridgeline ceilings') so its counters can be "
                 "compared with a roof." };
    return { "Collect hardware counters for this kernel: profile it with Nsight Compute's roofline section and "
             "import the CSV, or capture with a roofline metric set.",
        "Without counters only its time is known: start with the kernels that take the most of it." };
}

} // namespace

std::vector<std::string> adviceFor(const AdviceInput& in)
{
    Advice advice;
    if (in.boundUtilization && *in.boundUtilization > 1.0)
        advice.push_back("Above 100 % of its ceiling: check the ceiling ('ridgeline ceilings') and the counters "
                         "before acting on this verdict.");
    Advice specific;
    // No default: a verdict class without advice is a -Wswitch error.
    switch (in.verdict) {
    case VerdictClass::ComputeBound:
        specific = computeAdvice(in.boundBy);
        break;
    case VerdictClass::MemoryBound:
        specific = memoryAdvice(in.boundBy);
        break;
    case VerdictClass::CommunicationBound:
        specific = communicationAdvice(in.boundBy);
        break;
    case VerdictClass::LatencyBound:
        specific = latencyAdvice(in.latencyHint);
        break;
    case VerdictClass::Unknown:
        specific = unknownAdvice(in.hasCounters);
        break;
    }
    advice.insert(advice.end(), specific.begin(), specific.end());
    return advice;
}

std::vector<std::string> adviceFor(const KernelAnalysis& a)
{
    return adviceFor(AdviceInput { a.verdict, a.boundBy, a.latencyHint, a.boundUtilization, a.hasCounters });
}

} // namespace ridgeline::core
