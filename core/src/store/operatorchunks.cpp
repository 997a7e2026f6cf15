// SPDX-License-Identifier: MIT
#include "operatorchunks.h"

#include <algorithm>

namespace ridgeline::core::detail {

namespace {

char* putVarint(char* out, std::uint64_t value)
{
    while (value >= 0x80) {
        *out++ = static_cast<char>((value & 0x7F) | 0x80);
        value >>= 7;
    }
    *out++ = static_cast<char>(value);
    return out;
}

} // namespace

OperatorValues valuesOf(const SessionWriter::OperatorRow& r)
{
    return { r.id, r.processId, r.threadId, r.parentId, r.domainId, r.nameId, r.startNs, r.endNs, r.externalId,
        r.sequenceNumber, r.inputDimsId, r.inputTypesId, r.moduleId, r.callStackId, r.concreteInputsId };
}

SessionWriter::OperatorRow rowOf(const OperatorValues& v)
{
    return { v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14] };
}

void encodeOperatorChunk(std::span<const SessionWriter::OperatorRow> rows, std::string& out)
{
    // Written through a pointer, with room checked once per row (a varint is at most 10 bytes):
    // a push_back per byte, with its capacity check, was most of the time packing took.
    constexpr std::size_t kMostPerRow = kOperatorColumns * 10;
    std::size_t used = 0;
    std::array<std::uint64_t, kOperatorColumns> previous {};
    for (const auto& row : rows) {
        if (out.size() - used < kMostPerRow) // used <= out.size()
            out.resize(std::max(2 * out.size(), used + kMostPerRow));
        char* at = out.data() + used;
        const OperatorValues values = valuesOf(row);
        for (std::size_t c = 0; c < kOperatorColumns; ++c) {
            // Unsigned arithmetic: differences of any two int64 wrap without overflow.
            const auto value = static_cast<std::uint64_t>(values[c]);
            const auto delta = static_cast<std::int64_t>(value - previous[c]);
            at = putVarint(at, (static_cast<std::uint64_t>(delta) << 1) ^ static_cast<std::uint64_t>(delta >> 63));
            previous[c] = value;
        }
        used = static_cast<std::size_t>(at - out.data());
    }
    out.resize(used);
}

bool decodeOperatorChunk(std::string_view data, std::int64_t count,
    const std::function<void(const OperatorValues&)>& visit, std::size_t columns)
{
    columns = std::min(columns, kOperatorColumns);
    std::array<std::uint64_t, kOperatorColumns> previous {};
    OperatorValues values {};
    std::size_t at = 0;
    for (std::int64_t row = 0; row < count; ++row) {
        for (std::size_t c = 0; c < columns; ++c) {
            std::uint64_t zigzag = 0;
            for (int shift = 0;; shift += 7) {
                if (at >= data.size() || shift > 63)
                    return false;
                const auto byte = static_cast<unsigned char>(data[at++]);
                zigzag |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
                if ((byte & 0x80) == 0)
                    break;
            }
            const std::uint64_t delta = (zigzag >> 1) ^ (~(zigzag & 1) + 1);
            previous[c] += delta;
            values[c] = static_cast<std::int64_t>(previous[c]);
        }
        visit(values);
    }
    return at == data.size();
}

} // namespace ridgeline::core::detail
