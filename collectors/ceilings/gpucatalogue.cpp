// SPDX-License-Identifier: MIT
// Lookup of the datasheet catalogue (entries in gpucataloguedata.cpp) and its ceilings.
#include "ridgeline/collectors/ceilings/gpucatalogue.h"

#include "gpucataloguedata.h"
#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

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

GpuResolution resolveGpu(std::string_view deviceName, int ccMajor, int ccMinor, int smCount)
{
    if (const auto* exact = findGpu(deviceName, ccMajor, ccMinor, smCount))
        return { exact, {} };
    const auto words = [](std::string_view text) {
        std::vector<std::string> out;
        std::string word;
        for (char c : normalizedGpuName(text) + ' ') {
            if (c == ' ') {
                if (!word.empty())
                    out.push_back(std::move(word));
                word.clear();
            } else {
                word += c;
            }
        }
        return out;
    };
    const auto nameWords = words(deviceName);
    const auto has
        = [&](const std::string& w) { return std::find(nameWords.begin(), nameWords.end(), w) != nameWords.end(); };
    const auto fits = [&](const GpuSpec& spec) {
        return (ccMajor == 0 || (spec.ccMajor == ccMajor && spec.ccMinor == ccMinor))
            && (smCount == 0 || spec.smCount == smCount);
    };
    // The model word, then as many of the name's other words as an entry's spellings share.
    const GpuSpec* best = nullptr;
    int bestScore = 0;
    for (const auto& spec : gpuCatalogue()) {
        if (!fits(spec))
            continue;
        for (const auto& spelling : spec.matches) {
            const auto specWords = words(spelling);
            if (specWords.empty() || !has(specWords.front()))
                continue;
            int score = 1;
            for (std::size_t i = 1; i < specWords.size(); ++i)
                score += has(specWords[i]) ? 1 : 0;
            if (score > bestScore) {
                best = &spec;
                bestScore = score;
            }
        }
    }
    if (!best && ccMajor > 0 && smCount > 0) {
        for (const auto& spec : gpuCatalogue()) {
            if (fits(spec)) {
                best = &spec;
                break;
            }
        }
    }
    if (!best)
        return {};
    return { best,
        fmt::format("\"{}\" treated as {}: CC {}.{}, {} SMs", deviceName, best->name, best->ccMajor, best->ccMinor,
            best->smCount) };
}

} // namespace ridgeline::collectors
