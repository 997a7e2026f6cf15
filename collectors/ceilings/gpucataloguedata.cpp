// SPDX-License-Identifier: MIT
// Datasheet figures, one entry per product. Conventions (see gpucatalogue.h):
// - DENSE tensor peaks. A figure written "N * T / 2" is a datasheet figure N printed with 2:4
//   sparsity (marked * there), halved here; a figure written "N * T" is printed dense.
// - NVLink and PCIe PER DIRECTION: datasheets print bidirectional totals ("900 GB/s", "PCIe Gen5:
//   128 GB/s"), written here as "N * G / 2".
// - "derived" marks a figure the datasheet does not print, computed from SMs x per-SM rate x
//   boost clock; "unverified" marks one that could not be checked against a copy of the source.
// - A boost clock of 0 means NVIDIA publishes none (export-limited and superchip parts): the
//   device keeps the clock its file reports, and nothing is derived from a clock.
// - GeForce and some data-centre parts run FP16/BF16 (and FP8) tensor math with FP32 accumulate
//   at half the FP16-accumulate rate; the figures here are the FP32-accumulate ones (what cuBLAS
//   and the frameworks use). Blackwell FP4 and FP6 have no resource (Resource has none): omitted.
// The lookups behind these figures are listed in the comment of each entry.
#include "gpucataloguedata.h"

#include "ridgeline/core/model/resource.h"

namespace ridgeline::collectors::detail {

namespace {

using enum ridgeline::core::Resource; // FP64, DRAM, NVLink, ...: the figures are keyed by the resource

constexpr double T = 1e12; // tera
constexpr double G = 1e9; // giga

// FP64 on Turing, Ampere GA10x, Ada and GeForce/RTX Blackwell parts, whose datasheets do not print
// it: 2 FP64 FMA per SM per clock (1/32 of FP32 on Turing, 1/64 from GA10x on; CUDA C++
// Programming Guide, "Arithmetic Instructions" throughput table, CC 7.5, 8.6, 8.9, 12.0; NVIDIA
// Turing Architecture In-Depth: "two [FP64 units] per SM"), 2 FLOPs each, at the boost clock.
// Derived, not a datasheet figure.
constexpr double derivedFp64(int smCount, double boostClockHz)
{
    return smCount * 2.0 * 2.0 * boostClockHz;
}

// Dense FLOP (ops for INT8) per SM per clock of one generation's GeForce parts, each worked out
// from a whitepaper figure of a part of that generation divided by its SMs x boost clock. A part
// of the same generation gets its peaks as SMs x these x its boost clock: derived figures.
struct PerSmRates {
    double fp32 = 0; // CUDA cores: 2 x FP32 lanes
    double tf32 = 0; // 0: no TF32 tensor math
    double fp16 = 0; // FP16 tensor with FP32 accumulate
    bool bf16 = false; // BF16 tensor at the FP16 rate
    double fp8 = 0; // FP8 tensor with FP32 accumulate; 0: none
    double int8 = 0;
};

// Turing, from the RTX 2080 Ti (68 SMs, 1545 MHz reference boost): FP32 13.4, FP16 tensor with
// FP32 accumulate 53.8, INT8 215.2 TOPS (NVIDIA Turing Architecture In-Depth, Table 1).
constexpr PerSmRates kTuringGeForce { .fp32 = 128, .fp16 = 512, .int8 = 2048 };
// Ampere GA10x, from the RTX 3090 (82 SMs, 1695 MHz): FP32 35.6, TF32 35.6, FP16 tensor with FP32
// accumulate 71, INT8 284 (GA102 whitepaper, appendix A).
constexpr PerSmRates kAmpereGeForce { .fp32 = 256, .tf32 = 256, .fp16 = 512, .bf16 = true, .int8 = 2048 };
// Ada, from the RTX 4090 (128 SMs, 2520 MHz): FP32 82.6, TF32 82.6, FP16/BF16 with FP32 accumulate
// 165.2, FP8 with FP32 accumulate 330.3, INT8 660.6 (Ada whitepaper v2.02, appendix A).
constexpr PerSmRates kAdaGeForce { .fp32 = 256, .tf32 = 256, .fp16 = 512, .bf16 = true, .fp8 = 1024, .int8 = 2048 };
// GeForce Blackwell, from the RTX 5090 (170 SMs, 2407 MHz): BF16 with FP32 accumulate 209.5, FP8
// with FP32 accumulate 419 (RTX Blackwell whitepaper, Table 3): Ada's rates per SM (209.5 = 170 x 512
// x 2.407 GHz), TF32 and INT8 taken as Ada's too (unverified).
constexpr PerSmRates kBlackwellGeForce = kAdaGeForce;

// The compute peaks of a part from its SMs, boost clock and its generation's per-SM rates: all
// derived (FP64 by derivedFp64).
core::ResourceMap<double> derivedCompute(int smCount, double boostClockHz, const PerSmRates& rates)
{
    const auto at = [&](double perClock) { return smCount * perClock * boostClockHz; };
    core::ResourceMap<double> peaks {
        { FP64, derivedFp64(smCount, boostClockHz) },
        { FP32, at(rates.fp32) },
        { FP16Tensor, at(rates.fp16) },
        { INT8Tensor, at(rates.int8) },
    };
    if (rates.tf32 > 0)
        peaks[TF32Tensor] = at(rates.tf32);
    if (rates.bf16)
        peaks[BF16Tensor] = at(rates.fp16);
    if (rates.fp8 > 0)
        peaks[FP8Tensor] = at(rates.fp8);
    return peaks;
}

// `peaks` with the figures of `more` added, or replacing those it has.
core::ResourceMap<double> with(core::ResourceMap<double> peaks, const core::ResourceMap<double>& more)
{
    for (const auto& [resource, value] : more)
        peaks.insert_or_assign(resource, value);
    return peaks;
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

// V100 (Volta, CC 7.0). Verified: SXM2 7.8 / 15.7 / 125 TFLOPS, 900 GB/s, NVLink 300 GB/s, 1530 MHz, 80 SMs
// (huggingface kernelbench-rag-content V100.md, a copy of the datasheet figures); PCIe 1380 MHz,
// 7.07 / 14.13 TFLOPS at that clock (sysrqmts.com, hmc-tech.com), 112 tensor TFLOPS: the V100
// datasheet (hmc-tech.com computes 113.05). PCIe Gen3 32 GB/s: datasheet (unverified here). Volta
// has FP16 tensor cores only.
void addVolta(std::vector<GpuSpec>& gpus)
{
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
}

// T4 (TU104, CC 7.5). Verified: FP32 8.1, mixed-precision (FP16 with FP32 accumulate) 65, INT8 130
// TOPS, 320 GB/s (networkoutlet.com and geektopia.es copies of the datasheet); 40 SMs, 1590 MHz,
// PCIe 3.0 x16 (deviceQuery of a T4 on chiemon.github.io; sysrqmts.com): 65 = 40 x 1024 x 1.59 GHz.
// FP64 derived (2 per SM per clock; 254 GFLOPS, as sysrqmts.com lists). No TF32, BF16, FP8; no NVLink.
void addTesla(std::vector<GpuSpec>& gpus)
{
    gpus.push_back({ "NVIDIA T4", { "t4" }, 7, 5, 40, 1.59e9,
        {
            { FP64, derivedFp64(40, 1.59e9) },
            { FP32, 8.1 * T },
            { FP16Tensor, 65 * T },
            { INT8Tensor, 130 * T },
            { DRAM, 320 * G },
            { PCIe, 32 * G / 2 },
        },
        "NVIDIA T4 Tensor Core GPU datasheet (dense; copies: networkoutlet.com, geektopia.es); 40 SMs and 1590 MHz: "
        "deviceQuery (chiemon.github.io); FP64 derived at 2 FMA/SM/clock" });
}

// GeForce RTX 20 (Turing, CC 7.5): FP16 tensor with FP32 accumulate at half the FP16-accumulate
// rate (2080 Ti: 53.8 vs 107.6). PCIe 3.0 x16 (32 GB/s bidirectional).
void addTuringGeForce(std::vector<GpuSpec>& gpus)
{
    // RTX 2080 Ti. Verified against the blog's Table 1, reference column (Founders Edition: 1635 MHz,
    // 14.2 / 56.9 / 227.7): 68 SMs, 1545 MHz, FP32 13.4, FP16 tensor with FP32 accumulate 53.8, INT8
    // 215.2 TOPS, 616 GB/s; "TU102 includes two NVLink x8 links each ... 25 Gigabytes/second in each
    // direction" (the blog, of the TU102 die: unverified that the GeForce board exposes both).
    gpus.push_back({ "NVIDIA GeForce RTX 2080 Ti", { "rtx 2080 ti" }, 7, 5, 68, 1.545e9,
        {
            { FP64, derivedFp64(68, 1.545e9) },
            { FP32, 13.4 * T },
            { FP16Tensor, 53.8 * T },
            { INT8Tensor, 215.2 * T },
            { DRAM, 616 * G },
            { NVLink, 100 * G / 2 },
            { PCIe, 32 * G / 2 },
        },
        "NVIDIA Technical Blog 'NVIDIA Turing Architecture In-Depth' (2018), Table 1, RTX 2080 Ti reference column "
        "(FP16 tensor with FP32 accumulate; copy in a public repository); FP64 derived at 2 FMA/SM/clock" });

    // RTX 2080 and 2070: 46 SMs at 1710 MHz, 448 GB/s (cpu-gpu.alldbin.com, TechPowerUp data; 10.07 TFLOPS
    // FP32: cputronic.com) and 36 SMs at 1620 MHz, 448 GB/s (botcraftman.ru, TechPowerUp data). Compute
    // derived from the 2080 Ti's per-SM rates (the Turing whitepaper's appendix, not read). The 2080
    // has one NVLink x8 link (25 GB/s each direction; unverified), the 2070 none (graphicscardhub.com).
    gpus.push_back({ "NVIDIA GeForce RTX 2080", { "rtx 2080" }, 7, 5, 46, 1.71e9,
        with(derivedCompute(46, 1.71e9, kTuringGeForce),
            { { DRAM, 448 * G }, { NVLink, 50 * G / 2 }, { PCIe, 32 * G / 2 } }),
        "46 SMs, 1710 MHz, 448 GB/s: TechPowerUp data (cpu-gpu.alldbin.com); compute derived: SMs x the RTX 2080 Ti's "
        "per-SM rates ('NVIDIA Turing Architecture In-Depth', Table 1) x boost clock; NVLink unverified" });
    gpus.push_back({ "NVIDIA GeForce RTX 2070", { "rtx 2070" }, 7, 5, 36, 1.62e9,
        with(derivedCompute(36, 1.62e9, kTuringGeForce), { { DRAM, 448 * G }, { PCIe, 32 * G / 2 } }),
        "36 SMs, 1620 MHz, 448 GB/s: TechPowerUp data (botcraftman.ru); compute derived: SMs x the RTX 2080 Ti's "
        "per-SM rates ('NVIDIA Turing Architecture In-Depth', Table 1) x boost clock" });
}

// A100, A30 (GA100, CC 8.0).
void addAmpereDataCentreGa100(std::vector<GpuSpec>& gpus)
{
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

    // A30. Verified: 56 SMs, 1440 MHz, 933 GB/s HBM2, PCIe 4.0 x16 (sysrqmts.com, TechPowerUp data).
    // Unverified (datasheet not read): FP64 5.2, FP64 Tensor 10.3, FP32 10.3, TF32 82 | 165*,
    // BF16/FP16 165 | 330*, INT8 330 | 661*, NVLink 200 GB/s (bridge for 2 GPUs), PCIe Gen4 64 GB/s;
    // each equals the A100's per-SM rate x 56 SMs x 1.44 GHz (165 = 56 x 2048 x 1.44 GHz).
    gpus.push_back({ "NVIDIA A30", { "a30", "a30 pcie" }, 8, 0, 56, 1.44e9,
        {
            { FP64, 5.2 * T },
            { FP64Tensor, 10.3 * T },
            { FP32, 10.3 * T },
            { TF32Tensor, 82 * T },
            { BF16Tensor, 165 * T },
            { FP16Tensor, 165 * T },
            { INT8Tensor, 330 * T },
            { DRAM, 933 * G },
            { NVLink, 200 * G / 2 },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA A30 Tensor Core GPU datasheet (dense figures; unverified, each equal to 56 SMs x the A100's per-SM "
        "rate x 1440 MHz); 56 SMs, 1440 MHz, 933 GB/s: sysrqmts.com (TechPowerUp data)" });
}

// A10, A10G, A40, A2 (GA102 / GA107, CC 8.6): data-centre GA10x run FP16 with FP32 accumulate at
// the full rate (A40 149.7 = 84 x 1024 x 1.74 GHz), except the A10G.
void addAmpereDataCentreGa10x(std::vector<GpuSpec>& gpus)
{
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

    // A10G (AWS G5; "NVIDIA A10G", CC 8.6). NVIDIA publishes no datasheet for it. Verified: 80 SMs
    // (torch.cuda.get_device_properties of an A10G in a public repository: name 'NVIDIA A10G', major 8,
    // minor 6, multi_processor_count 80), 1710 MHz ("g5.2xlarge, A10G, 1710 MHz, 300 W, default clocks" in
    // another), 24 GB at 600 GB/s like the A10 (baseten.co "NVIDIA A10 vs A10G"). baseten.co also says the A10
    // has more tensor compute and the A10G more CUDA-core compute: the GeForce GA10x rates (FP16 with FP32
    // accumulate at half rate) fit that, so all compute is derived from the RTX 3090's per-SM rates:
    // FP32 35.0, TF32 35.0, BF16/FP16 70.0, INT8 280 (unverified against any NVIDIA figure).
    gpus.push_back({ "NVIDIA A10G", { "a10g" }, 8, 6, 80, 1.71e9,
        with(derivedCompute(80, 1.71e9, kAmpereGeForce), { { DRAM, 600 * G }, { PCIe, 64 * G / 2 } }),
        "no NVIDIA datasheet: 80 SMs and 1710 MHz from torch/nvidia-smi reports of A10Gs in public repositories, "
        "600 GB/s: baseten.co 'NVIDIA A10 vs A10G'; compute derived from the GA10x GeForce per-SM rates (GA102 "
        "whitepaper, RTX 3090) x boost clock (unverified)" });

    // A40. Verified against the datasheet table (copy: ecer.com product page): FP32 37.4, TF32 74.8 |
    // 149.6*, BF16 (FP32 accumulate) 149.7 | 299.4*, FP16 149.7 | 299.4*, INT8 299.3 | 598.6*, 48 GB at
    // 696 GB/s, NVLink 112.5 GB/s bidirectional, PCIe Gen4 64 GB/s; 84 SMs, 1740 MHz (gpu.spicedreamphone.com,
    // sysrqmts.com; TechPowerUp data). FP64 derived (1/64; 590 GFLOPS as hmc-tech.com lists).
    gpus.push_back({ "NVIDIA A40", { "a40" }, 8, 6, 84, 1.74e9,
        {
            { FP64, derivedFp64(84, 1.74e9) },
            { FP32, 37.4 * T },
            { TF32Tensor, 74.8 * T },
            { BF16Tensor, 149.7 * T },
            { FP16Tensor, 149.7 * T },
            { INT8Tensor, 299.3 * T },
            { DRAM, 696 * G },
            { NVLink, 112.5 * G / 2 },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA A40 datasheet, specifications table (dense figures as printed; copy: ecer.com); 84 SMs and 1740 MHz: "
        "TechPowerUp data (sysrqmts.com); FP64 derived at 1/64 of FP32" });

    // A2 (GA107). Verified: 10 SMs, 1770 MHz, 200 GB/s, PCIe 4.0 x8 (sysrqmts.com, TechPowerUp data).
    // Unverified (datasheet not read): FP32 4.5, TF32 9 | 18*, BF16/FP16 18 | 36*, INT8 36 | 72*; they
    // equal 10 SMs x the A40's per-SM rates x 1.77 GHz. FP64 derived (1/64).
    gpus.push_back({ "NVIDIA A2", { "a2" }, 8, 6, 10, 1.77e9,
        {
            { FP64, derivedFp64(10, 1.77e9) },
            { FP32, 4.5 * T },
            { TF32Tensor, 9 * T },
            { BF16Tensor, 18 * T },
            { FP16Tensor, 18 * T },
            { INT8Tensor, 36 * T },
            { DRAM, 200 * G },
            { PCIe, 32 * G / 2 },
        },
        "NVIDIA A2 Tensor Core GPU datasheet (dense figures; unverified, each equal to 10 SMs x the A40's per-SM rate "
        "x 1770 MHz); 10 SMs, 1770 MHz, 200 GB/s, PCIe 4.0 x8: sysrqmts.com (TechPowerUp data); FP64 derived" });
}

// RTX A6000 (GA102, CC 8.6): a workstation part, FP16/BF16 with FP32 accumulate at the full rate.
// Verified: BF16 tensor with FP32 accumulate 154.8 | 309.6* (GA102 whitepaper Table 3, as quoted in a
// public repository); 84 SMs, 1800 MHz, 768 GB/s, 38.71 TFLOPS FP32 (sysrqmts.com, TechPowerUp data).
// Derived: TF32 (half of FP16), INT8 (twice FP16), FP64 (1/64). NVLink 112.5 GB/s bidirectional:
// RTX A6000 datasheet (unverified).
void addAmpereWorkstation(std::vector<GpuSpec>& gpus)
{
    gpus.push_back({ "NVIDIA RTX A6000", { "rtx a6000" }, 8, 6, 84, 1.8e9,
        {
            { FP64, derivedFp64(84, 1.8e9) },
            { FP32, 38.7 * T },
            { TF32Tensor, 154.8 * T / 2 },
            { BF16Tensor, 154.8 * T },
            { FP16Tensor, 154.8 * T },
            { INT8Tensor, 2 * 154.8 * T },
            { DRAM, 768 * G },
            { NVLink, 112.5 * G / 2 },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA Ampere GA102 GPU Architecture whitepaper, Table 3, RTX A6000 (BF16 with FP32 accumulate 154.8 dense, "
        "as quoted in a public repository); 84 SMs, 1800 MHz, 768 GB/s: TechPowerUp data (sysrqmts.com); TF32, INT8 "
        "and FP64 derived; NVLink unverified" });
}

// GeForce RTX 30 (GA102 / GA104 / GA106, CC 8.6).
void addAmpereGeForce(std::vector<GpuSpec>& gpus)
{
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

    // RTX 3080 (10 GB), 3070, 3060 (12 GB): compute derived from the RTX 3090's per-SM rates. RTX 3080:
    // 68 SMs (8,704 cores, 68 RT cores: umatechnology.org); 1710 MHz and 760 GB/s (GA102 whitepaper,
    // appendix A: unverified, not read). The 12 GB RTX 3080 (70 SMs) has the same name: its SM count
    // tells it apart, so it is not matched. RTX 3070: 46 SMs and 1725 MHz (5,888 cores and 20.31 TFLOPS
    // FP32 in the huggingface ohdoking/gpu_spec data set: 20.31 / (46 x 256) = 1.725 GHz); 448 GB/s
    // (unverified). RTX 3060: 28 SMs, 1777 MHz, 360 GB/s, 12.74 TFLOPS (fpsbench.com, cputronic.com,
    // pcpartdb.com; TechPowerUp data); the 8 GB RTX 3060 (also 28 SMs, 240 GB/s) has the same name and
    // gets these peaks. PCIe 4.0 x16; no NVLink.
    gpus.push_back({ "NVIDIA GeForce RTX 3080", { "rtx 3080" }, 8, 6, 68, 1.71e9,
        with(derivedCompute(68, 1.71e9, kAmpereGeForce), { { DRAM, 760 * G }, { PCIe, 64 * G / 2 } }),
        "68 SMs: umatechnology.org; 1710 MHz and 760 GB/s: GA102 whitepaper appendix A (unverified); compute "
        "derived: SMs x the RTX 3090's per-SM rates x boost clock" });
    gpus.push_back({ "NVIDIA GeForce RTX 3070", { "rtx 3070" }, 8, 6, 46, 1.725e9,
        with(derivedCompute(46, 1.725e9, kAmpereGeForce), { { DRAM, 448 * G }, { PCIe, 64 * G / 2 } }),
        "46 SMs and 1725 MHz: 5,888 cores and 20.31 TFLOPS FP32 (huggingface ohdoking/gpu_spec); 448 GB/s "
        "unverified; compute derived: SMs x the RTX 3090's per-SM rates x boost clock" });
    gpus.push_back({ "NVIDIA GeForce RTX 3060", { "rtx 3060" }, 8, 6, 28, 1.777e9,
        with(derivedCompute(28, 1.777e9, kAmpereGeForce), { { DRAM, 360 * G }, { PCIe, 64 * G / 2 } }),
        "28 SMs, 1777 MHz, 360 GB/s (12 GB): TechPowerUp data (fpsbench.com, cputronic.com); compute derived: SMs x "
        "the RTX 3090's per-SM rates x boost clock" });
}

// L40S, L40, L4 (Ada, CC 8.9) and the RTX 6000 Ada.
void addAdaDataCentre(std::vector<GpuSpec>& gpus)
{
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
        "2520 MHz boost: itcreations.com; FP64 derived at 1/64 of FP32" });

    // L40 (not the L40S). Verified against the same mullet.se copy of the L40/L40S datasheet table, L40
    // column: FP32 90.5, TF32 90.5 | 181*, BF16/FP16 181.05 | 362.1*, FP8 362 | 724*, INT8 362 | 724*,
    // 864 GB/s, PCIe Gen4 64 GB/s bidirectional; 142 SMs, 2490 MHz (hmc-tech.com). Its FP16/BF16 tensor
    // figures are half the L40S's. FP64 derived (1/64; 1.41 TFLOPS as hmc-tech.com lists).
    gpus.push_back({ "NVIDIA L40", { "l40" }, 8, 9, 142, 2.49e9,
        {
            { FP64, derivedFp64(142, 2.49e9) },
            { FP32, 90.5 * T },
            { TF32Tensor, 90.5 * T },
            { BF16Tensor, 181.05 * T },
            { FP16Tensor, 181.05 * T },
            { FP8Tensor, 362 * T },
            { INT8Tensor, 362 * T },
            { DRAM, 864 * G },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA L40 datasheet, specifications table, L40 column (copy: mullet.se product 355414; dense figures as "
        "printed); 142 SMs and 2490 MHz: hmc-tech.com; FP64 derived at 1/64 of FP32" });

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

    // RTX 6000 Ada Generation. Verified: 960 GB/s and BF16 tensor with FP32 accumulate 364 dense / 728 sparse
    // (NVIDIA RTX PRO Blackwell GPU architecture whitepaper, Table 4, as quoted in a public repository);
    // 18,176 cores (142 SMs) and 91.1 TFLOPS FP32 (huggingface ohdoking/gpu_spec), so 2505 MHz boost
    // (91.1 / (142 x 256); 364 = 142 x 1024 x 2.505 GHz: FP32 accumulate at the full rate). Derived:
    // FP16 = BF16, TF32 half, FP8 and INT8 twice (Ada's ratios; the datasheet's 1,457 sparse FP8 TFLOPS
    // is 4 x 364, unverified), FP64 1/64. PCIe 4.0 x16, no NVLink (unverified).
    gpus.push_back({ "NVIDIA RTX 6000 Ada Generation", { "rtx 6000 ada generation", "rtx 6000 ada" }, 8, 9, 142,
        2.505e9,
        {
            { FP64, derivedFp64(142, 2.505e9) },
            { FP32, 91.1 * T },
            { TF32Tensor, 364 * T / 2 },
            { BF16Tensor, 364 * T },
            { FP16Tensor, 364 * T },
            { FP8Tensor, 2 * 364 * T },
            { INT8Tensor, 2 * 364 * T },
            { DRAM, 960 * G },
            { PCIe, 64 * G / 2 },
        },
        "NVIDIA RTX PRO Blackwell GPU Architecture whitepaper v1.0, Table 4, RTX 6000 Ada (BF16 364 dense, 960 GB/s; "
        "as quoted in a public repository); 142 SMs and 91.1 TFLOPS FP32: huggingface ohdoking/gpu_spec; TF32, FP8, "
        "INT8 and FP64 derived" });
}

// GeForce RTX 40 (Ada, CC 8.9): FP16/BF16/FP8 tensor with FP32 accumulate at half rate.
void addAdaGeForce(std::vector<GpuSpec>& gpus)
{
    // RTX 4090. Source: NVIDIA Ada GPU Architecture whitepaper, appendix table "GeForce RTX 4090" (not read
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

    // RTX 4080 (16 GB), 4070, 4060: compute derived from the RTX 4090's per-SM rates. Verified: 4080 76 SMs,
    // 2505 MHz, 716.8 GB/s (cputronic.com; wccftech.com: "76 SMs", "2505 MHz"); 4070 46 SMs, 2475 MHz,
    // 504.2 GB/s (fpsbench.com, topcpu.net; TechPowerUp data); 4060 24 SMs, 2460 MHz, 272 GB/s (fpsbench.com).
    // PCIe 4.0 x16, the 4060 x8 (unverified for the desktop 4060; fpsbench.com lists x8 for the laptop
    // part); no NVLink.
    gpus.push_back({ "NVIDIA GeForce RTX 4080", { "rtx 4080" }, 8, 9, 76, 2.505e9,
        with(derivedCompute(76, 2.505e9, kAdaGeForce), { { DRAM, 716.8 * G }, { PCIe, 64 * G / 2 } }),
        "76 SMs, 2505 MHz, 716.8 GB/s: TechPowerUp data (cputronic.com), wccftech.com; compute derived: SMs x the "
        "RTX 4090's per-SM rates (Ada whitepaper appendix A) x boost clock" });
    gpus.push_back({ "NVIDIA GeForce RTX 4070", { "rtx 4070" }, 8, 9, 46, 2.475e9,
        with(derivedCompute(46, 2.475e9, kAdaGeForce), { { DRAM, 504.2 * G }, { PCIe, 64 * G / 2 } }),
        "46 SMs, 2475 MHz, 504.2 GB/s: TechPowerUp data (fpsbench.com); compute derived: SMs x the RTX 4090's "
        "per-SM rates (Ada whitepaper appendix A) x boost clock" });
    gpus.push_back({ "NVIDIA GeForce RTX 4060", { "rtx 4060" }, 8, 9, 24, 2.46e9,
        with(derivedCompute(24, 2.46e9, kAdaGeForce), { { DRAM, 272 * G }, { PCIe, 32 * G / 2 } }),
        "24 SMs, 2460 MHz, 272 GB/s: TechPowerUp data (fpsbench.com); compute derived: SMs x the RTX 4090's "
        "per-SM rates (Ada whitepaper appendix A) x boost clock" });

    // RTX 4060 Laptop GPU ("NVIDIA GeForce RTX 4060 Laptop GPU", AD107): 24 SMs, 8 GB GDDR6 at 16 Gbps on
    // 128 bits = 256 GB/s, and a boost clock that the laptop maker sets between 1470 MHz (35 W) and
    // 2370 MHz (115 W) (data-check.eu, cpu-gpu.alldbin.com). The peaks are at 2370 MHz, the top of
    // NVIDIA's range (NVIDIA's "233 AI TOPS" = 24 x 4096 sparse INT8 ops x 2.37 GHz; unverified): a
    // laptop set lower has lower peaks (the report in tests/data/ncu/nersc-gpp says 2010 MHz). PCIe 4.0
    // x8 (fpsbench.com).
    gpus.push_back({ "NVIDIA GeForce RTX 4060 Laptop GPU", { "rtx 4060 laptop gpu", "rtx 4060 laptop" }, 8, 9, 24,
        2.37e9, with(derivedCompute(24, 2.37e9, kAdaGeForce), { { DRAM, 256 * G }, { PCIe, 32 * G / 2 } }),
        "24 SMs, 1470-2370 MHz boost (by laptop power), 256 GB/s: data-check.eu, cpu-gpu.alldbin.com; peaks at "
        "2370 MHz; compute derived: SMs x the RTX 4090's per-SM rates (Ada whitepaper appendix A) x boost clock" });
}

// H100, H800, H20, H200, GH200 (Hopper, CC 9.0).
void addHopper(std::vector<GpuSpec>& gpus)
{
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

    // H800 SXM5 (the H100 SXM5 for export-restricted markets, same GH100 die). Verified: FP64 cut to 1
    // TFLOPS and NVLink to 400 GB/s bidirectional (tumgag.com, philisun.com, aiwiki.ai H800 article);
    // low-precision compute and 3.35 TB/s as the H100 SXM5 ("largely consistent": philisun.com). The
    // H100 SXM5's 132 SMs and 1.98 GHz, and FP64 Tensor cut to 1 TFLOPS like FP64 (the H800 datasheet,
    // chaoqing-i.com copy, not read): unverified. The H800 PCIe is not catalogued (not sourced).
    gpus.push_back({ "NVIDIA H800 SXM5 80GB", { "h800", "h800 sxm5", "h800 80gb hbm3" }, 9, 0, 132, 1.98e9,
        with(hopperSxmCompute(),
            { { FP64, 1 * T }, { FP64Tensor, 1 * T }, { DRAM, 3.35 * T }, { NVLink, 400 * G / 2 },
                { PCIe, 128 * G / 2 } }),
        "NVIDIA H800 Tensor Core GPU datasheet (not read): H100 SXM5 compute (NVIDIA H100 datasheet, tensor figures "
        "with sparsity, halved) with FP64 1 TFLOPS and NVLink 400 GB/s bidirectional as tumgag.com, philisun.com and "
        "aiwiki.ai report; SMs, clock and FP64 Tensor unverified" });

    // H20 (export-restricted Hopper, "NVIDIA H20"). Verified: 78 SMs, CC 9.0, 97,285 MB
    // (torch.cuda.get_device_properties in public repositories); FP64 1, FP32 44, TF32 74, FP16 148
    // (dense), INT8 296 TOPS, 96 GB HBM3 at 4.0 TB/s (zangshuxian.com, willitrunai.com, ke60.top);
    // NVLink 900 GB/s bidirectional (willitrunai.com). Unverified: BF16 = FP16 and FP8 = INT8 (as on every
    // Hopper part), PCIe Gen5 128 GB/s. NVIDIA publishes no clock, and the peaks are capped, not
    // SMs x rate x clock: boost clock 0. No FP64 Tensor figure is published: absent.
    gpus.push_back({ "NVIDIA H20", { "h20", "h20 96gb" }, 9, 0, 78, 0,
        {
            { FP64, 1 * T },
            { FP32, 44 * T },
            { TF32Tensor, 74 * T },
            { BF16Tensor, 148 * T },
            { FP16Tensor, 148 * T },
            { FP8Tensor, 296 * T },
            { INT8Tensor, 296 * T },
            { DRAM, 4.0 * T },
            { NVLink, 900 * G / 2 },
            { PCIe, 128 * G / 2 },
        },
        "NVIDIA H20 specifications as reported by zangshuxian.com, willitrunai.com and ke60.top (dense figures; "
        "the NVIDIA document was not read); 78 SMs: torch device properties of H20s in public repositories; BF16, "
        "FP8 and PCIe unverified; no published clock" });

    // H200 SXM. Verified against third-party copies of the H200 datasheet only (the NVIDIA PDF was not
    // read): FP64 34, FP8 3,958* (lzwjava.github.io), BF16 ~1,979* (ai-hpc.github.io), 4.8 TB/s,
    // NVLink 900 GB/s bidirectional (aiminingco.com, saulelectric.com), PCIe Gen5 128 GB/s. FP64 Tensor,
    // FP32, TF32 and INT8 are the H100 SXM5 figures (same GH100 die, 132 SMs, 1980 MHz: hmc-tech.com):
    // unverified against the H200 datasheet itself. The H200 NVL is not catalogued (not sourced).
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
}

// B200, GB200 (Blackwell, CC 10.0).
void addBlackwellDataCentre(std::vector<GpuSpec>& gpus)
{
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

    // GB200 (one Blackwell GPU of a GB200 superchip, 1,200 W; "NVIDIA GB200"). Source: NVIDIA GB200 NVL72
    // specifications, 'Individual Blackwell GPU Specifications', GB200 column (same zdszero.github.io copy):
    // FP64/FP64 Tensor 40, FP32 80, TF32 2.5 P*, FP16/BF16 5 P*, FP8 10 P*, INT8 10 POPS* (sparse, halved),
    // 186 GB HBM3E at 8 TB/s, NVLink5 1.8 TB/s. NVIDIA's exemplar-performance README (MFU table) gives
    // 2,450 dense BF16 and 4,900 FP8 for GB200 instead (another revision); glennklockwood.com 45 / 90 /
    // 2,500. The NVLink-C2C link to the Grace CPU replaces PCIe to the host: no PCIe entry (as GH200).
    // 152 SMs: a public test fixture of torch.cuda.get_device_properties on a GB200 (unverified). NVIDIA
    // publishes no boost clock: 0.
    gpus.push_back({ "NVIDIA GB200", { "gb200" }, 10, 0, 152, 0,
        {
            { FP64, 40 * T },
            { FP64Tensor, 40 * T },
            { FP32, 80 * T },
            { TF32Tensor, 2500 * T / 2 },
            { BF16Tensor, 5000 * T / 2 },
            { FP16Tensor, 5000 * T / 2 },
            { FP8Tensor, 10000 * T / 2 },
            { INT8Tensor, 10000 * T / 2 },
            { DRAM, 8 * T },
            { NVLink, 1800 * G / 2 },
        },
        "NVIDIA GB200 NVL72 specifications, 'Individual Blackwell GPU Specifications', GB200 column (tensor figures "
        "with sparsity, halved; copy: zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html); 152 SMs "
        "unverified; no published clock" });
}

// GeForce RTX 50 and RTX PRO 6000 (Blackwell, CC 12.0).
void addBlackwellRtx(std::vector<GpuSpec>& gpus)
{
    // RTX 5090. Verified: 170 SMs, 2407 MHz, BF16 tensor with FP32 accumulate 209.5 | 419*, FP8 with FP32
    // accumulate 419 | 838* (NVIDIA RTX Blackwell GPU architecture whitepaper, Table 3, as quoted in two
    // public repositories), 1792 GB/s GDDR7, 105 TFLOPS FP32 (thefilibusterblog.com). Derived: FP16 = BF16,
    // TF32 half of it, INT8 twice FP8 (Ada's ratios; unverified), FP64 1/64. PCIe 5.0 x16 (unverified).
    gpus.push_back({ "NVIDIA GeForce RTX 5090", { "rtx 5090" }, 12, 0, 170, 2.407e9,
        {
            { FP64, derivedFp64(170, 2.407e9) },
            { FP32, 104.8 * T },
            { TF32Tensor, 209.5 * T / 2 },
            { BF16Tensor, 209.5 * T },
            { FP16Tensor, 209.5 * T },
            { FP8Tensor, 419 * T },
            { INT8Tensor, 2 * 419 * T },
            { DRAM, 1792 * G },
            { PCIe, 128 * G / 2 },
        },
        "NVIDIA RTX Blackwell GPU Architecture whitepaper, Table 3, GeForce RTX 5090 (BF16 and FP8 with FP32 "
        "accumulate, dense; as quoted in public repositories); TF32, INT8 and FP64 derived; PCIe unverified" });

    // RTX 5080. Verified: 84 SMs, CC 12.0 (torch.cuda.get_device_properties of an RTX 5080 in a public
    // repository). Unverified (RTX Blackwell whitepaper, Table 3, not read): 2617 MHz, 960 GB/s. Compute
    // derived from the RTX 5090's per-SM rates.
    gpus.push_back({ "NVIDIA GeForce RTX 5080", { "rtx 5080" }, 12, 0, 84, 2.617e9,
        with(derivedCompute(84, 2.617e9, kBlackwellGeForce), { { DRAM, 960 * G }, { PCIe, 128 * G / 2 } }),
        "84 SMs: torch device properties of an RTX 5080 in a public repository; 2617 MHz and 960 GB/s: RTX "
        "Blackwell whitepaper Table 3 (unverified); compute derived: SMs x the RTX 5090's per-SM rates x boost "
        "clock" });

    // RTX PRO 6000 Blackwell Workstation Edition (600 W; the Max-Q and Server editions run other clocks and
    // are not catalogued). Verified: BF16 tensor with FP32 accumulate 503.8 dense and 1792 GB/s (NVIDIA RTX
    // PRO Blackwell GPU architecture whitepaper, Table 4, as quoted in a public repository); 188 SMs, 125
    // TFLOPS FP32 (thefilibusterblog.com, hardware-corner.net); 2617 MHz, TF32 251.9, FP8 and INT8 1,007.6
    // dense (hmc-tech.com: FP32 accumulate at the full rate, 503.8 = 188 x 1024 x 2.617 GHz); PCIe Gen 5
    // (gpu.name). FP64 derived (1/64).
    gpus.push_back({ "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
        { "rtx pro 6000 blackwell workstation edition" }, 12, 0, 188, 2.617e9,
        {
            { FP64, derivedFp64(188, 2.617e9) },
            { FP32, 125 * T },
            { TF32Tensor, 251.9 * T },
            { BF16Tensor, 503.8 * T },
            { FP16Tensor, 503.8 * T },
            { FP8Tensor, 1007.6 * T },
            { INT8Tensor, 1007.6 * T },
            { DRAM, 1792 * G },
            { PCIe, 128 * G / 2 },
        },
        "NVIDIA RTX PRO Blackwell GPU Architecture whitepaper v1.0, Table 4 (BF16 503.8 dense, 1792 GB/s; as quoted in "
        "a public repository); 188 SMs, 125 TFLOPS FP32: thefilibusterblog.com; 2617 MHz and TF32/FP8/INT8: "
        "hmc-tech.com; FP64 derived" });
}

} // namespace

std::vector<GpuSpec> makeGpuCatalogue()
{
    std::vector<GpuSpec> gpus;
    addHopper(gpus);
    addAmpereDataCentreGa100(gpus);
    addAdaDataCentre(gpus);
    addAmpereDataCentreGa10x(gpus);
    addAmpereWorkstation(gpus);
    addVolta(gpus);
    addTesla(gpus);
    addTuringGeForce(gpus);
    addAmpereGeForce(gpus);
    addAdaGeForce(gpus);
    addBlackwellDataCentre(gpus);
    addBlackwellRtx(gpus);
    return gpus;
}

} // namespace ridgeline::collectors::detail
