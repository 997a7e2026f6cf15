// SPDX-License-Identifier: MIT
// Lookup of the datasheet catalogue (entries in gpucataloguedata.cpp) and its ceilings.
#include "ridgeline/collectors/ceilings/gpucatalogue.h"

#include "gpucataloguedata.h"
#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <utility>

namespace ridgeline::collectors {

namespace {

bool isVendorWord(std::string_view word)
{
    return word == "nvidia" || word == "tesla" || word == "geforce";
}

bool nameFits(const GpuSpec& spec, const std::string& normalized)
{
    if (normalized.empty())
        return false;
    if (normalizedGpuName(spec.name) == normalized)
        return true;
    return std::find(spec.matches.begin(), spec.matches.end(), normalized) != spec.matches.end();
}

} // namespace

const std::vector<GpuSpec>& gpuCatalogue()
{
    static const std::vector<GpuSpec> catalogue = detail::makeGpuCatalogue();
    return catalogue;
}

std::string normalizedGpuName(std::string_view deviceName)
{
    std::vector<std::string> words;
    std::string word;
    for (const char c : deviceName) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte)) {
            word += static_cast<char>(std::tolower(byte));
        } else if (!word.empty()) {
            words.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty())
        words.push_back(std::move(word));

    std::string normalized;
    for (const auto& w : words) {
        if (isVendorWord(w))
            continue;
        if (!normalized.empty())
            normalized += ' ';
        normalized += w;
    }
    return normalized;
}

std::vector<const GpuSpec*> matchingGpus(std::string_view deviceName, int ccMajor, int ccMinor, int smCount)
{
    const std::string normalized = normalizedGpuName(deviceName);
    std::vector<const GpuSpec*> found;
    for (const auto& spec : gpuCatalogue()) {
        if (!nameFits(spec, normalized))
            continue;
        if (ccMajor != 0 && (spec.ccMajor != ccMajor || spec.ccMinor != ccMinor))
            continue;
        if (smCount != 0 && spec.smCount != smCount)
            continue;
        found.push_back(&spec);
    }
    return found;
}

const GpuSpec* findGpu(std::string_view deviceName, int ccMajor, int ccMinor, int smCount)
{
    const auto found = matchingGpus(deviceName, ccMajor, ccMinor, smCount);
    return found.size() == 1 ? found.front() : nullptr;
}

const char* ceilingUnit(std::string_view resource)
{
    using namespace core::resource;
    if (resource == INT8Tensor)
        return "op/s";
    const auto isOneOf = [resource](const auto& names) {
        return std::any_of(names.begin(), names.end(), [resource](const char* name) { return resource == name; });
    };
    return isOneOf(Memory) || isOneOf(Links) ? "B/s" : "FLOP/s";
}

std::vector<core::Ceiling> datasheetCeilings(const GpuSpec& spec, std::int64_t deviceId)
{
    using namespace core::resource;
    std::vector<core::Ceiling> ceilings;
    const auto add = [&](const char* resource) {
        const auto known = core::resourceFromString(resource);
        const auto it = known ? spec.peaks.find(*known) : spec.peaks.end();
        if (it == spec.peaks.end())
            return;
        ceilings.push_back(core::Ceiling {
            deviceId, resource, it->second, ceilingUnit(resource), core::CeilingSource::Datasheet, spec.source });
    };
    for (const char* resource : Compute)
        add(resource);
    for (const char* resource : Memory)
        add(resource);
    for (const char* resource : Links)
        add(resource);
    return ceilings;
}

namespace {

std::vector<std::string> wordsOf(std::string_view text)
{
    std::vector<std::string> out;
    std::string word;
    for (const char c : normalizedGpuName(text) + ' ') {
        if (c != ' ') {
            word += c;
        } else if (!word.empty()) {
            out.push_back(std::move(word));
            word.clear();
        }
    }
    return out;
}

bool contains(const std::vector<std::string>& words, std::string_view word)
{
    return std::find(words.begin(), words.end(), word) != words.end();
}

// The word that names the model: the first with a digit ("a100", "4090", "l40s"); empty for a name
// without one ("titan rtx"), which then matches only exactly.
std::string modelWord(const std::vector<std::string>& words)
{
    for (const auto& word : words) {
        if (std::any_of(word.begin(), word.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return word;
    }
    return {};
}

// Words that make another product of the same model word: a name and a spelling must agree on each
// ("RTX 4060 Laptop GPU" is not an "RTX 4060", "H100 NVL" not an "H100", "H800 PCIe" not the H800
// SXM5, a MIG slice not its GPU).
constexpr std::array kVariantWords { "ti", "super", "laptop", "mobile", "max", "q", "nvl", "pcie", "d", "mig", "hbm3e",
    "ada", "pro", "blackwell", "server" };

// How well a name (its words) fits one spelling of an entry loosely: 0 when it does not (another
// model word, or a variant word on one side only), else 1 + the spelling's other words the name has.
int looseScore(const std::vector<std::string>& nameWords, const std::string& spelling)
{
    const auto spellingWords = wordsOf(spelling);
    const std::string model = modelWord(spellingWords);
    if (model.empty() || model != modelWord(nameWords))
        return 0;
    for (const char* variant : kVariantWords) {
        if (contains(nameWords, variant) != contains(spellingWords, variant))
            return 0;
    }
    return static_cast<int>(std::count_if(
        spellingWords.begin(), spellingWords.end(), [&](const std::string& w) { return contains(nameWords, w); }));
}

bool fitsDevice(const GpuSpec& spec, int ccMajor, int ccMinor, int smCount)
{
    return (ccMajor == 0 || (spec.ccMajor == ccMajor && spec.ccMinor == ccMinor))
        && (smCount == 0 || spec.smCount == smCount);
}

// The entries a name fits loosely, best first (catalogue order among equals).
std::vector<const GpuSpec*> looseMatches(std::string_view deviceName, int ccMajor, int ccMinor, int smCount)
{
    const auto nameWords = wordsOf(deviceName);
    std::vector<std::pair<int, const GpuSpec*>> scored;
    for (const auto& spec : gpuCatalogue()) {
        if (!fitsDevice(spec, ccMajor, ccMinor, smCount))
            continue;
        int best = 0;
        for (const auto& spelling : spec.matches)
            best = std::max(best, looseScore(nameWords, spelling));
        if (best > 0)
            scored.emplace_back(best, &spec);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<const GpuSpec*> found;
    for (const auto& [score, spec] : scored) {
        if (score == scored.front().first)
            found.push_back(spec);
    }
    return found;
}

GpuResolution byName(std::string_view deviceName, int ccMajor, int ccMinor, int smCount)
{
    const auto found = looseMatches(deviceName, ccMajor, ccMinor, smCount);
    if (found.empty())
        return {};
    const GpuSpec* spec = found.front();
    std::string note = fmt::format(
        "\"{}\" treated as {}: CC {}.{}, {} SMs", deviceName, spec->name, spec->ccMajor, spec->ccMinor, spec->smCount);
    if (found.size() > 1)
        note += fmt::format(" (the first of {} catalogue entries it fits)", found.size());
    return { spec, std::move(note) };
}

GpuResolution byComputeCapabilityAndSms(int ccMajor, int ccMinor, int smCount)
{
    const auto found = gpusWithComputeCapability(ccMajor, ccMinor, smCount);
    if (found.size() != 1)
        return {};
    return { found.front(),
        fmt::format("no GPU name in the file; CC {}.{} with {} SMs matched \"{}\", the only catalogue entry with both",
            ccMajor, ccMinor, smCount, found.front()->name) };
}

} // namespace

std::vector<const GpuSpec*> gpusWithComputeCapability(int ccMajor, int ccMinor, int smCount)
{
    std::vector<const GpuSpec*> found;
    if (ccMajor <= 0 || smCount <= 0)
        return found;
    for (const auto& spec : gpuCatalogue()) {
        if (fitsDevice(spec, ccMajor, ccMinor, smCount))
            found.push_back(&spec);
    }
    return found;
}

GpuResolution resolveGpu(std::string_view deviceName, int ccMajor, int ccMinor, int smCount)
{
    if (const auto* exact = findGpu(deviceName, ccMajor, ccMinor, smCount))
        return { exact, {} };
    if (normalizedGpuName(deviceName).empty())
        return byComputeCapabilityAndSms(ccMajor, ccMinor, smCount);
    return byName(deviceName, ccMajor, ccMinor, smCount);
}

} // namespace ridgeline::collectors
