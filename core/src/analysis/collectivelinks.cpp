// SPDX-License-Identifier: MIT
// The link a collective runs over: read from the session's ceilings where it can be, otherwise
// inferred from the GPU and the ranks, and then said to be inferred.
#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <utility>

namespace ridgeline::core {

namespace {

constexpr double G = 1e9;

std::string upper(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
    return out;
}

// The ceiling of a resource among those the one selection rule picked (selectCeilings).
const Ceiling* ceilingOf(std::span<const Ceiling> selected, std::string_view resource)
{
    const auto it
        = std::find_if(selected.begin(), selected.end(), [&](const Ceiling& c) { return c.resource == resource; });
    return it == selected.end() ? nullptr : &*it;
}

// A short family name for the sentence: "A100", "H100", or the full name.
std::string family(std::string_view gpuName)
{
    const std::string name = upper(gpuName);
    for (const char* f : { "B200", "H200", "H100", "A100", "V100" }) {
        if (name.find(f) != std::string::npos)
            return f;
    }
    return std::string(gpuName);
}

} // namespace

std::optional<double> nvlinkPerDirection(std::string_view gpuName)
{
    // communication.md §4: NVLink total / 2 (nvidia.com NVLink pages; DGX-1 whitepaper for V100).
    // PCIe cards of these GPUs have no NVLink to every peer (at most a bridge to one), so none here.
    const std::string name = upper(gpuName);
    if (name.find("PCIE") != std::string::npos)
        return std::nullopt;
    static constexpr std::array<std::pair<std::string_view, double>, 5> kNvlink { {
        { "B200", 900 * G },
        { "H200", 450 * G },
        { "H100", 450 * G },
        { "A100", 300 * G },
        { "V100", 150 * G },
    } };
    for (const auto& [key, value] : kNvlink) {
        if (name.find(key) != std::string::npos)
            return value;
    }
    return std::nullopt;
}

std::optional<double> pciePerDirection(int generation)
{
    // PCIe x16, one direction, theory (communication.md §4).
    switch (generation) {
    case 3:
        return 15.75 * G;
    case 4:
        return 31.5 * G;
    case 5:
        return 63 * G;
    case 6:
        return 126 * G;
    default:
        return std::nullopt;
    }
}

std::optional<double> nicPerDirection(std::string_view rate)
{
    // InfiniBand per NIC, one direction: HDR 200 Gb/s, NDR 400 Gb/s, XDR 800 Gb/s (communication.md §4).
    const std::string r = upper(rate);
    if (r == "HDR")
        return 25 * G;
    if (r == "NDR")
        return 50 * G;
    if (r == "XDR")
        return 100 * G;
    return std::nullopt;
}

CollectiveLink chooseLink(const LinkContext& context)
{
    CollectiveLink link;
    const auto selected = selectCeilings(context.ceilings);
    const std::string gpu = context.device ? family(context.device->name) : std::string("GPU");
    const std::string ranks = context.groupSize > 0 ? fmt::format("{} ranks", context.groupSize) : "its ranks";
    if (context.hosts > 1) {
        // More than one host: the slowest link of a ring or tree is the network.
        link.name = "network";
        link.inferred = true;
        if (const Ceiling* nic = ceilingOf(selected, "network")) {
            link.bytesPerS = nic->value;
            link.inferred = false;
        }
        link.note = fmt::format("{} on {} hosts: the network", ranks, context.hosts);
        if (link.bytesPerS <= 0)
            link.note += " (its NICs are not recorded)";
        return link;
    }
    const std::string where
        = fmt::format("{} on one {} host{}", ranks, gpu, context.hosts == 1 ? "" : " (the session records no hosts)");
    if (const Ceiling* nvlink = ceilingOf(selected, "NVLink")) {
        link = { "NVLink", nvlink->value, false, fmt::format("NVLink {} ceiling", toString(nvlink->source)) };
        return link;
    }
    if (context.device && context.device->nvlinkBandwidthBytesPerS > 0) {
        link = { "NVLink", context.device->nvlinkBandwidthBytesPerS, false, "NVLink of the device record" };
        return link;
    }
    if (context.device) {
        if (auto nvlink = nvlinkPerDirection(context.device->name)) {
            link = { "NVLink", *nvlink, true, where + ": NVLink assumed" };
            return link;
        }
    }
    if (const Ceiling* pcie = ceilingOf(selected, "PCIe")) {
        link = { "PCIe", pcie->value, true, where + ": PCIe assumed (no NVLink known)" };
        return link;
    }
    if (context.device && context.device->pcieBandwidthBytesPerS > 0) {
        link = { "PCIe", context.device->pcieBandwidthBytesPerS, true, where + ": PCIe assumed (no NVLink known)" };
        return link;
    }
    link.note = "the link is unknown";
    return link;
}

} // namespace ridgeline::core
