// SPDX-License-Identifier: MIT
// The CUDA driver API through dlopen: the few calls `ridgeline devices` and the launcher need.
#include "ridgeline/collectors/launch/gpuprobe.h"

#include "nvmldetails.h"
#include "ridgeline/core/base/hostname.h"

#include <array>
#include <cstdlib>
#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

namespace ridgeline::collectors {

namespace {

using CUresult = int;
using CUdevice = int;
struct CUuuid {
    unsigned char bytes[16];
};

constexpr CUresult kSuccess = 0;
constexpr CUresult kStubLibrary = 34;
constexpr CUresult kNoDevice = 100;

// Attribute numbers of cuda.h (CUdevice_attribute); stable across CUDA releases.
enum Attribute : int {
    ClockRate = 13,
    SmCount = 16,
    PciBus = 33,
    PciDevice = 34,
    MemoryClockRate = 36,
    BusWidth = 37,
    L2Size = 38,
    MaxThreadsPerSm = 39,
    PciDomain = 50,
    CcMajor = 75,
    CcMinor = 76,
    SharedPerSm = 81,
};

struct Driver {
    CUresult (*init)(unsigned) = nullptr;
    CUresult (*driverGetVersion)(int*) = nullptr;
    CUresult (*getCount)(int*) = nullptr;
    CUresult (*get)(CUdevice*, int) = nullptr;
    CUresult (*getName)(char*, int, CUdevice) = nullptr;
    CUresult (*getAttribute)(int*, int, CUdevice) = nullptr;
    CUresult (*totalMem)(std::size_t*, CUdevice) = nullptr;
    CUresult (*getUuid)(CUuuid*, CUdevice) = nullptr;
    CUresult (*errorName)(CUresult, const char**) = nullptr;
};

template <typename F> bool load(void* lib, const char* name, F& fn)
{
    fn = reinterpret_cast<F>(dlsym(lib, name));
    return fn != nullptr;
}

// Names of the errors cuInit gives on machines without a usable GPU, for drivers (and the
// toolkit's stub) whose cuGetErrorName does not answer.
const char* knownErrorName(CUresult rc)
{
    switch (rc) {
    case 3:
        return "CUDA_ERROR_NOT_INITIALIZED";
    case 34:
        return "CUDA_ERROR_STUB_LIBRARY";
    case 46:
        return "CUDA_ERROR_DEVICE_UNAVAILABLE";
    case 100:
        return "CUDA_ERROR_NO_DEVICE";
    case 304:
        return "CUDA_ERROR_OPERATING_SYSTEM";
    case 802:
        return "CUDA_ERROR_SYSTEM_NOT_READY";
    case 803:
        return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case 804:
        return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    case 999:
        return "CUDA_ERROR_UNKNOWN";
    default:
        return nullptr;
    }
}

std::string errorText(const Driver& d, CUresult rc)
{
    const char* name = nullptr;
    if (d.errorName == nullptr || d.errorName(rc, &name) != kSuccess || name == nullptr)
        name = knownErrorName(rc);
    if (name != nullptr)
        return fmt::format("{} ({})", name, rc);
    return fmt::format("CUDA error {}", rc);
}

std::string formatUuid(const CUuuid& uuid)
{
    std::string hex;
    for (std::size_t i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            hex += '-';
        hex += fmt::format("{:02x}", uuid.bytes[i]);
    }
    return "GPU-" + hex;
}

GpuInfo describe(const Driver& d, CUdevice dev, int ordinal)
{
    auto attr = [&](int which) {
        int value = 0;
        return d.getAttribute(&value, which, dev) == kSuccess ? value : 0;
    };
    GpuInfo info;
    core::Device& device = info.device;
    device.id = ordinal;
    device.ordinal = ordinal;
    device.host = core::hostName();
    std::array<char, 256> name {};
    if (d.getName(name.data(), static_cast<int>(name.size() - 1), dev) == kSuccess)
        device.name = name.data();
    CUuuid uuid {};
    if (d.getUuid != nullptr && d.getUuid(&uuid, dev) == kSuccess)
        device.uuid = formatUuid(uuid);
    device.ccMajor = attr(CcMajor);
    device.ccMinor = attr(CcMinor);
    device.smCount = attr(SmCount);
    device.coreClockKhz = attr(ClockRate);
    device.memoryClockKhz = attr(MemoryClockRate);
    device.memoryBusWidthBits = attr(BusWidth);
    device.l2CacheBytes = attr(L2Size);
    device.maxThreadsPerSm = attr(MaxThreadsPerSm);
    device.sharedMemoryPerSmBytes = attr(SharedPerSm);
    std::size_t bytes = 0;
    if (d.totalMem(&bytes, dev) == kSuccess)
        device.memoryBytes = static_cast<std::int64_t>(bytes);
    info.pciBusId = fmt::format("{:04x}:{:02x}:{:02x}.0", attr(PciDomain), attr(PciBus), attr(PciDevice));
    return info;
}

} // namespace

GpuProbe probeGpus(const GpuProbeOptions& options)
{
    GpuProbe probe;
    std::string library = options.libcuda;
    if (const char* over = std::getenv("RIDGELINE_LIBCUDA"); over != nullptr && *over != '\0')
        library = over;
    void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
        const char* why = dlerror();
        probe.state = GpuProbeState::NoDriver;
        probe.reason = why != nullptr ? why : library + ": cannot be loaded";
        return probe;
    }
    // The driver stays loaded: unloading libcuda while anything may still use it is unsafe.
    Driver d;
    const bool complete = load(lib, "cuInit", d.init) && load(lib, "cuDeviceGetCount", d.getCount)
        && load(lib, "cuDeviceGet", d.get) && load(lib, "cuDeviceGetName", d.getName)
        && load(lib, "cuDeviceGetAttribute", d.getAttribute) && load(lib, "cuDeviceTotalMem_v2", d.totalMem);
    (void)load(lib, "cuDriverGetVersion", d.driverGetVersion);
    (void)load(lib, "cuGetErrorName", d.errorName);
    if (!load(lib, "cuDeviceGetUuid_v2", d.getUuid))
        (void)load(lib, "cuDeviceGetUuid", d.getUuid);
    if (!complete) {
        probe.state = GpuProbeState::DriverError;
        probe.reason = fmt::format("{} lacks the CUDA driver API (not an NVIDIA driver library?)", library);
        return probe;
    }
    int version = 0;
    if (d.driverGetVersion != nullptr && d.driverGetVersion(&version) == kSuccess && version > 0) {
        probe.driverVersion = fmt::format("{}.{}", version / 1000, version % 1000 / 10);
        probe.driverCudaVersion = version;
    }
    const CUresult rc = d.init(0);
    if (rc != kSuccess) {
        probe.state = rc == kStubLibrary ? GpuProbeState::StubDriver
            : rc == kNoDevice            ? GpuProbeState::NoDevice
                                         : GpuProbeState::DriverError;
        probe.reason = fmt::format("cuInit failed: {}", errorText(d, rc));
        return probe;
    }
    int count = 0;
    if (const CUresult counted = d.getCount(&count); counted != kSuccess) {
        probe.state = GpuProbeState::DriverError;
        probe.reason = fmt::format("cuDeviceGetCount failed: {}", errorText(d, counted));
        return probe;
    }
    if (count <= 0) {
        probe.state = GpuProbeState::NoDevice;
        probe.reason = "the driver reports 0 CUDA devices";
        return probe;
    }
    for (int i = 0; i < count; ++i) {
        CUdevice dev = 0;
        if (d.get(&dev, i) == kSuccess)
            probe.gpus.push_back(describe(d, dev, i));
    }
    probe.state = GpuProbeState::Ok;
    if (options.useNvml)
        probe.nvml = detail::addNvmlDetails(probe, options.libnvml);
    for (auto& gpu : probe.gpus) {
        auto& device = gpu.device;
        device.nvlinkBandwidthBytesPerS = nvlinkBytesPerS(gpu.links.nvlinkActive, device.ccMajor);
        device.pcieBandwidthBytesPerS = pcieBytesPerS(gpu.links.pcieGeneration, gpu.links.pcieWidth);
    }
    return probe;
}

std::string noGpuReason(const GpuProbe& probe)
{
    switch (probe.state) {
    case GpuProbeState::Ok:
        return {};
    case GpuProbeState::NoDriver:
        return fmt::format("the NVIDIA driver is not installed ({})", probe.reason);
    case GpuProbeState::StubDriver:
        return fmt::format(
            "only the CUDA toolkit's stub driver library was found, not an NVIDIA driver ({})", probe.reason);
    case GpuProbeState::NoDevice:
        return fmt::format("the NVIDIA driver finds no GPU ({})", probe.reason);
    case GpuProbeState::DriverError:
        return fmt::format("the NVIDIA driver failed ({})", probe.reason);
    }
    return {};
}

std::string noGpuSentence(const GpuProbe& probe)
{
    const auto reason = noGpuReason(probe);
    return reason.empty() ? reason : fmt::format("No GPU activity could be recorded: {}.", reason);
}

std::string driverTooOldSentence(int driverCudaVersion, int neededCudaVersion, const char* neededRelease)
{
    if (driverCudaVersion <= 0 || driverCudaVersion >= neededCudaVersion)
        return {};
    auto cuda = [](int v) { return fmt::format("{}.{}", v / 1000, v % 1000 / 10); };
    return fmt::format("The NVIDIA driver supports CUDA {}, but Ridgeline's CUPTI (CUDA {}) needs a driver for "
                       "CUDA {} or later: install NVIDIA driver {} or newer.",
        cuda(driverCudaVersion), cuda(neededCudaVersion), cuda(neededCudaVersion), neededRelease);
}

std::string untracedSentence(const GpuProbe& probe)
{
    if (auto none = noGpuSentence(probe); !none.empty())
        return none;
    return driverTooOldSentence(probe.driverCudaVersion);
}

double nvlinkBytesPerS(int activeLinks, int ccMajor)
{
    if (activeLinks <= 0)
        return 0;
    // Per link and direction: NVLink 2 (Volta), 3 (Ampere) and 4 (Hopper) 25 GB/s, NVLink 5 (Blackwell) 50 GB/s.
    const double perLink = ccMajor >= 10 ? 50e9 : ccMajor >= 7 ? 25e9 : 20e9;
    return perLink * activeLinks;
}

double pcieBytesPerS(int generation, int width)
{
    // Usable bandwidth per lane and direction after line encoding (8b/10b, 128b/130b, FLIT).
    static constexpr std::array<double, 7> kPerLane { 0, 0.25e9, 0.5e9, 0.985e9, 1.969e9, 3.938e9, 7.563e9 };
    if (generation <= 0 || width <= 0 || generation >= static_cast<int>(kPerLane.size()))
        return 0;
    return kPerLane[static_cast<std::size_t>(generation)] * width;
}

} // namespace ridgeline::collectors
