// SPDX-License-Identifier: MIT
// `ridgeline devices`: the GPUs of this machine, asked of the driver (dlopen, no link to it).
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/launch/gpuprobe.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace ridgeline::cli {

namespace {

namespace col = ridgeline::collectors;

struct DevicesOptions {
    bool json = false;
};

std::string links(const col::GpuInfo& gpu)
{
    const auto& l = gpu.links;
    std::string nvlink = l.nvlinkActive < 0 ? "NVLink unknown (no NVML)"
        : l.nvlinkActive == 0               ? "no NVLink"
                              : fmt::format("NVLink {} links (~{:.0f} GB/s per direction)", l.nvlinkActive,
                                  gpu.device.nvlinkBandwidthBytesPerS / 1e9);
    std::string pcie = l.pcieGeneration == 0
        ? "PCIe unknown"
        : fmt::format("PCIe gen{} x{} (~{:.0f} GB/s per direction)", l.pcieGeneration, l.pcieWidth,
            gpu.device.pcieBandwidthBytesPerS / 1e9);
    return nvlink + "; " + pcie;
}

void writeTable(const col::GpuProbe& probe)
{
    std::cout << fmt::format("{} GPU{} (CUDA driver {}{})\n", probe.gpus.size(), probe.gpus.size() == 1 ? "" : "s",
        probe.driverVersion.empty() ? "?" : probe.driverVersion, probe.nvml ? ", NVML" : ", no NVML");
    for (const auto& gpu : probe.gpus) {
        const auto& d = gpu.device;
        std::cout << fmt::format("\nGPU {}: {}  ({})\n", d.ordinal, d.name, d.uuid);
        std::cout << fmt::format("  compute capability {}.{}, {} SMs, SM clock {:.0f} MHz\n", d.ccMajor, d.ccMinor,
            d.smCount, static_cast<double>(d.coreClockKhz) / 1e3);
        std::cout << fmt::format("  memory {:.1f} GiB, {}-bit bus, memory clock {:.0f} MHz, L2 {:.1f} MiB\n",
            static_cast<double>(d.memoryBytes) / (1024.0 * 1024 * 1024), d.memoryBusWidthBits,
            static_cast<double>(d.memoryClockKhz) / 1e3, static_cast<double>(d.l2CacheBytes) / (1024.0 * 1024));
        std::cout << "  links: " << links(gpu) << '\n';
        std::cout << "  PCI bus " << gpu.pciBusId << '\n';
    }
}

void writeJson(const col::GpuProbe& probe)
{
    using nlohmann::json;
    json gpus = json::array();
    for (const auto& gpu : probe.gpus) {
        const auto& d = gpu.device;
        gpus.push_back({ { "ordinal", d.ordinal }, { "name", d.name }, { "uuid", d.uuid },
            { "compute_capability", fmt::format("{}.{}", d.ccMajor, d.ccMinor) }, { "sm_count", d.smCount },
            { "sm_clock_khz", d.coreClockKhz }, { "memory_clock_khz", d.memoryClockKhz },
            { "memory_bytes", d.memoryBytes }, { "memory_bus_width_bits", d.memoryBusWidthBits },
            { "l2_cache_bytes", d.l2CacheBytes }, { "max_threads_per_sm", d.maxThreadsPerSm },
            { "shared_memory_per_sm_bytes", d.sharedMemoryPerSmBytes }, { "pci_bus_id", gpu.pciBusId },
            { "nvlink_active_links", gpu.links.nvlinkActive }, { "nvlink_version", gpu.links.nvlinkVersion },
            { "nvlink_bytes_per_s", d.nvlinkBandwidthBytesPerS }, { "pcie_generation", gpu.links.pcieGeneration },
            { "pcie_width", gpu.links.pcieWidth }, { "pcie_bytes_per_s", d.pcieBandwidthBytesPerS } });
    }
    const json doc = { { "driver_version", probe.driverVersion }, { "nvml", probe.nvml }, { "gpus", std::move(gpus) } };
    std::cout << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

int runDevices(const DevicesOptions& options)
{
    const auto probe = col::probeGpus();
    if (probe.state != col::GpuProbeState::Ok)
        return fail(ExitNoGpu, fmt::format("no GPU to list: {}", col::noGpuReason(probe)));
    if (const auto old = col::driverTooOldSentence(probe.driverCudaVersion); !old.empty())
        std::cerr << "ridgeline: warning: " << old << " Until then `ridgeline capture` records no GPU work.\n";
    if (options.json)
        writeJson(probe);
    else
        writeTable(probe);
    return finishOutput();
}

} // namespace

Runner addDevicesCommand(CLI::App& app)
{
    auto options = std::make_shared<DevicesOptions>();
    auto* cmd = app.add_subcommand("devices", "List this machine's NVIDIA GPUs (name, CC, SMs, clocks, memory, links)");
    cmd->add_flag("--json", options->json, "Print JSON instead of a table");
    cmd->footer("Asks the CUDA driver (libcuda.so.1) and, when present, NVML (libnvidia-ml.so.1). Without a\n"
                "driver or a GPU it says why and exits with 5.");
    return [options] { return runDevices(*options); };
}

} // namespace ridgeline::cli
