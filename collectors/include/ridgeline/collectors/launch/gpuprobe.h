// SPDX-License-Identifier: MIT
// What GPUs this machine has, asked of the CUDA driver (libcuda.so.1) and NVML
// (libnvidia-ml.so.1) through dlopen: nothing links the driver, so every binary runs without one.
#pragma once

#include "ridgeline/core/model/model.h"

#include <string>
#include <vector>

namespace ridgeline::collectors {

enum class GpuProbeState {
    Ok, // at least one GPU
    NoDriver, // libcuda.so.1 could not be loaded
    StubDriver, // the CUDA toolkit's stub library was found instead of a driver
    NoDevice, // the driver loaded and sees no GPU
    DriverError, // the driver loaded but failed (cuInit/cuDeviceGetCount error)
};

struct GpuLinks {
    int nvlinkActive = -1; // NVLink links up; -1 = unknown (no NVML)
    int nvlinkVersion = 0; // as NVML reports it; 0 = unknown
    int pcieGeneration = 0; // maximum PCIe generation and width; 0 = unknown
    int pcieWidth = 0;
};

struct GpuInfo {
    core::Device device; // ordinal, uuid ("GPU-…"), name, CC, SMs, clocks, memory, bus width, link bandwidths
    std::string pciBusId; // "0000:3b:00.0"
    GpuLinks links;
};

struct GpuProbe {
    GpuProbeState state = GpuProbeState::NoDriver;
    std::string reason; // why there is no GPU: the library's or driver's own words
    std::string driverVersion; // "13.0" (CUDA version the driver supports), when loaded
    int driverCudaVersion = 0; // cuDriverGetVersion's answer (13000 for 13.0); 0 = unknown
    bool nvml = false; // NVML answered (clocks and links from it)
    std::vector<GpuInfo> gpus;
};

struct GpuProbeOptions {
    // The driver library to load; $RIDGELINE_LIBCUDA overrides it (tests use it to exercise the
    // no-driver and stub paths on any machine).
    std::string libcuda = "libcuda.so.1";
    std::string libnvml = "libnvidia-ml.so.1";
    bool useNvml = true;
};

GpuProbe probeGpus(const GpuProbeOptions& options = {});

// Why there is no GPU, e.g. "the NVIDIA driver is not installed (libcuda.so.1: cannot open shared
// object file: No such file or directory)"; empty when state is Ok.
std::string noGpuReason(const GpuProbe& probe);

// One sentence for the user when no GPU activity can be recorded, e.g. "No GPU activity could be
// recorded: the NVIDIA driver is not installed (libcuda.so.1: cannot open shared object file)."
// Empty when state is Ok.
std::string noGpuSentence(const GpuProbe& probe);

// What the CUPTI Ridgeline is built against (CUDA 13.0) needs of the driver. cuDriverGetVersion
// reports the newest CUDA version the driver supports (1000 * major + 10 * minor). CUDA 13.0 needs
// Linux driver 580.65.06 or newer: CUDA 13.0 Release Notes, Table 3 "CUDA Toolkit and Corresponding
// Driver Versions" (https://docs.nvidia.com/cuda/archive/13.0.0/cuda-toolkit-release-notes/).
// CUPTI does not support CUDA's minor version compatibility, so an older driver is not enough.
inline constexpr int kCuptiNeedsCudaVersion = 13000;
inline constexpr const char* kCuptiNeedsDriverRelease = "580.65.06";

// One sentence when the driver is older than CUPTI needs, naming both versions and what to
// install; empty when it is new enough or its version is unknown (0).
std::string driverTooOldSentence(int driverCudaVersion, int neededCudaVersion = kCuptiNeedsCudaVersion,
    const char* neededRelease = kCuptiNeedsDriverRelease);

// Why this probe's GPUs cannot be traced: no GPU (noGpuSentence) or a driver too old for CUPTI
// (driverTooOldSentence); empty when capture can trace them.
std::string untracedSentence(const GpuProbe& probe);

// Link bandwidth per direction from NVML's answer and the compute capability (0 when unknown).
double nvlinkBytesPerS(int activeLinks, int ccMajor);
double pcieBytesPerS(int generation, int width);

} // namespace ridgeline::collectors
