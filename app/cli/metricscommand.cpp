// SPDX-License-Identifier: MIT
// `ridgeline metrics`: what a capture will collect on a chip, what each counter feeds, and what
// it costs in replay passes, without a GPU. The pass counts come from CUPTI's host API through
// the companion program ridgeline-cupti-host (collectors/cupti/cuptihost.cpp).
#include "commands.h"
#include "exitcodes.h"
#include "ridgeline/collectors/launch/captureenv.h"
#include "ridgeline/collectors/launch/cuptilocate.h"
#include "ridgeline/collectors/launch/gpuprobe.h"
#include "ridgeline/collectors/launch/subprocess.h"
#include "ridgeline/collectors/metrics/metricroles.h"
#include "ridgeline/collectors/metrics/metricsets.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace ridgeline::cli {

namespace {

namespace col = ridgeline::collectors;
using json = nlohmann::json;

struct MetricsOptions {
    std::string chip;
    std::string set = "roofline";
    std::string format = "text";
};

struct Group {
    bool system = false; // NVLink, PCIe, C2C, mcc counters: their own config image
    std::vector<std::string> metrics;
    std::optional<std::size_t> passes;
};

// The CUPTI host program, or why there is none (passes are then unknown).
struct Host {
    std::string program;
    std::string missing;
};

Host findHost()
{
    auto program = col::findCompanion(col::kCuptiHostName, "RIDGELINE_CUPTI_HOST");
    if (program.hasError())
        return { {}, program.error().message + " (it is built only where CMake finds CUPTI)" };
    auto cupti = col::locateCupti();
    if (cupti.hasError())
        return { {}, cupti.error().message };
    if (!cupti.value().onLoaderPath) {
        const char* current = std::getenv("LD_LIBRARY_PATH");
        setenv("LD_LIBRARY_PATH", col::cuptiLibraryPath(cupti.value(), current != nullptr ? current : "").c_str(), 1);
    }
    return { program.value(), {} };
}

std::string chipList()
{
    std::string out;
    for (const auto& chip : col::chipNames())
        out += (out.empty() ? "" : ", ") + chip;
    return out;
}

// The chip of local GPU 0, asked of CUPTI (cuptiDeviceGetChipName needs the GPU).
core::Result<std::string> localChip(const Host& host)
{
    const auto probe = col::probeGpus();
    if (probe.state != col::GpuProbeState::Ok)
        return core::makeError(core::ErrorCode::NotFound,
            fmt::format(
                "no local GPU to describe: {}; name a chip with --chip ({})", col::noGpuReason(probe), chipList()));
    if (const auto old = col::driverTooOldSentence(probe.driverCudaVersion); !old.empty())
        return core::makeError(core::ErrorCode::NotFound, old);
    if (host.program.empty())
        return core::makeError(core::ErrorCode::Internal, "cannot ask CUPTI for the GPU's chip: " + host.missing);
    auto ran = col::runProgram({ host.program, "chip", "0" });
    if (ran.hasError() || ran.value().exitCode != 0)
        return core::makeError(core::ErrorCode::Internal, "CUPTI could not name the chip of GPU 0");
    auto name = ran.value().standardOutput;
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r'))
        name.pop_back();
    return name;
}

std::vector<std::string> splitList(const std::string& list)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto end = std::min(list.find(',', start), list.size());
        out.push_back(list.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

void writeText(const col::MetricSet& set, const std::vector<Group>& groups, const std::string& setName)
{
    std::size_t count = 0;
    for (const auto& g : groups)
        count += g.metrics.size();
    std::cout << fmt::format("Chip {}{}, metric set {}: {} metric{}\n", set.chip,
        set.family.empty() ? "" : " (" + set.family + ")", setName, count, count == 1 ? "" : "s");
    if (groups.empty())
        std::cout << "No hardware counters: kernels are not replayed (0 passes).\n";
    for (const auto& g : groups) {
        const std::string passes = g.passes ? fmt::format("{} replay pass{}", *g.passes, *g.passes == 1 ? "" : "es")
                                            : std::string("replay passes unknown");
        std::cout << '\n'
                  << (g.system ? fmt::format("System-unit counters (NVLink, PCIe, C2C): {}, for profiled NCCL kernels "
                                             "instead of the GPU counters\n",
                          passes)
                               : fmt::format("GPU counters: {} per profiled kernel\n", passes));
        for (const auto& m : g.metrics)
            std::cout << fmt::format("  {:<66} {}\n", m, col::metricFeeds(m));
    }
    if (!set.unavailable.empty()) {
        std::cout << "\nNot on this chip:\n";
        for (const auto& m : set.unavailable)
            std::cout << fmt::format("  {:<66} {}\n", m.metric, m.reason);
    }
}

void writeJson(const col::MetricSet& set, const std::vector<Group>& groups, const std::string& setName)
{
    json jgroups = json::array();
    for (const auto& g : groups) {
        json metrics = json::array();
        for (const auto& m : g.metrics)
            metrics.push_back({ { "name", m }, { "feeds", col::metricFeeds(m) }, { "peak", col::isPeakFigure(m) } });
        jgroups.push_back({ { "counters", g.system ? "system" : "gpu" },
            { "passes", g.passes ? json(*g.passes) : json(nullptr) }, { "metrics", std::move(metrics) } });
    }
    json unavailable = json::array();
    for (const auto& m : set.unavailable)
        unavailable.push_back({ { "metric", m.metric }, { "reason", m.reason } });
    const json doc = { { "chip", set.chip }, { "family", set.family }, { "set", setName },
        { "config_images", std::move(jgroups) }, { "unavailable", std::move(unavailable) } };
    std::cout << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

int runMetrics(const MetricsOptions& options)
{
    if (auto valid = col::validateMetrics(options.set); valid.hasError()) {
        auto message = valid.error().message;
        if (message.starts_with("--metrics"))
            message.replace(0, 9, "--set");
        return fail(ExitUsage, message);
    }
    const Host host = findHost();
    std::string chip = options.chip;
    if (chip.empty()) {
        auto local = localChip(host);
        if (local.hasError())
            return fail(
                local.error().code == core::ErrorCode::NotFound ? ExitNoGpu : ExitInternal, local.error().message);
        chip = local.value();
    }
    for (const auto& unsupported : col::unsupportedChips()) {
        if (unsupported.chip == chip)
            return fail(ExitUsage, fmt::format("--chip {}: no metric set: {}", chip, unsupported.reason));
    }
    col::MetricSet set;
    const bool builtIn = options.set == col::RooflineSet || options.set == col::FullSet;
    if (builtIn) {
        auto found = col::metricSet(chip, options.set);
        if (!found)
            return fail(
                ExitUsage, fmt::format("--chip {}: not a chip Ridgeline has metric sets for ({})", chip, chipList()));
        set = std::move(*found);
    } else {
        set.chip = chip;
        if (auto known = col::metricSet(chip, col::RooflineSet))
            set.family = known->family;
        if (options.set != "none")
            set.metrics = splitList(options.set);
    }
    std::vector<Group> groups;
    for (auto& metrics : col::configGroups(set)) {
        Group g;
        g.system = col::isSystemUnitMetric(metrics.front());
        g.metrics = std::move(metrics);
        groups.push_back(std::move(g));
    }
    if (!groups.empty() && !host.program.empty()) {
        for (auto& g : groups) {
            std::vector<std::string> argv { host.program, "passes", chip };
            argv.insert(argv.end(), g.metrics.begin(), g.metrics.end());
            auto ran = col::runProgram(argv);
            if (ran.hasError())
                return fail(ExitInternal, ran.error().message);
            if (ran.value().exitCode == 2) // the program has said which name CUPTI rejects
                return builtIn ? ExitInternal : ExitUsage;
            if (ran.value().exitCode != 0)
                return fail(
                    ExitInternal, fmt::format("{} failed (exit status {})", host.program, ran.value().exitCode));
            g.passes = std::strtoul(ran.value().standardOutput.c_str(), nullptr, 10);
        }
    } else if (!groups.empty()) {
        std::cerr << "ridgeline: warning: replay passes unknown: " << host.missing << '\n';
    }
    if (options.format == "json")
        writeJson(set, groups, options.set);
    else
        writeText(set, groups, options.set);
    return finishOutput();
}

} // namespace

Runner addMetricsCommand(CLI::App& app)
{
    auto options = std::make_shared<MetricsOptions>();
    auto* cmd = app.add_subcommand("metrics", "What a capture collects on a GPU chip, and its cost in replay passes");
    cmd->add_option("--chip", options->chip, "CUPTI chip name (GA100, GH100, AD102, GB100, ...); default: GPU 0");
    cmd->add_option("--set", options->set, "roofline (default), full, none, or a comma-separated list of metrics");
    cmd->add_option("--format", options->format, "text (default) or json")->check(CLI::IsMember({ "text", "json" }));
    cmd->footer("Needs no GPU with --chip: the pass counts come from CUPTI's host API (the CUDA Toolkit).\n"
                "Without --chip and without a GPU it says so and exits with 5.");
    return [options] { return runMetrics(*options); };
}

} // namespace ridgeline::cli
