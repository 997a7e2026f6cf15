// SPDX-License-Identifier: MIT
#include "ceilingsmeasure.h"

#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/ceilings/measuredceilings.h"
#include "ridgeline/collectors/launch/captureenv.h"
#include "ridgeline/collectors/launch/gpuprobe.h"
#include "ridgeline/collectors/launch/subprocess.h"

#include <charconv>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>

namespace ridgeline::cli {

namespace {

namespace col = ridgeline::collectors;

std::string human(const core::Ceiling& c)
{
    const bool tera = c.value >= 1e12;
    return fmt::format("{:>9.4g} {}{}", c.value / (tera ? 1e12 : 1e9), tera ? "T" : "G", c.unit);
}

void writeTable(const col::MeasuredCeilings& m)
{
    std::cout << fmt::format("\nGPU {}: {}  ({})\n", m.ordinal, m.name, m.uuid);
    for (const auto& c : m.ceilings)
        std::cout << fmt::format("  {:<12} {}  {}\n", c.resource, human(c), c.note);
    std::cout << "  cached in " << col::ceilingCachePath(m.uuid) << '\n';
}

} // namespace

int runCeilingsMeasure(const std::string& device, const std::string& format)
{
    const auto probe = col::probeGpus();
    if (probe.state != col::GpuProbeState::Ok)
        return fail(ExitNoGpu, fmt::format("cannot measure ceilings: {}", col::noGpuReason(probe)));
    // The micro-benchmarks are built with the same CUDA 13 toolkit as CUPTI: an older driver cannot run them.
    if (const auto old = col::driverTooOldSentence(probe.driverCudaVersion); !old.empty())
        return fail(ExitNoGpu, "cannot measure ceilings: " + old);
    std::vector<int> ordinals;
    if (device.empty()) {
        for (const auto& gpu : probe.gpus)
            ordinals.push_back(gpu.device.ordinal);
    } else {
        int ordinal = -1;
        const auto parsed = std::from_chars(device.data(), device.data() + device.size(), ordinal);
        if (parsed.ec != std::errc() || parsed.ptr != device.data() + device.size() || ordinal < 0
            || ordinal >= static_cast<int>(probe.gpus.size()))
            return fail(ExitUsage,
                fmt::format("--device {}: with --measure, give a CUDA device number from 0 to {}", device,
                    probe.gpus.size() - 1));
        ordinals.push_back(ordinal);
    }
    auto bench = col::findCompanion(col::kMicrobenchName, "RIDGELINE_MICROBENCH");
    if (bench.hasError())
        return fail(
            ExitInternal, bench.error().message + " (it is built only where CMake finds the CUDA compiler, nvcc)");
    nlohmann::json all = nlohmann::json::array();
    for (int ordinal : ordinals) {
        std::cerr << fmt::format("ridgeline: measuring GPU {} (about a minute)...\n", ordinal);
        auto ran = col::runProgram({ bench.value(), "--device", std::to_string(ordinal) });
        if (ran.hasError())
            return fail(ExitInternal, ran.error().message);
        if (ran.value().exitCode != 0)
            return fail(ExitInternal,
                fmt::format("{} failed on GPU {} (exit status {})", bench.value(), ordinal, ran.value().exitCode));
        auto measured = col::parseMeasuredCeilings(ran.value().standardOutput);
        if (measured.hasError())
            return fail(ExitInternal, measured.error().message);
        if (auto stored = col::storeMeasuredCeilings(measured.value()); stored.hasError())
            std::cerr << "ridgeline: warning: " << stored.error().message << " (the result is not cached)\n";
        if (format == "json")
            all.push_back(nlohmann::json::parse(measured.value().json, nullptr, false));
        else
            writeTable(measured.value());
    }
    if (format == "json")
        std::cout << all.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return finishOutput();
}

} // namespace ridgeline::cli
