// SPDX-License-Identifier: MIT
// `ridgeline ceilings`: the datasheet catalogue's peaks, for one GPU or all of them.
#include "ceilingsmeasure.h"
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/core/model/metricnames.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace ridgeline::cli {

namespace {

struct CeilingsOptions {
    std::string device;
    std::string format = "table";
    bool measure = false;
};

constexpr const char* kConventions = "Datasheet peaks: dense tensor figures (2:4 sparsity not counted), link "
                                     "bandwidth per direction.";

bool isLink(std::string_view resource)
{
    for (const char* link : core::resource::Links) {
        if (resource == link)
            return true;
    }
    return false;
}

// 3.35e12 B/s -> "3.35 TB/s", 3e11 -> "300 GB/s"; compute in TFLOP/s (TOP/s for INT8), below one
// tera in GFLOP/s; links always in GB/s.
std::string humanValue(const core::Ceiling& ceiling)
{
    const bool bytes = ceiling.unit == "B/s";
    const bool tera = ceiling.value >= 1e12 && !(bytes && isLink(ceiling.resource));
    const char* prefix = tera ? "T" : "G";
    const char* unit = bytes ? "B/s" : ceiling.unit == "op/s" ? "OP/s" : "FLOP/s";
    return fmt::format("{:>9.5g} {}{}", ceiling.value / (tera ? 1e12 : 1e9), prefix, unit);
}

void writeTable(const std::vector<const collectors::GpuSpec*>& gpus)
{
    std::cout << kConventions << '\n';
    for (const auto* gpu : gpus) {
        const std::string boost = gpu->boostClockHz > 0 ? fmt::format("boost {:.0f} MHz", gpu->boostClockHz / 1e6)
                                                        : std::string("boost clock not published");
        std::cout << fmt::format(
            "\n{}  (CC {}.{}, {} SMs, {})\n", gpu->name, gpu->ccMajor, gpu->ccMinor, gpu->smCount, boost);
        for (const auto& ceiling : collectors::datasheetCeilings(*gpu, 0))
            std::cout << fmt::format("  {:<12} {}\n", ceiling.resource, humanValue(ceiling));
        // Cache bandwidths only where a vendor or a published measurement gives them.
        for (const auto level : { core::Resource::L2, core::Resource::L1 }) {
            if (!gpu->peaks.contains(level))
                std::cout << fmt::format("  {:<12} not published\n", core::toString(level));
        }
        std::cout << "  source: " << gpu->source << '\n';
    }
}

void writeJson(const std::vector<const collectors::GpuSpec*>& gpus)
{
    using nlohmann::json;
    json list = json::array();
    for (const auto* gpu : gpus) {
        json ceilings = json::array();
        for (const auto& ceiling : collectors::datasheetCeilings(*gpu, 0))
            ceilings.push_back(
                { { "resource", ceiling.resource }, { "value", ceiling.value }, { "unit", ceiling.unit } });
        list.push_back({ { "name", gpu->name },
            { "compute_capability", fmt::format("{}.{}", gpu->ccMajor, gpu->ccMinor) }, { "sm_count", gpu->smCount },
            { "boost_clock_hz", gpu->boostClockHz > 0 ? json(gpu->boostClockHz) : json(nullptr) },
            { "source", gpu->source }, { "ceilings", std::move(ceilings) } });
    }
    const json document = {
        { "conventions", { { "tensor", "dense" }, { "links", "per direction" } } },
        { "gpus", std::move(list) },
    };
    std::cout << document.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

int runCeilings(const CeilingsOptions& options)
{
    if (options.measure)
        return runCeilingsMeasure(options.device, options.format);
    std::vector<const collectors::GpuSpec*> gpus;
    if (options.device.empty()) {
        for (const auto& gpu : collectors::gpuCatalogue())
            gpus.push_back(&gpu);
    } else {
        gpus = collectors::matchingGpus(options.device);
        if (gpus.empty()) {
            std::string known;
            for (const auto& gpu : collectors::gpuCatalogue())
                known += (known.empty() ? "" : ", ") + gpu.name;
            return fail(ExitBadInput,
                fmt::format(
                    "unknown GPU '{}': not in the datasheet catalogue; known GPUs are {}", options.device, known));
        }
    }
    if (options.format == "json")
        writeJson(gpus);
    else
        writeTable(gpus);
    return finishOutput();
}

} // namespace

Runner addCeilingsCommand(CLI::App& app)
{
    auto options = std::make_shared<CeilingsOptions>();
    auto* cmd = app.add_subcommand("ceilings", "Print the datasheet peak ceilings (FLOP/s, bandwidth) of known GPUs");
    cmd->add_option("-d,--device", options->device,
        "Only this GPU: a CUDA device name (\"NVIDIA A100-SXM4-80GB\") or a catalogue name; with --measure, a "
        "CUDA device number");
    cmd->add_option("-f,--format", options->format, "Output format")
        ->check(CLI::IsMember({ "table", "json" }))
        ->capture_default_str();
    cmd->add_flag("--measure", options->measure,
        "Measure this machine's GPUs with Ridgeline's CUDA microbenchmarks (--device N: only GPU N) and cache "
        "the result; later captures store these measured ceilings");
    cmd->footer("Tensor-core peaks are dense (2:4 sparsity not counted); NVLink and PCIe are per direction.\n"
                "An unknown --device exits with 2. A name that fits several GPUs (\"H100\") prints them all.\n"
                "--measure needs a GPU (exit 5 without one); results are cached in $XDG_CACHE_HOME/ridgeline.");
    return [options] { return runCeilings(*options); };
}

} // namespace ridgeline::cli
