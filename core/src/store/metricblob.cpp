// SPDX-License-Identifier: MIT
#include "metricblob.h"

#include <algorithm>
#include <bit>
#include <iterator>

namespace ridgeline::core::detail {

void encodeMetricBlob(std::span<const MetricEntry> entries, std::string& out)
{
    // At most 10 bytes of id step and 8 of value each; written through a pointer, then trimmed.
    out.resize(entries.size() * 18);
    auto* at = reinterpret_cast<unsigned char*>(out.data());
    std::uint64_t previous = 0;
    for (const auto& entry : entries) {
        auto delta = static_cast<std::uint64_t>(entry.metricId) - previous;
        previous = static_cast<std::uint64_t>(entry.metricId);
        while (delta >= 0x80) {
            *at++ = static_cast<unsigned char>((delta & 0x7F) | 0x80);
            delta >>= 7;
        }
        *at++ = static_cast<unsigned char>(delta);
        auto bits = std::bit_cast<std::uint64_t>(entry.value);
        for (int i = 0; i < 8; ++i, bits >>= 8)
            *at++ = static_cast<unsigned char>(bits & 0xFF);
    }
    out.resize(static_cast<std::size_t>(at - reinterpret_cast<unsigned char*>(out.data())));
}

bool decodeMetricBlob(std::string_view data, std::int64_t count, std::vector<MetricEntry>& out)
{
    out.clear();
    // Each entry takes at least 9 bytes: a count the data cannot hold is refused before any allocation.
    if (count < 0 || static_cast<std::uint64_t>(count) > data.size() / 9)
        return false;
    out.reserve(static_cast<std::size_t>(count));
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
    std::size_t at = 0;
    std::uint64_t id = 0;
    for (std::int64_t i = 0; i < count; ++i) {
        std::uint64_t delta = 0;
        for (int shift = 0;; shift += 7) {
            if (at >= data.size() || shift > 63)
                return false;
            const auto byte = bytes[at++];
            delta |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0)
                break;
        }
        // Ids rise and stay within int64: a zero step or a wrap is damage.
        if (delta == 0 || delta > static_cast<std::uint64_t>(INT64_MAX) - id || data.size() - at < 8)
            return false;
        id += delta;
        std::uint64_t bits = 0;
        for (int b = 7; b >= 0; --b)
            bits = (bits << 8) | bytes[at + static_cast<std::size_t>(b)];
        at += 8;
        out.push_back({ static_cast<std::int64_t>(id), std::bit_cast<double>(bits) });
    }
    return at == data.size();
}

void mergeMetricEntries(std::vector<MetricEntry>& base, std::span<const MetricEntry> update)
{
    std::vector<MetricEntry> merged;
    merged.reserve(base.size() + update.size());
    auto a = base.begin();
    auto b = update.begin();
    while (a != base.end() || b != update.end()) {
        if (b == update.end() || (a != base.end() && a->metricId < b->metricId)) {
            merged.push_back(*a++);
        } else {
            if (a != base.end() && a->metricId == b->metricId)
                ++a;
            merged.push_back(*b++);
        }
    }
    base = std::move(merged);
}

} // namespace ridgeline::core::detail
