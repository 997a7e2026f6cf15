// SPDX-License-Identifier: MIT
// The Kineto importer's string table (kinetointernal.h): linear probing over a power-of-two table
// kept at most half full, each string's hash kept to compare before the bytes.
#include "kinetointernal.h"

#include <algorithm>
#include <functional>

namespace ridgeline::collectors::kineto {

std::uint32_t StringTable::intern(std::string_view text, std::size_t hash)
{
    if (text.empty())
        return 0;
    if (2 * m_spans.size() >= m_slots.size())
        grow();
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t index = m_slots[slot];
        if (index == 0) {
            const auto added = static_cast<std::uint32_t>(m_spans.size());
            m_slots[slot] = added;
            m_spans.emplace_back(m_bytes.size(), static_cast<std::uint32_t>(text.size()));
            m_hashes.push_back(hash);
            m_bytes.append(text);
            return added;
        }
        if (m_hashes[index - 1] == hash && (*this)[index] == text)
            return index;
    }
}

void StringTable::grow()
{
    m_slots.assign(std::max<std::size_t>(64, 2 * m_slots.size()), 0);
    const std::size_t mask = m_slots.size() - 1;
    for (std::uint32_t index = 1; index < m_spans.size(); ++index) {
        std::size_t slot = m_hashes[index - 1] & mask;
        while (m_slots[slot] != 0)
            slot = (slot + 1) & mask;
        m_slots[slot] = index;
    }
}

} // namespace ridgeline::collectors::kineto
