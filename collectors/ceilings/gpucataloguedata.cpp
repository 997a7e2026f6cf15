// SPDX-License-Identifier: MIT
// Datasheet figures, one entry per product. Conventions (see gpucatalogue.h):
// - DENSE tensor peaks. A figure written "N * T / 2" is a datasheet figure N printed with 2:4
//   sparsity (marked * there), halved here; a figure written "N * T" is printed dense.
// - NVLink and PCIe PER DIRECTION: datasheets print bidirectional totals ("900 GB/s", "PCIe Gen5:
//   128 GB/s"), written here as "N * G / 2".
// - "derived" marks a figure the datasheet does not print, computed from SMs x per-SM rate x
//   boost clock; "unverified" marks one that could not be checked against a copy of the source.
// The lookups behind these figures are listed in the comment of each entry.
#include "gpucataloguedata.h"

#include "ridgeline/core/model/resource.h"

namespace ridgeline::collectors::detail {

namespace {

using enum ridgeline::core::Resource; // FP64, DRAM, NVLink, ...: the figures are keyed by the resource

constexpr double T = 1e12; // tera
constexpr double G = 1e9; // giga

// FP64 on Ampere GA10x / Ada parts, whose datasheets do not print it: 2 FP64 FMA per SM per clock
// (1/64 of FP32; CUDA C++ Programming Guide, "Arithmetic Instructions" throughput table, CC 8.6 and
// 8.9), 2 FLOPs each, at the boost clock. Derived, not a datasheet figure.
constexpr double derivedFp64(int smCount, double boostClockHz)
{
    return smCount * 2.0 * 2.0 * boostClockHz;
}

// Hopper GH100 at 132 SMs and 1.98 GHz (H100 SXM5, H200 SXM, GH200): identical compute peaks.
// NVIDIA H100 datasheet, H100 SXM column: FP64 34, FP64 Tensor 67, FP32 67 TFLOPS; TF32 989*,
// BF16 1,979*, FP16 1,979*, FP8 3,958*, INT8 3,958* TOPS (* with sparsity).
core::ResourceMap<double> hopperSxmCompute()
{
    return {
        { FP64, 34 * T },
        { FP64Tensor, 67 * T },
        { FP32, 67 * T },
        { TF32Tensor, 989 * T / 2 },
        { BF16Tensor, 1979 * T / 2 },
        { FP16Tensor, 1979 * T / 2 },
        { FP8Tensor, 3958 * T / 2 },
        { INT8Tensor, 3958 * T / 2 },
    };
}

core::ResourceMap<double> with(core::ResourceMap<double> peaks, core::ResourceMap<double> more)
{
    peaks.merge(more);
    return peaks;
}

// A100 (SXM4 and PCIe, 40 and 80 GB): the datasheet prints dense and sparse (*) side by side:
// FP64 9.7, FP64 Tensor 19.5, FP32 19.5, TF32 156 | 312*, BF16 312 | 624*, FP16 312 | 624*,
// INT8 624 | 1,248* TOPS. Interconnect: NVLink 600 GB/s (PCIe cards: NVLink bridge for 2 GPUs),
// PCIe Gen4 64 GB/s. No FP8.
core::ResourceMap<double> ampereA100(double dramBytesPerS)
{
    return {
        { FP64, 9.7 * T },
        { FP64Tensor, 19.5 * T },
        { FP32, 19.5 * T },
        { TF32Tensor, 156 * T },
        { BF16Tensor, 312 * T },
        { FP16Tensor, 312 * T },
        { INT8Tensor, 624 * T },
        { DRAM, dramBytesPerS },
        // NVIDIA A100 Tensor Core GPU Architecture whitepaper, A100 vs V100 table: L2 cache read
        // bandwidth 5,120 B/clk (V100: 2,048; "2.3x" at the two boost clocks), L1/shared memory
        // 128 B/clk per SM; at the 1,410 MHz boost clock x 108 SMs.
        { L2, 5120 * 1.41e9 },
        { L1, 128 * 108 * 1.41e9 },
        { NVLink, 600 * G / 2 },
        { PCIe, 64 * G / 2 },
    };
}

constexpr const char* kA100Source
    = "NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf), "
      "'Technical Specifications' table (dense figures as printed, starred ones are sparse; checked against "
      "glennklockwood.com/garden/processors/A100); boost clock 1410 MHz and 108 SMs: deviceQuery of an A100 "
      "(upb-pc2.atlassian.net PC2 'NVIDIA A100 40GB with NVLINK'); L2 5,120 B/clk and L1 128 B/clk/SM: NVIDIA A100 "
      "Tensor Core GPU Architecture whitepaper (A100 vs V100 comparison table)";

} // namespace

std::vector<GpuSpec> makeGpuCatalogue()
{
    std::vector<GpuSpec> gpus;

    // H100 SXM5. Verified: every figure against the hpctech copy of the datasheet table; boost
    // clock and SM count against glennklockwood.com (132 SMs, 1.98 GHz; 67 TFLOPS = 132 x 256 x 1.98 GHz).
    gpus.push_back(
        { "NVIDIA H100 SXM5 80GB", { "h100 80gb hbm3", "h100 sxm5 80gb", "h100 sxm5", "h100 sxm", "h100" }, 9, 0, 132,
            1.98e9, with(hopperSxmCompute(), { { DRAM, 3.35 * T }, { NVLink, 900 * G / 2 }, { PCIe, 128 * G / 2 } }),
            "NVIDIA H100 Tensor Core GPU datasheet, 'Technical Specifications' table, H100 SXM column (copy: "
            "archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html; tensor figures there are with sparsity, halved); "
            "132 SMs and 1.98 GHz boost: glennklockwood.com/garden/processors/h100" });

    // H100 PCIe. Verified: every figure against the hpctech copy of the datasheet table (FP64 26,
    // FP64 Tensor 51, FP32 51, TF32 756*, BF16/FP16 1,513*, FP8/INT8 3,026*, 2,000 GB/s, NVLink 600 GB/s,
    // PCIe Gen5 128 GB/s). Boost 1755 MHz: hmc-tech.com (51.2 TFLOPS = 114 x 256 x 1.755 GHz).
    gpus.push_back({ "NVIDIA H100 PCIe 80GB", { "h100 pcie", "h100 pcie 80gb", "h100" }, 9, 0, 114, 1.755e9,
        {
            { FP64, 26 * T },
            { FP64Tensor, 51 * T },
            { FP32, 51 * T },
            { TF32Tensor, 756 * T / 2 },
            { BF16Tensor, 1513 * T / 2 },
            { FP16Tensor, 1513 * T / 2 },
            { FP8Tensor, 3026 * T / 2 },
            { INT8Tensor, 3026 * T / 2 },
            { DRAM, 2.0 * T },
            { NVLink, 600 * G / 2 },
            { PCIe, 128 * G / 2 },
        },
        "NVIDIA H100 Tensor Core GPU datasheet, 'Technical Specifications' table, H100 PCIe column (copy: "
        "archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html; tensor figures there are with sparsity, halved); "
        "1755 MHz boost: hmc-tech.com" });

    // H200 SXM. Verified against third-party copies of the H200 datasheet only (the NVIDIA PDF was not
    // read): FP64 34, FP8 3,958* (lzwjava.github.io), BF16 ~1,979* (ai-hpc.github.io), 4.8 TB/s,
    // NVLink 900 GB/s bidirectional (aiminingco.com, saulelectric.com), PCIe Gen5 128 GB/s. FP64 Tensor,
    // FP32, TF32 and INT8 are the H100 SXM5 figures (same GH100 die, 132 SMs, 1980 MHz: hmc-tech.com):
    // unverified against the H200 datasheet itself.
    gpus.push_back({ "NVIDIA H200 SXM 141GB", { "h200", "h200 sxm", "h200 sxm 141gb" }, 9, 0, 132, 1.98e9,
        with(hopperSxmCompute(), { { DRAM, 4.8 * T }, { NVLink, 900 * G / 2 }, { PCIe, 128 * G / 2 } }),
        "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column, as quoted by lzwjava.github.io/nvidia-h200-gpu-"
        "specs-en and aiminingco.com/gpu/h200/specs (tensor figures with sparsity, halved); compute as H100 SXM5 "
        "(same GH100 die at 132 SMs and 1980 MHz, hmc-tech.com)" });

    // GH200 Grace Hopper, 96 GB HBM3 + 480 GB LPDDR5X ("NVIDIA GH200 480GB"). The GPU is an H100 SXM5-class
    // GH100 (132 SMs: GPUInspector.jl issue #27 computes 33.5/66.9 TFLOPS on one); 4 TB/s HBM3:
    // nishikiout.net report of NVIDIA's GH200 announcement. Unverified: the GH200 datasheet itself was
    // not read; NVLink 900 GB/s is the GH100's 18 NVLink4 links (unverified for GH200 systems). The
    // NVLink-C2C link to the Grace CPU (900 GB/s bidirectional) replaces PCIe to the host and is not a
    // resource here, so no PCIe entry. The 144 GB HBM3e variant ("NVIDIA GH200 144G HBM3e") is not
    // catalogued: its bandwidth (4.9 or 5 TB/s) could not be verified.
    gpus.push_back({ "NVIDIA GH200 480GB (96GB HBM3)", { "gh200 480gb" }, 9, 0, 132, 1.98e9,
        with(hopperSxmCompute(), { { DRAM, 4.0 * T }, { NVLink, 900 * G / 2 } }),
        "NVIDIA GH200 Grace Hopper Superchip datasheet (not read directly): GPU compute as H100 SXM5 (NVIDIA H100 "
        "datasheet, tensor figures with sparsity, halved); 96 GB HBM3 at 4 TB/s as reported by nishikiout.net "
        "(2023-08-09); NVLink unverified" });

    // A100. Verified: all compute figures and 1,555 / 2,039 GB/s against glennklockwood.com (which cites
    // the datasheet) and PC2's copy; 1,935 GB/s (80 GB PCIe) from the datasheet, not re-checked here
    // (unverified). NVLink 600 GB/s and PCIe Gen4 64 GB/s: datasheet, confirmed by glennklockwood.com
    // ("300+300 GB/s NVLink", "32+32 GB/s PCIe Gen4").
    gpus.push_back({ "NVIDIA A100 SXM4 40GB", { "a100 sxm4 40gb", "a100" }, 8, 0, 108, 1.41e9, ampereA100(1555 * G),
        kA100Source });
    gpus.push_back({ "NVIDIA A100 SXM4 80GB", { "a100 sxm4 80gb", "a100 sxm 80gb", "a100" }, 8, 0, 108, 1.41e9,
        ampereA100(2039 * G), kA100Source });
    gpus.push_back({ "NVIDIA A100 PCIe 40GB", { "a100 pcie 40gb", "a100" }, 8, 0, 108, 1.41e9, ampereA100(1555 * G),
        kA100Source });
    gpus.push_back({ "NVIDIA A100 PCIe 80GB", { "a100 80gb pcie", "a100 pcie 80gb", "a100" }, 8, 0, 108, 1.41e9,
        ampereA100(1935 * G), kA100Source });

    // L40S. Verified: FP32 91.6, TF32 183 | 366*, BF16/FP16 362.05 | 733*, FP8 733 | 1,466*, 864 GB/s,
    // "PCIe Gen4 x16: 64GB/s bidirectional", no NVLink (mullet.se copy of the datasheet table); INT8 733
    // TOPS dense (store.sourcecode.com copy, hmc-tech.com); 142 SMs (RT cores), 2520 MHz (itcreations.com).
    // FP64: derived (142 x 4 x 2.52 GHz = 1.43 TFLOPS; hmc-tech.com and itcreations.com list the same).
    gpus.push_back({ "NVIDIA L40S", { "l40s" }, 8, 9, 142, 2.52e9,
        {
            { FP64, derivedFp64(142, 2.52e9) },
            { FP32, 91.6 * T },
            { TF32Tensor, 183 * T },
            { BF16Tensor, 362.05 * T },
            { FP16Tensor, 362.05 * T },
            { FP8Tensor, 733 * T },
            { INT8Tensor, 733 * T },
            { DRAM, 864 * G },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA L40S datasheet, specifications table (copy: mullet.se product 355414; dense figures as printed); "
        "2520 MHz boost: itcreations.com; FP64 derived at 1/64 of FP32 (not on the datasheet)" });

    // L4. Verified: TF32 120*, FP16 242*, FP8/INT8 485* (sparse; store.sourcecode.com copy and
    // grokipedia.com), 300 GB/s, 72 W; 58 SMs, 2040 MHz, CC 8.9: deviceQuery of an L4 in
    // bottlerocket-os/bottlerocket-kernel-kit PR #139 (30.3 TFLOPS = 58 x 256 x 2.04 GHz). BF16 242* is
    // the datasheet's figure, not re-checked (unverified; equal to FP16 on every Ada part). FP64 derived.
    gpus.push_back({ "NVIDIA L4", { "l4" }, 8, 9, 58, 2.04e9,
        {
            { FP64, derivedFp64(58, 2.04e9) },
            { FP32, 30.3 * T },
            { TF32Tensor, 120 * T / 2 },
            { BF16Tensor, 242 * T / 2 },
            { FP16Tensor, 242 * T / 2 },
            { FP8Tensor, 485 * T / 2 },
            { INT8Tensor, 485 * T / 2 },
            { DRAM, 300 * G },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA L4 Tensor Core GPU datasheet, specifications table (tensor figures with sparsity, halved; copy: "
        "store.sourcecode.com L4/L40S comparison); 58 SMs and 2040 MHz: deviceQuery in "
        "github.com/bottlerocket-os/bottlerocket-kernel-kit/pull/139; FP64 derived at 1/64 of FP32" });

    // A10 (not the A10G of AWS, a different product). Verified: 72 SMs, 1695 MHz, 600 GB/s, 31.24 TFLOPS
    // FP32 (sysrqmts.com, TechPowerUp data). Unverified: the tensor figures, from the NVIDIA A10 datasheet
    // (TF32 62.5 | 125*, BF16/FP16 125 | 250*, INT8 250 | 500*), which no copy found here prints; they
    // agree with 72 SMs x 1024 FP16 FLOP/clk x 1.695 GHz = 125 TFLOPS. FP64 derived (1/64; sysrqmts.com
    // says 1/32, which contradicts the GA102 whitepaper's 1/64).
    gpus.push_back({ "NVIDIA A10", { "a10" }, 8, 6, 72, 1.695e9,
        {
            { FP64, derivedFp64(72, 1.695e9) },
            { FP32, 31.2 * T },
            { TF32Tensor, 125 * T / 2 },
            { BF16Tensor, 250 * T / 2 },
            { FP16Tensor, 250 * T / 2 },
            { INT8Tensor, 500 * T / 2 },
            { DRAM, 600 * G },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA A10 Tensor Core GPU datasheet, specifications table (tensor figures with sparsity, halved; "
        "unverified copy); 72 SMs, 1695 MHz, 600 GB/s: sysrqmts.com (TechPowerUp data); FP64 derived at 1/64 "
        "of FP32" });

    // V100. Verified: SXM2 7.8 / 15.7 / 125 TFLOPS, 900 GB/s, NVLink 300 GB/s, 1530 MHz, 80 SMs
    // (huggingface kernelbench-rag-content V100.md, a copy of the datasheet figures); PCIe 1380 MHz,
    // 7.07 / 14.13 TFLOPS at that clock (sysrqmts.com, hmc-tech.com), 112 tensor TFLOPS: the V100
    // datasheet (hmc-tech.com computes 113.05). PCIe Gen3 32 GB/s: datasheet (unverified here). Volta
    // has FP16 tensor cores only.
    gpus.push_back({ "NVIDIA V100 SXM2", { "v100 sxm2 16gb", "v100 sxm2 32gb", "v100 sxm2", "v100" }, 7, 0, 80, 1.53e9,
        {
            { FP64, 7.8 * T },
            { FP32, 15.7 * T },
            { FP16Tensor, 125 * T },
            { DRAM, 900 * G },
            { NVLink, 300 * G / 2 },
            { PCIe, 32 * G / 2 },
        },
        "NVIDIA Tesla V100 GPU datasheet, 'V100 for NVLink' column (dense; Volta has no sparsity)" });
    gpus.push_back({ "NVIDIA V100 PCIe", { "v100 pcie 16gb", "v100 pcie 32gb", "v100 pcie", "v100" }, 7, 0, 80, 1.38e9,
        {
            { FP64, 7 * T },
            { FP32, 14 * T },
            { FP16Tensor, 112 * T },
            { DRAM, 900 * G },
            { PCIe, 32 * G / 2 },
        },
        "NVIDIA Tesla V100 GPU datasheet, 'V100 for PCIe' column (dense; Volta has no sparsity); 1380 MHz boost: "
        "sysrqmts.com" });

    // GeForce parts: tensor FP16 and FP8 run at half rate with FP32 accumulation (what cuBLAS and the
    // frameworks use); those are the figures here, as for BF16 (FP32 accumulation only). With FP16
    // accumulation the peaks are twice these (RTX 4090: 330.3 FP16, 660.6 FP8; RTX 3090: 142 FP16).
    //
    // RTX 4090. Source: NVIDIA Ada GPU architecture whitepaper, appendix table "GeForce RTX 4090" (not read
    // directly). Verified against waredb.com, fpsbench.com: 128 SMs, 2520 MHz, 82.58 FP32, TF32 82.58,
    // FP16/BF16 (FP32 acc) 165.15, FP8 (FP32 acc) 330.3, INT8 660.6 TOPS, 1008 GB/s; FP64 1.29 (1/64,
    // derived). No NVLink. PCIe 4.0 x16 (the 64 GB/s bidirectional datasheets print for Gen4 x16).
    gpus.push_back({ "NVIDIA GeForce RTX 4090", { "rtx 4090" }, 8, 9, 128, 2.52e9,
        {
            { FP64, derivedFp64(128, 2.52e9) },
            { FP32, 82.6 * T },
            { TF32Tensor, 82.6 * T },
            { BF16Tensor, 165.2 * T },
            { FP16Tensor, 165.2 * T },
            { FP8Tensor, 330.3 * T },
            { INT8Tensor, 660.6 * T },
            { DRAM, 1008 * G },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA Ada GPU Architecture whitepaper, appendix table 'GeForce RTX 4090' (dense; FP16/FP8 tensor with "
        "FP32 accumulate), as reproduced by waredb.com; FP64 derived at 1/64 of FP32" });

    // RTX 3090. Source: NVIDIA Ampere GA102 GPU architecture whitepaper v2, appendix A "GeForce RTX 3090".
    // Verified: 82 SMs, 1695 MHz, 35.6 FP32, FP16 tensor 142 | 285* with FP16 accumulate, 936 GB/s
    // (holynerdvana.blogspot.com); NVLink "56.25 GB/sec bandwidth in each direction" (whitepaper quote
    // in huggingface Ahmadzei/RAG). Unverified (whitepaper not read): TF32 35.6, INT8 284 TOPS, and the
    // halving for FP32 accumulate (hmc-tech.com shows it for the RTX 3090 Ti). FP64 derived (1/64).
    gpus.push_back({ "NVIDIA GeForce RTX 3090", { "rtx 3090" }, 8, 6, 82, 1.695e9,
        {
            { FP64, derivedFp64(82, 1.695e9) },
            { FP32, 35.6 * T },
            { TF32Tensor, 35.6 * T },
            { BF16Tensor, 71 * T },
            { FP16Tensor, 71 * T },
            { INT8Tensor, 284 * T },
            { DRAM, 936 * G },
            { NVLink, 112.5 * G / 2 },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA Ampere GA102 GPU Architecture whitepaper v2, appendix A 'GeForce RTX 3090' (dense; FP16 tensor "
        "with FP32 accumulate); FP64 derived at 1/64 of FP32" });

    // B200 (HGX B200, 1,000 W). Source: NVIDIA HGX B200 specifications, 'Individual Blackwell GPU
    // Specifications' (copy: zdszero.github.io Hardware page): FP64/FP64 Tensor 37, FP32 75, TF32 2.2 P*,
    // FP16/BF16 4.5 P*, FP8 9 P*, INT8 9 POPS* (sparse; dense halves confirmed by hmc-tech.com and
    // glennklockwood.com), 180 GB HBM3E at 7.7 TB/s, NVLink5 1.8 TB/s, PCIe Gen5 128 GB/s. Earlier
    // NVIDIA figures were 40 / 80 TFLOPS and 8 TB/s. 148 SMs and 1980 MHz: hmc-tech.com (unverified
    // against NVIDIA; consistent: 148 x 256 x 1.98 GHz = 75 TFLOPS).
    gpus.push_back({ "NVIDIA B200", { "b200" }, 10, 0, 148, 1.98e9,
        {
            { FP64, 37 * T },
            { FP64Tensor, 37 * T },
            { FP32, 75 * T },
            { TF32Tensor, 2200 * T / 2 },
            { BF16Tensor, 4500 * T / 2 },
            { FP16Tensor, 4500 * T / 2 },
            { FP8Tensor, 9000 * T / 2 },
            { INT8Tensor, 9000 * T / 2 },
            { DRAM, 7.7 * T },
            { NVLink, 1800 * G / 2 },
            { PCIe, 128 * G / 2 },
        },
        "NVIDIA HGX B200 specifications, 'Individual Blackwell GPU Specifications' (tensor figures with sparsity, "
        "halved; copy: zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html); 148 SMs and 1980 MHz: "
        "hmc-tech.com (unverified)" });

    return gpus;
}

} // namespace ridgeline::collectors::detail
