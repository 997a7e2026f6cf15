// SPDX-License-Identifier: MIT
#include "nvmldetails.h"

#include <dlfcn.h>

namespace ridgeline::collectors::detail {

namespace {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr nvmlReturn_t kSuccess = 0;
constexpr int kClockSm = 1; // nvmlClockType_t
constexpr int kClockMem = 2;
constexpr unsigned kMaxLinks = 18; // NVML_NVLINK_MAX_LINKS

struct Nvml {
    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    nvmlReturn_t (*byUuid)(const char*, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*maxClock)(nvmlDevice_t, int, unsigned*) = nullptr;
    nvmlReturn_t (*linkState)(nvmlDevice_t, unsigned, int*) = nullptr;
    nvmlReturn_t (*linkVersion)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
    nvmlReturn_t (*pcieGen)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*pcieWidth)(nvmlDevice_t, unsigned*) = nullptr;
};

template <typename F> bool load(void* lib, const char* name, F& fn)
{
    fn = reinterpret_cast<F>(dlsym(lib, name));
    return fn != nullptr;
}

void describe(const Nvml& n, nvmlDevice_t dev, GpuInfo& gpu)
{
    unsigned value = 0;
    if (gpu.device.coreClockKhz == 0 && n.maxClock(dev, kClockSm, &value) == kSuccess)
        gpu.device.coreClockKhz = static_cast<std::int64_t>(value) * 1000;
    if (gpu.device.memoryClockKhz == 0 && n.maxClock(dev, kClockMem, &value) == kSuccess)
        gpu.device.memoryClockKhz = static_cast<std::int64_t>(value) * 1000;
    if (n.pcieGen != nullptr && n.pcieGen(dev, &value) == kSuccess)
        gpu.links.pcieGeneration = static_cast<int>(value);
    if (n.pcieWidth != nullptr && n.pcieWidth(dev, &value) == kSuccess)
        gpu.links.pcieWidth = static_cast<int>(value);
    if (n.linkState == nullptr)
        return;
    gpu.links.nvlinkActive = 0;
    for (unsigned link = 0; link < kMaxLinks; ++link) {
        int active = 0;
        if (n.linkState(dev, link, &active) != kSuccess)
            continue; // links this GPU does not have answer "not supported" or "invalid argument"
        if (active == 1) {
            ++gpu.links.nvlinkActive;
            if (gpu.links.nvlinkVersion == 0 && n.linkVersion != nullptr
                && n.linkVersion(dev, link, &value) == kSuccess)
                gpu.links.nvlinkVersion = static_cast<int>(value);
        }
    }
}

} // namespace

bool addNvmlDetails(GpuProbe& probe, const std::string& library)
{
    void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr)
        return false;
    Nvml n;
    const bool complete = load(lib, "nvmlInit_v2", n.init) && load(lib, "nvmlShutdown", n.shutdown)
        && load(lib, "nvmlDeviceGetHandleByUUID", n.byUuid) && load(lib, "nvmlDeviceGetMaxClockInfo", n.maxClock);
    (void)load(lib, "nvmlDeviceGetNvLinkState", n.linkState);
    (void)load(lib, "nvmlDeviceGetNvLinkVersion", n.linkVersion);
    (void)load(lib, "nvmlDeviceGetMaxPcieLinkGeneration", n.pcieGen);
    (void)load(lib, "nvmlDeviceGetMaxPcieLinkWidth", n.pcieWidth);
    if (!complete || n.init() != kSuccess) {
        dlclose(lib);
        return false;
    }
    for (auto& gpu : probe.gpus) {
        nvmlDevice_t dev = nullptr;
        if (!gpu.device.uuid.empty() && n.byUuid(gpu.device.uuid.c_str(), &dev) == kSuccess)
            describe(n, dev, gpu);
    }
    (void)n.shutdown();
    dlclose(lib);
    return true;
}

} // namespace ridgeline::collectors::detail
