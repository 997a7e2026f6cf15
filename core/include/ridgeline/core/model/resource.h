// SPDX-License-Identifier: MIT
// What a ceiling or a utilisation is of: a compute pipe, a memory level or a link. The text of
// each (toString: the resource:: names of metricnames.h, "FP32", "FP16_tensor", "DRAM", ...) is
// the `resource` column of the ceilings table and the key of the analysis' FLOP, byte and
// utilisation maps; code that asks what a resource is asks it of this enum, never of its text.
#pragma once

#include "ridgeline/core/model/metricnames.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

namespace ridgeline::core {

enum class Resource : std::uint8_t {
    FP64,
    FP32,
    FP16, // CUDA cores (HFMA2)
    FP64Tensor,
    TF32Tensor,
    FP16Tensor,
    BF16Tensor,
    FP8Tensor,
    INT8Tensor,
    Tensor, // all tensor-core pipes together (a utilisation, never a ceiling)
    DRAM,
    L2,
    L1,
    NVLink,
    PCIe,
    Network, // between nodes: a NIC's bandwidth, the link of a collective across nodes
};

enum class ResourceKind : std::uint8_t { Compute, Memory, Link };

inline constexpr std::array kResources { Resource::FP64, Resource::FP32, Resource::FP16, Resource::FP64Tensor,
    Resource::TF32Tensor, Resource::FP16Tensor, Resource::BF16Tensor, Resource::FP8Tensor, Resource::INT8Tensor,
    Resource::Tensor, Resource::DRAM, Resource::L2, Resource::L1, Resource::NVLink, Resource::PCIe, Resource::Network };

constexpr const char* toString(Resource r)
{
    switch (r) {
    case Resource::FP64:
        return resource::FP64;
    case Resource::FP32:
        return resource::FP32;
    case Resource::FP16:
        return resource::FP16;
    case Resource::FP64Tensor:
        return resource::FP64Tensor;
    case Resource::TF32Tensor:
        return resource::TF32Tensor;
    case Resource::FP16Tensor:
        return resource::FP16Tensor;
    case Resource::BF16Tensor:
        return resource::BF16Tensor;
    case Resource::FP8Tensor:
        return resource::FP8Tensor;
    case Resource::INT8Tensor:
        return resource::INT8Tensor;
    case Resource::Tensor:
        return "tensor";
    case Resource::DRAM:
        return resource::DRAM;
    case Resource::L2:
        return resource::L2;
    case Resource::L1:
        return resource::L1;
    case Resource::NVLink:
        return resource::NVLink;
    case Resource::PCIe:
        return resource::PCIe;
    case Resource::Network:
        return "network";
    }
    return "";
}

static_assert(kResources.size() == static_cast<std::size_t>(Resource::Network) + 1, "kResources lists every Resource");

// nullopt for a name Ridgeline does not know (a file from elsewhere may hold any).
constexpr std::optional<Resource> resourceFromString(std::string_view text)
{
    for (const auto r : kResources) {
        if (text == toString(r))
            return r;
    }
    return std::nullopt;
}

// Each resource's place among the others in the order of their names, as std::string compares
// them ("BF16_tensor" < "DRAM" < "FP16" < ... < "TF32_tensor" < "tensor").
inline constexpr auto kResourceNameRank = [] {
    std::array<std::size_t, kResources.size()> rank {};
    for (const auto r : kResources) {
        std::size_t below = 0;
        for (const auto other : kResources) {
            if (std::string_view(toString(other)) < std::string_view(toString(r)))
                ++below;
        }
        rank[static_cast<std::size_t>(r)] = below;
    }
    return rank;
}();

// Orders resources by their names: a ResourceMap lists its entries (in reports, JSON, the app, and
// in the sums the analysis adds up in that order) as a map keyed by the names did.
struct ResourceNameOrder {
    constexpr bool operator()(Resource a, Resource b) const
    {
        return kResourceNameRank[static_cast<std::size_t>(a)] < kResourceNameRank[static_cast<std::size_t>(b)];
    }
};

// A figure per resource (FLOPs per precision, bytes per memory level or link), in name order.
template <typename T> using ResourceMap = std::map<Resource, T, ResourceNameOrder>;

constexpr ResourceKind kindOf(Resource r)
{
    switch (r) {
    case Resource::DRAM:
    case Resource::L2:
    case Resource::L1:
        return ResourceKind::Memory;
    case Resource::NVLink:
    case Resource::PCIe:
    case Resource::Network:
        return ResourceKind::Link;
    default:
        return ResourceKind::Compute;
    }
}

// One tensor-core pipe (FP16_tensor, ...), not their sum.
constexpr bool isTensorPipe(Resource r)
{
    switch (r) {
    case Resource::FP64Tensor:
    case Resource::TF32Tensor:
    case Resource::FP16Tensor:
    case Resource::BF16Tensor:
    case Resource::FP8Tensor:
    case Resource::INT8Tensor:
        return true;
    default:
        return false;
    }
}

// The same questions of a resource's text; unknown names are compute resources that are no
// tensor pipe (as the verdict rules have always read them).
constexpr ResourceKind kindOf(std::string_view name)
{
    const auto r = resourceFromString(name);
    return r ? kindOf(*r) : ResourceKind::Compute;
}
constexpr bool isTensorPipe(std::string_view name)
{
    const auto r = resourceFromString(name);
    return r && isTensorPipe(*r);
}

} // namespace ridgeline::core
