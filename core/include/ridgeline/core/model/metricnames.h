// SPDX-License-Identifier: MIT
// The hardware counters the roofline reads, by their Nsight Compute names
// (../shared/reference/roofline-cupti.md §1). Importers store metrics under these names (base
// units: bytes, ns, instructions, Hz); the analysis looks them up here and nowhere else.
#pragma once

#include <array>
#include <string_view>

namespace ridgeline::core::metric {

// CUDA-core floating-point instructions, thread level (each FMA is 2 FLOPs; HFMA2 packs 2 lanes).
// Nsight Compute's roofline uses the smsp__ prefix, NERSC's metric set the sm__ prefix: same counts.
inline constexpr std::string_view SassPrefixes[]
    = { "smsp__sass_thread_inst_executed_op_", "sm__sass_thread_inst_executed_op_" };
inline constexpr std::string_view SassSuffix = "_pred_on.sum";
// Operation names after the prefix: d = FP64, f = FP32, h = FP16.
inline constexpr std::string_view Dadd = "dadd", Dmul = "dmul", Dfma = "dfma";
inline constexpr std::string_view Fadd = "fadd", Fmul = "fmul", Ffma = "ffma";
inline constexpr std::string_view Hadd = "hadd", Hmul = "hmul", Hfma = "hfma";

// Tensor cores. Hopper and newer: operation counts per source type (already FLOPs/ops).
inline constexpr std::string_view TensorOpsPrefix = "sm__ops_path_tensor_src_";
inline constexpr std::string_view TensorOpsSuffix = ".sum";
// Volta to Ada: tensor pipe instructions, x512 FLOPs each (HMMA; NERSC's convention).
inline constexpr std::string_view TensorPipeInst = "sm__inst_executed_pipe_tensor.sum";
inline constexpr double TensorPipeFlopsPerInst = 512.0;

// Bytes per memory level and link.
inline constexpr std::string_view DramBytes = "dram__bytes.sum";
inline constexpr std::string_view DramBytesRead = "dram__bytes_read.sum";
inline constexpr std::string_view DramBytesWrite = "dram__bytes_write.sum";
inline constexpr std::string_view L2Bytes = "lts__t_bytes.sum";
inline constexpr std::string_view L1Bytes = "l1tex__t_bytes.sum";
inline constexpr std::string_view NvlinkRxBytes = "nvlrx__bytes.sum";
inline constexpr std::string_view NvlinkTxBytes = "nvltx__bytes.sum";
inline constexpr std::string_view PcieReadBytes = "pcie__read_bytes.sum";
inline constexpr std::string_view PcieWriteBytes = "pcie__write_bytes.sum";

// Time and clocks.
inline constexpr std::string_view Duration = "gpu__time_duration.sum"; // ns
inline constexpr std::string_view SmCyclesElapsed = "sm__cycles_elapsed.avg";
inline constexpr std::string_view SmClock = "sm__cycles_elapsed.avg.per_second"; // Hz
inline constexpr std::string_view DramClock = "dram__cycles_elapsed.avg.per_second"; // Hz
inline constexpr std::string_view Waves = "launch__waves_per_multiprocessor";

// Nsight Compute's Speed of Light: throughput of the busiest sub-unit, % of its peak over the
// elapsed time (SpeedOfLight section; the SOLBottleneck rule reads the first two).
inline constexpr std::string_view SolSm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view SolMemory = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view SolDram = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view SolDramAlt = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view SolL2 = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view SolL1 = "l1tex__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view SolL1Active = "l1tex__throughput.avg.pct_of_peak_sustained_active";

// Rates that reports of Nsight Compute's roofline sections hold instead of totals (.ncu-rep):
// instructions per SMSP cycle x SMSP cycles per second, bytes per second.
inline constexpr std::string_view PerCycleElapsed = ".per_cycle_elapsed";
inline constexpr std::string_view SmspClock = "smsp__cycles_elapsed.avg.per_second"; // Hz
inline constexpr std::string_view DramBytesPerSecond = "dram__bytes.sum.per_second";

// Peaks per cycle (x clock = ceiling at the clock the kernel ran at).
inline constexpr std::string_view FfmaPeakPerCycle = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained";
inline constexpr std::string_view DfmaPeakPerCycle = "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained";
inline constexpr std::string_view HfmaPeakPerCycle = "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained";
inline constexpr std::string_view DramBytesPeakPerCycle = "dram__bytes.sum.peak_sustained";
// L2 and L1 as Nsight Compute's hierarchical roofline draws them (SpeedOfLight_Hierarchical*
// sections): the derived byte peaks where the report holds them, else the cycle counters times
// the bytes each active cycle moves (32 for L2-to-crossbar, 128 for an L1 LSU writeback), else
// the plain byte counters' own peaks. Clocks: lts__ and l1tex__cycles_elapsed.
inline constexpr std::string_view L2Clock = "lts__cycles_elapsed.avg.per_second";
inline constexpr std::string_view L1Clock = "l1tex__cycles_elapsed.avg.per_second";
inline constexpr std::string_view L2BytesPeakPerCycle[]
    = { "derived__lts__lts2xbar_bytes.sum.peak_sustained", "lts__t_bytes.sum.peak_sustained" };
inline constexpr std::string_view L2CyclesPeakPerCycle = "lts__lts2xbar_cycles_active.sum.peak_sustained";
inline constexpr double L2BytesPerCycle = 32.0;
inline constexpr std::string_view L1BytesPeakPerCycle[]
    = { "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.peak_sustained",
          "derived__l1tex__lsu_writeback_bytes_mem_lg.sum.peak_sustained",
          "derived__l1tex__lsu_writeback_bytes.sum.peak_sustained", "l1tex__t_bytes.sum.peak_sustained" };
inline constexpr std::string_view L1CyclesPeakPerCycle[] = { "l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained",
    "l1tex__lsu_writeback_active_mem_lg.sum.peak_sustained", "l1tex__lsu_writeback_active.sum.peak_sustained" };
inline constexpr double L1BytesPerCycle = 128.0;
// Tensor: per source type (Hopper+, TensorOpsPrefix + type + ".sum.peak_sustained", operations),
// or the pipe's instructions x 512 (Volta to Ada).
inline constexpr std::string_view TensorPipePeakPerCycle = "sm__inst_executed_pipe_tensor.sum.peak_sustained";

// Other chips' names for the counters above, found with the CUPTI 13.0 Profiler Host API
// (collectors/include/ridgeline/collectors/metrics/metricsets.h, docs/METRIC-SETS.md).
// Blackwell GB20x (GB202, GB203, GB205, GB206, GB207) rejects dram__bytes_read.sum and
// dram__bytes_write.sum; it names them so (dram__bytes.sum is the same on every chip with DRAM).
inline constexpr std::string_view DramBytesOpRead = "dram__bytes_op_read.sum";
inline constexpr std::string_view DramBytesOpWrite = "dram__bytes_op_write.sum";
// Tensor source types after TensorOpsPrefix, by resource (resource::*Tensor). A chip has a subset of
// each list; add up the ones it has. GH100 counts FP16 sources as "fp16"; Volta, Ampere, Ada and
// Blackwell split them by destination ("fp16_dst_fp16", "fp16_dst_fp32"). FP8 is "fp8" on AD10x and
// GH100, "fp8_dst_fp16"/"fp8_dst_fp32" on GB110, GB20x and GB20B; GB100, GB102 and GB10B only count
// it together with FP4/FP6 sources ("fp4_fp6_fp8_dst_*"). Left out: Turing's "fp16_bf16_tf32_dst_fp32"
// (three resources in one counter), INT4/INT1, and Blackwell's FP4/FP6-only counters (no resource).
// The roofline sets use these on Volta and every chip from Ampere on (about one replay pass each);
// only Turing gets TensorPipeInst there, an estimate (docs/METRIC-SETS.md).
inline constexpr std::string_view TensorSrcFp64[] = { "fp64" };
inline constexpr std::string_view TensorSrcTf32[] = { "tf32_dst_fp32" };
inline constexpr std::string_view TensorSrcFp16[] = { "fp16", "fp16_dst_fp16", "fp16_dst_fp32" };
inline constexpr std::string_view TensorSrcBf16[] = { "bf16_dst_fp32" };
inline constexpr std::string_view TensorSrcFp8[]
    = { "fp8", "fp8_dst_fp16", "fp8_dst_fp32", "fp4_fp6_fp8_dst_fp16", "fp4_fp6_fp8_dst_fp32" };
inline constexpr std::string_view TensorSrcInt8[] = { "int8" };
// Waves (launch__waves_per_multiprocessor) is not a profiler metric: CUPTI rejects it on every chip.
// Only Nsight Compute reports carry it; a CUPTI collector computes it from the launch configuration.

} // namespace ridgeline::core::metric

namespace ridgeline::core::resource {

// Ceiling and utilisation names (the `resource` column of the ceilings table).
inline constexpr const char* FP64 = "FP64";
inline constexpr const char* FP32 = "FP32";
inline constexpr const char* FP16 = "FP16"; // CUDA cores (HFMA2)
inline constexpr const char* FP64Tensor = "FP64_tensor";
inline constexpr const char* TF32Tensor = "TF32_tensor";
inline constexpr const char* FP16Tensor = "FP16_tensor";
inline constexpr const char* BF16Tensor = "BF16_tensor";
inline constexpr const char* FP8Tensor = "FP8_tensor";
inline constexpr const char* INT8Tensor = "INT8_tensor";
inline constexpr const char* DRAM = "DRAM";
inline constexpr const char* L2 = "L2";
inline constexpr const char* L1 = "L1";
inline constexpr const char* NVLink = "NVLink";
inline constexpr const char* PCIe = "PCIe";

inline constexpr std::array Compute { FP64, FP32, FP16, FP64Tensor, TF32Tensor, FP16Tensor, BF16Tensor, FP8Tensor,
    INT8Tensor };
inline constexpr std::array Memory { DRAM, L2, L1 };
inline constexpr std::array Links { NVLink, PCIe };

} // namespace ridgeline::core::resource
