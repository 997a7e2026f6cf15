// SPDX-License-Identifier: MIT
// `ncu --csv --page details`: one row per (kernel launch, section, metric), pivoted here to
// one record per launch. Section metrics carry human labels ("Duration", "SM Frequency"); they
// are kept as "details:<Section>/<Label>" and, where the section file names the counter behind
// the label, stored under that counter too. Rows of `--metrics` (section "Command line
// profiler metrics") already carry counter names and are stored under them.
#include "ncucsvinternal.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <set>
#include <unordered_map>

namespace ridgeline::collectors::ncu {

namespace {

enum class Section { SpeedOfLight, LaunchStats, Occupancy, MemoryWorkload };

struct LabelMapping {
    Section section;
    std::string_view label;
    std::string_view metric;
};

// Labels and counters from Nsight Compute's section files (SpeedOfLight, LaunchStatistics,
// Occupancy, MemoryWorkloadAnalysis .section; copies in xingxerx/Qallow@e3efc6f sections/).
// "SM Frequency" is gpc__cycles_elapsed.avg.per_second there; the roofline sections read the
// SM clock as sm__cycles_elapsed.avg.per_second (same clock domain), the name the analysis uses.
// "Elapsed Cycles" is gpc__cycles_elapsed.max, not sm__cycles_elapsed.avg.
constexpr std::array kLabels {
    LabelMapping { Section::SpeedOfLight, "Duration", "gpu__time_duration.sum" },
    LabelMapping { Section::SpeedOfLight, "SM Frequency", "sm__cycles_elapsed.avg.per_second" },
    LabelMapping { Section::SpeedOfLight, "DRAM Frequency", "dram__cycles_elapsed.avg.per_second" },
    LabelMapping { Section::SpeedOfLight, "Elapsed Cycles", "gpc__cycles_elapsed.max" },
    LabelMapping { Section::SpeedOfLight, "SM Active Cycles", "sm__cycles_active.avg" },
    LabelMapping {
        Section::SpeedOfLight, "Compute (SM) Throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed" },
    LabelMapping { Section::SpeedOfLight, "Memory Throughput",
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed" },
    LabelMapping { Section::SpeedOfLight, "DRAM Throughput", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed" },
    LabelMapping {
        Section::SpeedOfLight, "L1/TEX Cache Throughput", "l1tex__throughput.avg.pct_of_peak_sustained_active" },
    LabelMapping { Section::SpeedOfLight, "L2 Cache Throughput", "lts__throughput.avg.pct_of_peak_sustained_elapsed" },
    LabelMapping { Section::SpeedOfLight, "Waves Per SM", "launch__waves_per_multiprocessor" },
    LabelMapping { Section::LaunchStats, "Waves Per SM", "launch__waves_per_multiprocessor" },
    LabelMapping { Section::LaunchStats, "Registers Per Thread", "launch__registers_per_thread" },
    LabelMapping { Section::LaunchStats, "Grid Size", "launch__grid_size" },
    LabelMapping { Section::LaunchStats, "Block Size", "launch__block_size" },
    LabelMapping { Section::LaunchStats, "Threads", "launch__thread_count" },
    LabelMapping { Section::LaunchStats, "# SMs", "launch__sm_count" },
    LabelMapping { Section::LaunchStats, "Static Shared Memory Per Block", "launch__shared_mem_per_block_static" },
    LabelMapping { Section::LaunchStats, "Dynamic Shared Memory Per Block", "launch__shared_mem_per_block_dynamic" },
    LabelMapping { Section::LaunchStats, "Driver Shared Memory Per Block", "launch__shared_mem_per_block_driver" },
    LabelMapping { Section::LaunchStats, "Shared Memory Configuration Size", "launch__shared_mem_config_size" },
    LabelMapping { Section::Occupancy, "Achieved Occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active" },
    LabelMapping { Section::Occupancy, "Theoretical Occupancy", "sm__maximum_warps_per_active_cycle_pct" },
    LabelMapping { Section::MemoryWorkload, "Memory Throughput", "dram__bytes.sum.per_second" },
};

std::optional<Section> sectionOf(std::string_view name)
{
    // Older ncu names the first section "GPU Speed Of Light", newer "... Throughput".
    if (name.substr(0, 18) == "GPU Speed Of Light")
        return Section::SpeedOfLight;
    if (name == "Launch Statistics")
        return Section::LaunchStats;
    if (name == "Occupancy")
        return Section::Occupancy;
    if (name == "Memory Workload Analysis")
        return Section::MemoryWorkload;
    return std::nullopt;
}

std::optional<std::string_view> counterFor(std::string_view section, std::string_view label)
{
    const auto known = sectionOf(section);
    if (!known)
        return std::nullopt;
    for (const auto& mapping : kLabels) {
        if (mapping.section == *known && mapping.label == label)
            return mapping.metric;
    }
    return std::nullopt;
}

// The rule result of a rule row (Rule Name set, metric columns empty), or nothing. The CSV names a
// rule by its identifier only; a speedup ("Estimated Speedup", ncu 2024 on) that is not a number
// of 0 to 100 % is left out (`badSpeedups` counts it).
struct DetailsRuleColumns {
    int name = -1, type = -1, description = -1, speedupType = -1, speedup = -1;
};

std::optional<core::NcuRule> detailsRule(
    const CsvRow& row, const DetailsRuleColumns& c, std::string_view section, std::int64_t& badSpeedups)
{
    const auto identifier = field(row, c.name);
    if (identifier.empty())
        return std::nullopt;
    core::NcuRule rule;
    rule.identifier = identifier;
    rule.name = identifier;
    rule.section = section;
    rule.type = field(row, c.type);
    rule.message = field(row, c.description);
    const auto speedup = parseNumber(field(row, c.speedup));
    if (speedup.status == NumberStatus::Ok && speedup.value >= 0 && speedup.value <= core::kNcuMaxSpeedupPct) {
        rule.speedupPct = speedup.value;
        std::string type(field(row, c.speedupType));
        std::transform(type.begin(), type.end(), type.begin(), [](unsigned char ch) { return std::tolower(ch); });
        if (type == core::kNcuSpeedupLocal || type == core::kNcuSpeedupGlobal)
            rule.speedupType = type;
    } else if (speedup.status != NumberStatus::Missing) {
        ++badSpeedups;
    }
    return rule;
}

// "dram__bytes.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": a counter name, not a label.
bool isCounterName(std::string_view name)
{
    return name.find("__") != std::string_view::npos && name.find(' ') == std::string_view::npos;
}

} // namespace

core::Result<ParsedProfile> readDetailsPage(const CsvFile& file)
{
    const ColumnIndex columns(file.header.fields);
    const int sectionColumn = columns[column::SectionName];
    const int nameColumn = columns[column::MetricName];
    const int unitColumn = columns[column::MetricUnit];
    const int valueColumn = columns[column::MetricValue];
    // Newer ncu leaves out the empty rule columns at the end of a metric row: a row needs the
    // columns up to "Metric Value" (and the identity columns), not every column of the header.
    std::size_t required = 0;
    for (std::size_t c = 0; c < file.header.fields.size(); ++c) {
        if (columns.isIdentity(c) || static_cast<int>(c) == sectionColumn || static_cast<int>(c) == nameColumn
            || static_cast<int>(c) == unitColumn || static_cast<int>(c) == valueColumn)
            required = c + 1;
    }

    const DetailsRuleColumns ruleColumns { columns[column::RuleName], columns[column::RuleType],
        columns[column::RuleDescription], columns[column::SpeedupType], columns[column::Speedup] };
    std::int64_t badSpeedups = 0;
    ParsedProfile profile;
    profile.hasLaunchDims = columns[column::GridSize] >= 0 && columns[column::BlockSize] >= 0;
    profile.page = "details";
    std::unordered_map<std::int64_t, std::size_t> kernelById;
    std::vector<std::map<std::string, Metric, std::less<>>> counters; // from labels, per kernel
    std::set<std::string> numericNames;
    std::vector<std::string> textNames;
    for (const auto& row : file.rows) {
        RIDGELINE_TRY(checkFieldCount(file, row, required, file.header.fields.size()));
        ImportedKernel identity;
        RIDGELINE_TRY(readIdentity(file, columns, row, identity));
        auto [it, added] = kernelById.try_emplace(identity.ncuId, profile.kernels.size());
        if (added) {
            profile.kernels.push_back(std::move(identity));
            counters.emplace_back();
        }
        auto& kernel = profile.kernels[it->second];

        const std::string name(field(row, nameColumn));
        const auto section = field(row, sectionColumn);
        if (name.empty()) { // a rule row (Rule Name, Rule Description): ncu's advice, not a measurement
            if (auto rule = detailsRule(row, ruleColumns, section, badSpeedups))
                kernel.rules.push_back(std::move(*rule));
            continue;
        }
        const bool counterName = isCounterName(name);
        const std::string key = counterName ? name : fmt::format("details:{}/{}", section, name);
        const auto parsed = parseNumber(field(row, valueColumn));
        if (parsed.status == NumberStatus::Missing)
            continue;
        if (parsed.status == NumberStatus::NotNumber) {
            if (!applyTextAttribute(kernel, name, field(row, valueColumn)))
                textNames.push_back(key);
            continue;
        }
        const auto unit = normaliseUnit(field(row, unitColumn));
        const Metric metric { parsed.value * unit.factor, unit.unit };
        numericNames.insert(key);
        profile.setMetric(kernel, key, metric);
        if (counterName)
            applyKnownMetric(kernel, name, metric);
        else if (auto counter = counterFor(section, name))
            counters[it->second][std::string(*counter)] = metric;
    }
    if (profile.kernels.empty())
        return badLine(file.path, file.header.line, "no kernels in this file (did ncu profile any?)");

    // A counter collected under its own name (--metrics) wins over the same counter read from a label.
    for (std::size_t k = 0; k < profile.kernels.size(); ++k) {
        auto& kernel = profile.kernels[k];
        for (auto& [name, metric] : counters[k]) {
            if (profile.metric(kernel, name))
                continue;
            applyKnownMetric(kernel, name, metric);
            profile.setMetric(kernel, name, metric);
        }
    }

    std::vector<std::string> skipped;
    std::set<std::string> seen;
    for (const auto& name : textNames) {
        if (!numericNames.contains(name) && seen.insert(name).second)
            skipped.push_back(name);
    }
    if (badSpeedups > 0)
        profile.warnings.push_back(fmt::format(
            "{} estimated speedups of {} are not numbers of 0 to 100 % and were left out", badSpeedups, file.path));
    profile.skippedColumns = static_cast<std::int64_t>(skipped.size());
    if (!skipped.empty())
        profile.warnings.push_back(skippedWarning(skipped, "metric"));
    return profile;
}

} // namespace ridgeline::collectors::ncu
