// SPDX-License-Identifier: MIT
#include "ridgeline/core/model/model.h"

#include "base/enumnames.h"

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace ridgeline::core {

using detail::nameOf;
using detail::valueOf;

namespace {

constexpr std::array<std::pair<CeilingSource, const char*>, 3> kCeilingSources { {
    { CeilingSource::Measured, "measured" },
    { CeilingSource::Counters, "counters" },
    { CeilingSource::Datasheet, "datasheet" },
} };

constexpr std::array<std::pair<MemOpKind, const char*>, 7> kMemOpKinds { {
    { MemOpKind::MemcpyHtoD, "memcpy_htod" },
    { MemOpKind::MemcpyDtoH, "memcpy_dtoh" },
    { MemOpKind::MemcpyDtoD, "memcpy_dtod" },
    { MemOpKind::MemcpyHtoH, "memcpy_htoh" },
    { MemOpKind::MemcpyPtoP, "memcpy_ptop" },
    { MemOpKind::Memset, "memset" },
    { MemOpKind::Other, "other" },
} };

} // namespace

const char* toString(VerdictClass verdict)
{
    return nameOf(kVerdictClassNames, verdict);
}

std::string verdictText(VerdictClass verdict, std::string_view boundBy)
{
    std::string text = toString(verdict);
    if (!boundBy.empty())
        text.append(" (").append(boundBy).append(")");
    return text;
}

VerdictClass verdictClassFromString(std::string_view text)
{
    return valueOf(kVerdictClassNames, text).value_or(VerdictClass::Unknown);
}

VerdictClass memOpVerdict(MemOpKind kind)
{
    switch (kind) {
    case MemOpKind::MemcpyHtoD:
    case MemOpKind::MemcpyDtoH:
    case MemOpKind::MemcpyPtoP:
        return VerdictClass::CommunicationBound;
    case MemOpKind::MemcpyDtoD:
    case MemOpKind::Memset:
        return VerdictClass::MemoryBound;
    case MemOpKind::MemcpyHtoH:
    case MemOpKind::Other:
        return VerdictClass::Unknown;
    }
    return VerdictClass::Unknown;
}

const char* toString(CeilingSource source)
{
    return nameOf(kCeilingSources, source);
}

int preferenceOf(CeilingSource source)
{
    switch (source) {
    case CeilingSource::Counters:
        return 0;
    case CeilingSource::Measured:
        return 1;
    case CeilingSource::Datasheet:
        break;
    }
    return 2;
}

std::vector<Ceiling> selectCeilings(std::span<const Ceiling> ceilings)
{
    std::map<std::pair<std::int64_t, std::string>, const Ceiling*> best;
    for (const auto& c : ceilings) {
        if (!(c.value > 0) || !std::isfinite(c.value))
            continue;
        auto [it, added] = best.try_emplace({ c.deviceId, c.resource }, &c);
        if (!added && preferenceOf(c.source) < preferenceOf(it->second->source))
            it->second = &c;
    }
    std::vector<Ceiling> out;
    out.reserve(best.size());
    for (const auto& [key, c] : best)
        out.push_back(*c);
    return out;
}

std::optional<CeilingSource> ceilingSourceFromString(std::string_view text)
{
    return valueOf(kCeilingSources, text);
}

const char* toString(MemOpKind kind)
{
    return nameOf(kMemOpKinds, kind);
}

std::optional<MemOpKind> memOpKindFromString(std::string_view text)
{
    return valueOf(kMemOpKinds, text);
}

std::string describeDevice(const Device& device)
{
    std::string facts;
    const auto add = [&facts](const std::string& fact) { facts += (facts.empty() ? "" : ", ") + fact; };
    if (device.ccMajor > 0)
        add("compute capability " + std::to_string(device.ccMajor) + "." + std::to_string(device.ccMinor));
    if (device.smCount > 0)
        add(std::to_string(device.smCount) + " SMs");
    if (!device.host.empty())
        add("host " + device.host);
    return facts;
}

} // namespace ridgeline::core
