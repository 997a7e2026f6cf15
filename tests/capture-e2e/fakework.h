// SPDX-License-Identifier: MIT
// What the stand-in GPU of the end-to-end capture tests "does": how long each kernel runs and the
// counter values the stand-in CUPTI reports for it. Deterministic, so that the tests can name the
// verdict each kernel must get. The peaks are an H100 SXM5's (GH100: 132 SMs, 1.755 GHz SM clock,
// HBM3 at 1.593 GHz x 1280 bytes per cycle); the work is a fraction of each peak over the kernel's
// duration. Nothing here is measured: it is a script for the plumbing tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace fakecuda {

struct KernelProfile {
    const char* match; // substring of the mangled name
    std::uint64_t durationNs;
    double dram, l2, l1; // fraction of each level's peak bytes per second
    double fp32, fp64, fp16; // fraction of the FFMA, DFMA, HFMA peak (instructions)
    double tensor; // fraction of the tensor type's peak (operations)
    const char* tensorType; // sm__ops_path_tensor_src_<type>
};

// First match wins; the last entry matches everything.
inline constexpr KernelProfile kProfiles[] = {
    { "triad", 40'000, 0.80, 0.30, 0.20, 0.01, 0, 0, 0, "" },
    { "sgemm", 120'000, 0.10, 0.20, 0.40, 0.75, 0, 0, 0, "" },
    { "hgemm", 200'000, 0.20, 0.30, 0.30, 0.02, 0, 0, 0.70, "fp16" },
    { "dgemm", 150'000, 0.15, 0.20, 0.30, 0, 0.05, 0, 0.65, "fp64" },
    { "", 3'000, 0.02, 0.02, 0.02, 0.01, 0, 0, 0, "" },
};

inline const KernelProfile& profileOf(const char* name)
{
    for (const auto& p : kProfiles) {
        if (name != nullptr && std::strstr(name, p.match) != nullptr)
            return p;
    }
    return kProfiles[std::size(kProfiles) - 1];
}

inline constexpr double kSmClock = 1.755e9, kDramClock = 1.593e9, kL2Clock = 1.755e9, kL1Clock = 1.755e9;
inline constexpr double kFfmaPeak = 16896, kDfmaPeak = 8448, kHfmaPeak = 16896;
inline constexpr double kDramPeak = 1280, kL2Peak = 5120, kL1Peak = 16896;

inline double tensorPeak(std::string_view type)
{
    if (type == "fp64")
        return 33'792;
    if (type == "tf32_dst_fp32")
        return 270'336;
    if (type == "fp8" || type == "int8")
        return 1'081'344;
    return 540'672; // fp16, bf16_dst_fp32, others
}

// The value of `metric` for a launch of the kernel `name` that ran `durationNs`.
inline double counterValue(std::string_view metric, const char* name, std::uint64_t durationNs)
{
    const KernelProfile& p = profileOf(name);
    const double seconds = static_cast<double>(durationNs) * 1e-9;
    const double smCycles = seconds * kSmClock;
    auto count = [](double v) { return std::round(v); };
    constexpr std::string_view tensorPrefix = "sm__ops_path_tensor_src_";
    constexpr std::string_view peakSuffix = ".peak_sustained";
    if (metric.ends_with(peakSuffix)) {
        const auto base = metric.substr(0, metric.size() - peakSuffix.size());
        if (base.starts_with(tensorPrefix))
            return tensorPeak(base.substr(tensorPrefix.size(), base.size() - tensorPrefix.size() - 4));
        if (base == "sm__sass_thread_inst_executed_op_ffma_pred_on.sum")
            return kFfmaPeak;
        if (base == "sm__sass_thread_inst_executed_op_dfma_pred_on.sum")
            return kDfmaPeak;
        if (base == "sm__sass_thread_inst_executed_op_hfma_pred_on.sum")
            return kHfmaPeak;
        if (base == "dram__bytes.sum")
            return kDramPeak;
        if (base == "lts__t_bytes.sum")
            return kL2Peak;
        if (base == "l1tex__t_bytes.sum")
            return kL1Peak;
        return 1;
    }
    if (metric == "gpu__time_duration.sum")
        return static_cast<double>(durationNs);
    if (metric == "sm__cycles_elapsed.avg")
        return count(smCycles);
    if (metric == "sm__cycles_elapsed.avg.per_second" || metric == "smsp__cycles_elapsed.avg.per_second")
        return kSmClock;
    if (metric == "dram__cycles_elapsed.avg.per_second")
        return kDramClock;
    if (metric == "lts__cycles_elapsed.avg.per_second")
        return kL2Clock;
    if (metric == "l1tex__cycles_elapsed.avg.per_second")
        return kL1Clock;
    if (metric == "sm__sass_thread_inst_executed_op_ffma_pred_on.sum")
        return count(p.fp32 * kFfmaPeak * smCycles);
    if (metric == "sm__sass_thread_inst_executed_op_dfma_pred_on.sum")
        return count(p.fp64 * kDfmaPeak * smCycles);
    if (metric == "sm__sass_thread_inst_executed_op_hfma_pred_on.sum")
        return count(p.fp16 * kHfmaPeak * smCycles);
    if (metric == "dram__bytes.sum")
        return count(p.dram * kDramPeak * seconds * kDramClock);
    if (metric == "dram__bytes_read.sum")
        return count(p.dram * kDramPeak * seconds * kDramClock * 2 / 3);
    if (metric == "dram__bytes_write.sum")
        return count(p.dram * kDramPeak * seconds * kDramClock / 3);
    if (metric == "lts__t_bytes.sum")
        return count(p.l2 * kL2Peak * seconds * kL2Clock);
    if (metric == "l1tex__t_bytes.sum")
        return count(p.l1 * kL1Peak * seconds * kL1Clock);
    if (metric.starts_with(tensorPrefix) && metric.ends_with(".sum")) {
        const auto type = metric.substr(tensorPrefix.size(), metric.size() - tensorPrefix.size() - 4);
        return type == p.tensorType ? count(p.tensor * tensorPeak(type) * smCycles) : 0;
    }
    return 0; // every other counter: nothing happened
}

} // namespace fakecuda
