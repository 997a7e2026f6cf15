// SPDX-License-Identifier: MIT
// Per kernel name and device: launches and GPU time. This is the part of the kernel table's rows
// (analysis/kernelsummary.h) that needs every launch. SessionWriter adds each kernel as it is
// written and stores the totals when the session is finished (`kernel_totals`, schema v8). Opening
// a session of 100 M launches then reads one row per name and device, not every launch. A session
// without them (older, or written by a writer that failed part-way) is scanned as before, with the
// same arithmetic: this class.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ridgeline::core {

struct KernelTotals {
    std::int64_t nameId = 0;
    std::int64_t deviceId = 0;
    std::int64_t launches = 0;
    // Launches that ran in a CUDA graph launch profiled as one range (Kernel::graphRangeKernels > 0).
    std::int64_t graphLevelLaunches = 0;
    // Durations are end - start, 0 when negative; sums saturate at the largest int64.
    std::int64_t totalNs = 0;
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
    bool operator==(const KernelTotals&) const = default;
};

// The version of the stored form; a session that stores another is scanned.
inline constexpr int kKernelTotalsVersion = 1;

class KernelTotalsBuilder {
public:
    void add(std::int64_t nameId, std::int64_t deviceId, std::int64_t startNs, std::int64_t endNs, bool graphLevel);
    // Adds the launches of a row (another part of the table, or a stored row).
    void merge(const KernelTotals& row);
    // A kernel already added was marked (+1) or unmarked (-1) as graph-level afterwards.
    void countGraphLevel(std::int64_t nameId, std::int64_t deviceId, std::int64_t change);
    void clear();

    // In the order the (name, device) pairs were first seen.
    const std::vector<KernelTotals>& rows() const { return m_rows; }
    std::vector<KernelTotals> takeRows();
    // The time of every launch (saturating).
    std::int64_t allKernelNs() const { return m_allKernelNs; }

private:
    struct Key {
        std::int64_t nameId;
        std::int64_t deviceId;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    KernelTotals& rowOf(std::int64_t nameId, std::int64_t deviceId, std::int64_t duration);

    std::vector<KernelTotals> m_rows;
    std::unordered_map<Key, std::size_t, KeyHash> m_byKey;
    std::int64_t m_allKernelNs = 0;
};

// Whether a stored row can be the totals of some launches (at least one launch; graph-level
// launches, minimum, maximum and total in order). Readers scan a session with a row that cannot.
bool plausibleKernelTotals(const KernelTotals& row);

} // namespace ridgeline::core
