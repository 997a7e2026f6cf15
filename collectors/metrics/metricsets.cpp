// SPDX-License-Identifier: MIT
// Metric sets per chip. Every difference between chips below was found with the CUPTI 13.0
// Profiler Host API (base metric lists and cuptiProfilerHostConfigAddMetrics per chip, no GPU
// needed), not taken from documentation; tests/cupti/test_metricsets_cupti.cpp keeps it true.
#include "ridgeline/collectors/metrics/metricsets.h"

#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <array>
#include <span>

namespace ridgeline::collectors {

namespace {

namespace metric = core::metric;

using Names = std::span<const std::string_view>;

// Tensor source types, the part after metric::TensorOpsPrefix (sm__ops_path_tensor_src_).
constexpr std::array<std::string_view, 0> NoTensorOps {};
constexpr std::array<std::string_view, 2> VoltaTensorOps { "fp16_dst_fp16", "fp16_dst_fp32" };
// Turing sums FP16, BF16 and TF32 sources with FP32 destination into one counter.
constexpr std::array<std::string_view, 5> TuringTensorOps { "fp16_dst_fp16", "fp16_bf16_tf32_dst_fp32", "int8", "int4",
    "int1" };
// Ampere and Ada: the types with a resource in the roofline set, INT4/INT1 (no resource) only in full.
constexpr std::array<std::string_view, 6> AmpereTensorOps { "fp64", "tf32_dst_fp32", "fp16_dst_fp16", "fp16_dst_fp32",
    "bf16_dst_fp32", "int8" };
constexpr std::array<std::string_view, 7> AdaTensorOps { "fp64", "tf32_dst_fp32", "fp16_dst_fp16", "fp16_dst_fp32",
    "bf16_dst_fp32", "fp8", "int8" };
constexpr std::array<std::string_view, 2> AmpereTensorOpsFull { "int4", "int1" };
// GH100 has one FP16 counter (no _dst_ split) and no INT4.
constexpr std::array<std::string_view, 6> HopperTensorOps { "fp64", "tf32_dst_fp32", "fp16", "bf16_dst_fp32", "fp8",
    "int8" };
constexpr std::array<std::string_view, 1> HopperTensorOpsFull { "int1" };
// GB100, GB102, GB10B: FP8 only counted together with FP4/FP6 sources.
constexpr std::array<std::string_view, 8> B100TensorOps { "fp64", "tf32_dst_fp32", "fp16_dst_fp16", "fp16_dst_fp32",
    "bf16_dst_fp32", "fp4_fp6_fp8_dst_fp16", "fp4_fp6_fp8_dst_fp32", "int8" };
constexpr std::array<std::string_view, 1> B100TensorOpsFull { "fp4_dst_fp32" };
// GB110, GB20x, GB20B: FP8 counted apart from FP4/FP6.
constexpr std::array<std::string_view, 8> B110TensorOps { "fp64", "tf32_dst_fp32", "fp16_dst_fp16", "fp16_dst_fp32",
    "bf16_dst_fp32", "fp8_dst_fp16", "fp8_dst_fp32", "int8" };
constexpr std::array<std::string_view, 3> B110TensorOpsFull { "fp4_dst_fp32", "fp4_fp6_dst_fp16", "fp4_fp6_dst_fp32" };

enum class Dram {
    None, // integrated GPU: no dram__ counters at all
    BytesReadWrite, // dram__bytes_read.sum, dram__bytes_write.sum
    BytesOpReadWrite, // GB20x: dram__bytes_op_read.sum, dram__bytes_op_write.sum
};

// The hierarchical roofline's L1 counter (Nsight Compute sections: CC <= 7.2, 7.5-8.9, >= 9.0).
enum class L1Writeback { All, MemLg, MemLgds };

enum class Links {
    None, // integrated GPU
    Pcie,
    NvlinkPcie,
    NvlinkPcieC2c, // Grace Hopper / Grace Blackwell
};

enum class MemoryController { None, Mcc }; // integrated GPUs' mcc__dram_throughput_* (percent only)

struct ChipTraits {
    std::string_view chip;
    std::string_view family;
    // Roofline tensor counter: sm__inst_executed_pipe_tensor.sum (an estimate, x512 FLOPs) when
    // tensorOps is empty: Turing only, whose FP16 counter with FP32 destination also names BF16 and
    // TF32, and TU116/TU117, which have no tensor cores.
    Names tensorOps; // source types in the roofline set
    Names tensorOpsFull; // source types only in the full set
    Dram dram;
    L1Writeback l1;
    Links links;
    MemoryController mcc = MemoryController::None;
};

constexpr std::string_view Volta = "Volta", Turing = "Turing", Ampere = "Ampere", Ada = "Ada", Hopper = "Hopper",
                           Blackwell = "Blackwell";

// Short names for the table below.
constexpr auto RW = Dram::BytesReadWrite, OpRW = Dram::BytesOpReadWrite, NoDram = Dram::None;
constexpr auto All = L1Writeback::All, Lg = L1Writeback::MemLg, Lgds = L1Writeback::MemLgds;
constexpr auto Pcie = Links::Pcie, NvlPcie = Links::NvlinkPcie, NvlPcieC2c = Links::NvlinkPcieC2c,
               NoLinks = Links::None;
constexpr auto Mcc = MemoryController::Mcc;
const Names NoOps = NoTensorOps;

// clang-format off
const std::array Chips {
    //           chip      family      roofline tensor   full-only tensor      DRAM     L1     links        mcc
    ChipTraits { "GV100",  Volta,      VoltaTensorOps,   NoOps,                RW,      All,   NvlPcie },
    ChipTraits { "TU102",  Turing,     NoOps,            TuringTensorOps,      RW,      Lg,    NvlPcie },
    ChipTraits { "TU104",  Turing,     NoOps,            TuringTensorOps,      RW,      Lg,    NvlPcie },
    ChipTraits { "TU106",  Turing,     NoOps,            TuringTensorOps,      RW,      Lg,    NvlPcie },
    // TU116/TU117 (GTX 16xx) have no tensor cores: no sm__ops_path_tensor_* counters.
    ChipTraits { "TU116",  Turing,     NoOps,            NoOps,                RW,      Lg,    Pcie },
    ChipTraits { "TU117",  Turing,     NoOps,            NoOps,                RW,      Lg,    Pcie },
    ChipTraits { "GA100",  Ampere,     AmpereTensorOps,  AmpereTensorOpsFull,  RW,      Lg,    NvlPcie },
    ChipTraits { "GA102",  Ampere,     AmpereTensorOps,  AmpereTensorOpsFull,  RW,      Lg,    NvlPcie },
    ChipTraits { "GA103",  Ampere,     AmpereTensorOps,  AmpereTensorOpsFull,  RW,      Lg,    NvlPcie },
    ChipTraits { "GA104",  Ampere,     AmpereTensorOps,  AmpereTensorOpsFull,  RW,      Lg,    NvlPcie },
    ChipTraits { "GA106",  Ampere,     AmpereTensorOps,  AmpereTensorOpsFull,  RW,      Lg,    NvlPcie },
    ChipTraits { "GA107",  Ampere,     AmpereTensorOps,  AmpereTensorOpsFull,  RW,      Lg,    NvlPcie },
    ChipTraits { "GA10B",  Ampere,     AmpereTensorOps,  AmpereTensorOpsFull,  NoDram,  Lg,    NoLinks,     Mcc },
    ChipTraits { "AD102",  Ada,        AdaTensorOps,     AmpereTensorOpsFull,  RW,      Lg,    Pcie },
    ChipTraits { "AD103",  Ada,        AdaTensorOps,     AmpereTensorOpsFull,  RW,      Lg,    Pcie },
    ChipTraits { "AD104",  Ada,        AdaTensorOps,     AmpereTensorOpsFull,  RW,      Lg,    Pcie },
    ChipTraits { "AD106",  Ada,        AdaTensorOps,     AmpereTensorOpsFull,  RW,      Lg,    Pcie },
    ChipTraits { "AD107",  Ada,        AdaTensorOps,     AmpereTensorOpsFull,  RW,      Lg,    Pcie },
    ChipTraits { "GH100",  Hopper,     HopperTensorOps,  HopperTensorOpsFull,  RW,      Lgds,  NvlPcieC2c },
    ChipTraits { "GB100",  Blackwell,  B100TensorOps,    B100TensorOpsFull,    RW,      Lgds,  NvlPcieC2c },
    ChipTraits { "GB102",  Blackwell,  B100TensorOps,    B100TensorOpsFull,    RW,      Lgds,  NvlPcieC2c },
    ChipTraits { "GB10B",  Blackwell,  B100TensorOps,    B100TensorOpsFull,    NoDram,  Lgds,  NoLinks,     Mcc },
    ChipTraits { "GB110",  Blackwell,  B110TensorOps,    B110TensorOpsFull,    RW,      Lgds,  NvlPcieC2c },
    ChipTraits { "GB202",  Blackwell,  B110TensorOps,    B110TensorOpsFull,    OpRW,    Lgds,  Pcie },
    ChipTraits { "GB203",  Blackwell,  B110TensorOps,    B110TensorOpsFull,    OpRW,    Lgds,  Pcie },
    ChipTraits { "GB205",  Blackwell,  B110TensorOps,    B110TensorOpsFull,    OpRW,    Lgds,  Pcie },
    ChipTraits { "GB206",  Blackwell,  B110TensorOps,    B110TensorOpsFull,    OpRW,    Lgds,  Pcie },
    ChipTraits { "GB207",  Blackwell,  B110TensorOps,    B110TensorOpsFull,    OpRW,    Lgds,  Pcie },
    // GB20B: integrated, and unlike GA10B/GB10B without memory-controller counters.
    ChipTraits { "GB20B",  Blackwell,  B110TensorOps,    B110TensorOpsFull,    NoDram,  Lgds,  NoLinks },
};
// clang-format on

constexpr std::string_view PeakSustained = ".peak_sustained";
// The L2 and L1 clocks their peaks are per cycle of (Nsight Compute's names).
constexpr std::string_view L2Clock = "lts__cycles_elapsed.avg.per_second";
constexpr std::string_view L1Clock = "l1tex__cycles_elapsed.avg.per_second";

constexpr std::string_view IntegratedNoDram = "integrated GPU (shared system memory): no dram__ counters";

bool hasNvlink(Links links)
{
    return links == Links::NvlinkPcie || links == Links::NvlinkPcieC2c;
}

std::string join(std::string_view a, std::string_view b)
{
    return std::string(a).append(b);
}

std::string sass(std::string_view op)
{
    return join(join(metric::SassPrefixes[1], op), metric::SassSuffix);
}

std::string tensorOps(std::string_view source)
{
    return join(join(metric::TensorOpsPrefix, source), metric::TensorOpsSuffix);
}

std::string l1Writeback(L1Writeback l1)
{
    switch (l1) {
    case L1Writeback::All:
        return "l1tex__lsu_writeback_active.sum";
    case L1Writeback::MemLg:
        return "l1tex__lsu_writeback_active_mem_lg.sum";
    case L1Writeback::MemLgds:
        return "l1tex__lsu_writeback_active_mem_lgds.sum";
    }
    return {};
}

struct Lists {
    std::vector<std::string> gpu;
    std::vector<std::string> system;
};

// The roofline set: exactly what metricnames.h names, in the chip's spelling.
Lists rooflineMetrics(const ChipTraits& chip)
{
    Lists out;
    auto& gpu = out.gpu;
    for (const auto op : { metric::Dadd, metric::Dmul, metric::Dfma, metric::Fadd, metric::Fmul, metric::Ffma,
             metric::Hadd, metric::Hmul, metric::Hfma })
        gpu.push_back(sass(op));

    if (chip.tensorOps.empty())
        gpu.emplace_back(metric::TensorPipeInst);
    for (const auto source : chip.tensorOps)
        gpu.push_back(tensorOps(source));

    switch (chip.dram) {
    case Dram::None:
        break;
    case Dram::BytesReadWrite:
        gpu.emplace_back(metric::DramBytes);
        gpu.emplace_back(metric::DramBytesRead);
        gpu.emplace_back(metric::DramBytesWrite);
        break;
    case Dram::BytesOpReadWrite:
        gpu.emplace_back(metric::DramBytes);
        gpu.emplace_back(metric::DramBytesOpRead);
        gpu.emplace_back(metric::DramBytesOpWrite);
        break;
    }
    gpu.emplace_back(metric::L2Bytes);
    gpu.emplace_back(metric::L1Bytes);

    gpu.emplace_back(metric::Duration);
    gpu.emplace_back(metric::SmCyclesElapsed);
    gpu.emplace_back(metric::SmClock);
    if (chip.dram != Dram::None)
        gpu.emplace_back(metric::DramClock);

    // Counter ceilings (peak per cycle x the clock the launch ran at) for every resource the set
    // counts: constants of the chip, which cost no replay pass (tests/cupti checks the count).
    gpu.emplace_back(metric::FfmaPeakPerCycle);
    gpu.emplace_back(metric::DfmaPeakPerCycle);
    gpu.emplace_back(metric::HfmaPeakPerCycle);
    if (chip.dram != Dram::None)
        gpu.emplace_back(metric::DramBytesPeakPerCycle);
    gpu.push_back(join(metric::L2Bytes, PeakSustained));
    gpu.emplace_back(L2Clock);
    gpu.push_back(join(metric::L1Bytes, PeakSustained));
    gpu.emplace_back(L1Clock);
    if (chip.tensorOps.empty())
        gpu.push_back(join(metric::TensorPipeInst, PeakSustained));
    for (const auto source : chip.tensorOps)
        gpu.push_back(tensorOps(source) + std::string(PeakSustained));

    if (hasNvlink(chip.links)) {
        out.system.emplace_back(metric::NvlinkRxBytes);
        out.system.emplace_back(metric::NvlinkTxBytes);
    }
    if (chip.links != Links::None) {
        out.system.emplace_back(metric::PcieReadBytes);
        out.system.emplace_back(metric::PcieWriteBytes);
    }
    return out;
}

// The full set: roofline + Speed of Light (SOLBottleneck inputs), hierarchical L1/L2 roofs, all tensor
// source types with their peaks, link utilisation.
Lists fullMetrics(const ChipTraits& chip)
{
    Lists out = rooflineMetrics(chip);
    auto& gpu = out.gpu;

    gpu.emplace_back("sm__throughput.avg.pct_of_peak_sustained_elapsed");
    gpu.emplace_back("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
    if (chip.dram != Dram::None)
        gpu.emplace_back("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed");
    gpu.emplace_back("lts__throughput.avg.pct_of_peak_sustained_elapsed");
    gpu.emplace_back("l1tex__throughput.avg.pct_of_peak_sustained_active");
    gpu.emplace_back("sm__cycles_active.avg");
    gpu.emplace_back("sm__warps_active.avg.pct_of_peak_sustained_active");

    // Hierarchical roofline: L1 = writeback cycles x 128 B, L2 = lts2xbar cycles x 32 B.
    const std::string l1 = l1Writeback(chip.l1);
    gpu.push_back(l1);
    gpu.push_back(l1 + ".peak_sustained");
    gpu.emplace_back("lts__lts2xbar_cycles_active.sum");
    gpu.emplace_back("lts__lts2xbar_cycles_active.sum.peak_sustained");

    // Tensor: the per-source counters the roofline set leaves out, and a peak for each (the
    // roofline set has the peaks of its own).
    for (const auto source : chip.tensorOpsFull)
        gpu.push_back(tensorOps(source));
    for (const auto source : chip.tensorOpsFull)
        gpu.push_back(tensorOps(source) + std::string(PeakSustained));

    auto& system = out.system;
    if (hasNvlink(chip.links)) {
        system.emplace_back("nvlrx__bytes_data_user.sum");
        system.emplace_back("nvltx__bytes_data_user.sum");
        system.push_back(join(metric::NvlinkRxBytes, ".pct_of_peak_sustained_elapsed"));
        system.push_back(join(metric::NvlinkTxBytes, ".pct_of_peak_sustained_elapsed"));
    }
    if (chip.links != Links::None)
        system.emplace_back("pcie__throughput.avg.pct_of_peak_sustained_elapsed");
    if (chip.links == Links::NvlinkPcieC2c) {
        system.emplace_back("ctc__rx_bytes_data_user.sum");
        system.emplace_back("ctc__tx_bytes_data_user.sum");
    }
    if (chip.mcc == MemoryController::Mcc) {
        system.emplace_back("mcc__dram_throughput_op_read.avg.pct_of_peak_sustained_elapsed");
        system.emplace_back("mcc__dram_throughput_op_write.avg.pct_of_peak_sustained_elapsed");
    }
    return out;
}

std::vector<MissingMetric> unavailableMetrics(const ChipTraits& chip)
{
    std::vector<MissingMetric> out;
    const auto add = [&out](std::string_view name, std::string reason) {
        out.push_back(MissingMetric { std::string(name), std::move(reason) });
    };
    switch (chip.dram) {
    case Dram::None: {
        std::string reason(IntegratedNoDram);
        reason += chip.mcc == MemoryController::Mcc
            ? "; the memory controller reports only percentages (mcc__dram_throughput_*, full set)"
            : ", and no memory-controller (mcc__) counters either";
        for (const auto name : { metric::DramBytes, metric::DramBytesRead, metric::DramBytesWrite, metric::DramClock,
                 metric::DramBytesPeakPerCycle })
            add(name, reason);
        break;
    }
    case Dram::BytesOpReadWrite:
        add(metric::DramBytesRead, join("named ", metric::DramBytesOpRead) + " on this chip (in the set)");
        add(metric::DramBytesWrite, join("named ", metric::DramBytesOpWrite) + " on this chip (in the set)");
        break;
    case Dram::BytesReadWrite:
        break;
    }
    if (!hasNvlink(chip.links)) {
        add(metric::NvlinkRxBytes, "no NVLink counters on this chip");
        add(metric::NvlinkTxBytes, "no NVLink counters on this chip");
    }
    if (chip.links == Links::None) {
        add(metric::PcieReadBytes, "integrated GPU: no PCIe counters");
        add(metric::PcieWriteBytes, "integrated GPU: no PCIe counters");
    }
    add(metric::Waves,
        "not a profiler metric on any chip: Nsight Compute derives it from the launch configuration and occupancy");
    return out;
}

const ChipTraits* findChip(std::string_view chip)
{
    const auto it = std::find_if(Chips.begin(), Chips.end(), [chip](const ChipTraits& c) { return c.chip == chip; });
    return it == Chips.end() ? nullptr : &*it;
}

} // namespace

std::vector<std::string> chipNames()
{
    std::vector<std::string> out;
    out.reserve(Chips.size());
    for (const auto& chip : Chips)
        out.emplace_back(chip.chip);
    return out;
}

std::vector<std::string> setNames()
{
    return { std::string(RooflineSet), std::string(FullSet) };
}

std::optional<MetricSet> metricSet(std::string_view chip, std::string_view setName)
{
    const ChipTraits* traits = findChip(chip);
    if (!traits || (setName != RooflineSet && setName != FullSet))
        return std::nullopt;
    Lists lists = setName == RooflineSet ? rooflineMetrics(*traits) : fullMetrics(*traits);
    MetricSet set;
    set.chip = std::string(traits->chip);
    set.family = std::string(traits->family);
    set.name = std::string(setName);
    set.metrics = std::move(lists.gpu);
    set.metrics.insert(set.metrics.end(), lists.system.begin(), lists.system.end());
    set.unavailable = unavailableMetrics(*traits);
    return set;
}

const std::vector<UnsupportedChip>& unsupportedChips()
{
    static const std::vector<UnsupportedChip> chips {
        { "GV11B",
            "Volta, integrated (Jetson AGX Xavier): listed by cuptiProfilerHostGetSupportedChips, but "
            "cuptiProfilerHostInitialize answers CUPTI_ERROR_NOT_SUPPORTED for both the range profiler and PM "
            "sampling (CUDA 13.0), so no metric can be configured for it" },
    };
    return chips;
}

bool isSystemUnitMetric(std::string_view metric)
{
    for (const std::string_view prefix : { "nvlrx__", "nvltx__", "pcie__", "ctc__", "mcc__" }) {
        if (metric.starts_with(prefix))
            return true;
    }
    return false;
}

std::vector<std::vector<std::string>> configGroups(const MetricSet& set)
{
    std::vector<std::string> gpu, system;
    for (const auto& name : set.metrics)
        (isSystemUnitMetric(name) ? system : gpu).push_back(name);
    std::vector<std::vector<std::string>> groups;
    if (!gpu.empty())
        groups.push_back(std::move(gpu));
    if (!system.empty())
        groups.push_back(std::move(system));
    return groups;
}

} // namespace ridgeline::collectors
