// SPDX-License-Identifier: MIT
// Identifying a GPU its file does not name, from the facts the file gives (gpuidentify.h).
#include "ridgeline/collectors/ceilings/gpuidentify.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <optional>

namespace ridgeline::collectors {

namespace {

constexpr double kClockTolerance = 0.02;
constexpr double kBandwidthTolerance = 0.05;
constexpr double kMemoryTolerance = 0.10;
constexpr std::size_t kNamesListed = 12;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

bool near(double value, double reference, double tolerance)
{
    return reference > 0 && std::abs(value - reference) <= tolerance * reference;
}

// The memory size an entry's name states, in GB ("NVIDIA A100 PCIe 80GB": 80; the last such word:
// "GH200 480GB (96GB HBM3)" is the GPU's 96 GB); none for most.
std::optional<double> statedMemoryGb(const GpuSpec& spec)
{
    const std::string name = normalizedGpuName(spec.name);
    std::optional<double> stated;
    std::size_t start = 0;
    while (start < name.size()) {
        auto end = name.find(' ', start);
        if (end == std::string::npos)
            end = name.size();
        const std::string_view word(name.data() + start, end - start);
        if (word.size() > 2 && word.ends_with("gb") && std::all_of(word.begin(), word.end() - 2, [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            stated = std::stod(std::string(word.substr(0, word.size() - 2)));
        start = end + 1;
    }
    return stated;
}

double dramPeak(const GpuSpec& spec)
{
    const auto it = spec.peaks.find(core::Resource::DRAM);
    return it == spec.peaks.end() ? 0.0 : it->second;
}

// One fact beyond CC and SM count: its words, and whether an entry fits it.
struct Narrowing {
    std::string words;
    std::function<bool(const GpuSpec&)> fits;
};

std::vector<Narrowing> narrowingsOf(const GpuFacts& f)
{
    std::vector<Narrowing> out;
    if (f.clockKhz > 0) {
        const double hz = static_cast<double>(f.clockKhz) * 1e3;
        out.push_back({ fmt::format("a {:.0f} MHz boost clock", hz / 1e6),
            [hz](const GpuSpec& s) { return s.boostClockHz <= 0 || near(hz, s.boostClockHz, kClockTolerance); } });
    }
    if (f.memoryClockKhz > 0 && f.memoryBusWidthBits > 0) {
        const double bytesPerS
            = 2.0 * static_cast<double>(f.memoryClockKhz) * 1e3 * static_cast<double>(f.memoryBusWidthBits) / 8.0;
        out.push_back({ fmt::format("DRAM {:.0f} GB/s (2 x memory clock {:.0f} MHz x {}-bit bus)", bytesPerS / 1e9,
                            static_cast<double>(f.memoryClockKhz) / 1e3, f.memoryBusWidthBits),
            [bytesPerS](const GpuSpec& s) { return near(bytesPerS, dramPeak(s), kBandwidthTolerance); } });
    }
    if (f.memoryBytes > 0) {
        const double bytes = static_cast<double>(f.memoryBytes);
        out.push_back({ fmt::format("{:.1f} GiB of memory", bytes / kGiB), [bytes](const GpuSpec& s) {
                           const auto gb = statedMemoryGb(s);
                           return !gb || near(bytes, *gb * kGiB, kMemoryTolerance);
                       } });
    }
    return out;
}

bool sameCeilings(const GpuSpec& a, const GpuSpec& b)
{
    if (a.boostClockHz != b.boostClockHz || a.peaks.size() != b.peaks.size())
        return false;
    return std::equal(a.peaks.begin(), a.peaks.end(), b.peaks.begin(),
        [](const auto& x, const auto& y) { return x.first == y.first && x.second == y.second; });
}

std::string namesOf(const std::vector<const GpuSpec*>& specs)
{
    std::string out;
    for (std::size_t i = 0; i < specs.size() && i < kNamesListed; ++i)
        out += fmt::format("{}{}", i == 0 ? "" : ", ", specs[i]->name);
    if (specs.size() > kNamesListed)
        out += fmt::format(" and {} more", specs.size() - kNamesListed);
    return out;
}

std::string joined(const std::vector<std::string>& parts)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

} // namespace

GpuIdentification identifyUnnamedGpu(const GpuFacts& facts)
{
    GpuIdentification out;
    if (facts.ccMajor <= 0 && facts.smCount <= 0)
        return out;
    std::vector<std::string> used;
    if (facts.ccMajor > 0)
        used.push_back(fmt::format("CC {}.{}", facts.ccMajor, facts.ccMinor));
    if (facts.smCount > 0)
        used.push_back(fmt::format("{} SMs", facts.smCount));
    std::string base = used.size() == 2 ? fmt::format("{} with {}", used[0], used[1]) : used[0];
    for (const auto& spec : gpuCatalogue()) {
        if ((facts.ccMajor <= 0 || (spec.ccMajor == facts.ccMajor && spec.ccMinor == facts.ccMinor))
            && (facts.smCount <= 0 || spec.smCount == facts.smCount))
            out.candidates.push_back(&spec);
    }
    std::vector<std::string> unused;
    std::vector<std::string> extra;
    for (const auto& narrowing : narrowingsOf(facts)) {
        if (out.candidates.empty())
            break;
        std::vector<const GpuSpec*> kept;
        std::copy_if(out.candidates.begin(), out.candidates.end(), std::back_inserter(kept),
            [&](const GpuSpec* s) { return narrowing.fits(*s); });
        if (kept.empty()) {
            unused.push_back(narrowing.words);
        } else {
            out.candidates = std::move(kept);
            extra.push_back(narrowing.words);
        }
    }
    std::vector<std::string> all = { base };
    all.insert(all.end(), extra.begin(), extra.end());
    out.facts = joined(all);
    out.unused = joined(unused);
    const std::string unusedNote
        = unused.empty() ? std::string() : fmt::format(" ({} fits no catalogue entry, so it was not used)", out.unused);

    const auto& c = out.candidates;
    // Compute capability or SM count alone picks nothing: the catalogue does not hold every GPU.
    const bool enough = facts.ccMajor > 0 && facts.smCount > 0;
    if (!enough && !c.empty()) {
        out.note = fmt::format("no GPU name in the file; {} fits {} ({}){}, and without the {} the file does not "
                               "say which: name it with --gpu, e.g. --gpu \"{}\"",
            out.facts, c.size() == 1 ? std::string("1 catalogue entry") : fmt::format("{} catalogue entries", c.size()),
            namesOf(c), unusedNote, facts.smCount > 0 ? "compute capability" : "SM count", c.front()->name);
    } else if (c.empty()) {
        out.note = fmt::format("no GPU name in the file; no catalogue entry has {}", out.facts);
    } else if (c.size() == 1) {
        out.spec = c.front();
        const std::string with = extra.empty() ? (used.size() == 2 ? "both" : "it") : "all of them";
        out.note = fmt::format("no GPU name in the file; {} matched \"{}\", the only catalogue entry with {}{}",
            out.facts, out.spec->name, with, unusedNote);
    } else if (std::all_of(c.begin(), c.end(), [&](const GpuSpec* s) { return sameCeilings(*s, *c.front()); })) {
        out.spec = c.front();
        out.sameCeilings = true;
        out.note = fmt::format("no GPU name in the file; {} fit {} catalogue entries with the same datasheet ceilings "
                               "({}): those ceilings are used, but the file does not say which of them it is{} (name "
                               "it with --gpu)",
            out.facts, c.size(), namesOf(c), unusedNote);
    } else {
        out.note = fmt::format("no GPU name in the file; {} fit {} catalogue entries whose ceilings differ ({}){}: "
                               "name it with --gpu, e.g. --gpu \"{}\"",
            out.facts, c.size(), namesOf(c), unusedNote, c.front()->name);
    }
    return out;
}

} // namespace ridgeline::collectors
