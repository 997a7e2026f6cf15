// SPDX-License-Identifier: MIT
// The two ranks of kineto/trace_filter (a real two-rank pair of Kineto traces): imported into one
// session, and read independently of the importer (zlib + nlohmann::json): the start of each rank's
// NCCL kernels, and the waits and last arrivals worked out from them.
#pragma once

#include "gunzip.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "testutil.h"
#include "tracejson.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ridgeline::testing {

inline const std::string kTraceFilterRank0 = "kineto/trace_filter/sampled_rank-0.json.gz";
inline const std::string kTraceFilterRank1 = "kineto/trace_filter/sampled_rank-1.json.gz";

// Both ranks imported into the new session `session`; the importer's message where it fails.
inline ::testing::AssertionResult importTraceFilterRanks(const std::string& session)
{
    auto imported = collectors::importKineto(
        { testDataPath(kTraceFilterRank0), testDataPath(kTraceFilterRank1) }, session, false);
    if (imported.hasError())
        return ::testing::AssertionFailure() << imported.error().message;
    return ::testing::AssertionSuccess();
}

// The start of each NCCL kernel of each rank, in order: the k-th of every rank is one instance
// (these traces have no process group and no Seq).
inline std::vector<std::vector<std::int64_t>> traceFilterNcclStarts()
{
    std::vector<std::vector<std::int64_t>> starts(2);
    for (std::size_t r = 0; r < 2; ++r) {
        const auto doc
            = nlohmann::json::parse(gunzipFile(testDataPath(r == 0 ? kTraceFilterRank0 : kTraceFilterRank1)));
        for (const auto& ev : doc["traceEvents"]) {
            if (isNcclKernelEvent(ev))
                starts[r].push_back(microsToNs(ev["ts"]));
        }
        std::sort(starts[r].begin(), starts[r].end());
    }
    return starts;
}

// Per rank of two: the time it waits (the latest start of an instance less its own start), and
// how many instances it starts last in (ties count for neither).
struct TwoRankWaits {
    std::int64_t waitNs[2] = { 0, 0 };
    std::int64_t lastArrivals[2] = { 0, 0 };
};

// `starts` as traceFilterNcclStarts gives it, both ranks with as many instances.
inline TwoRankWaits twoRankWaits(const std::vector<std::vector<std::int64_t>>& starts)
{
    TwoRankWaits w;
    for (std::size_t i = 0; i < starts[0].size(); ++i) {
        const std::int64_t latest = std::max(starts[0][i], starts[1][i]);
        for (std::size_t r = 0; r < 2; ++r)
            w.waitNs[r] += latest - starts[r][i];
        if (starts[0][i] != starts[1][i])
            ++w.lastArrivals[starts[1][i] > starts[0][i] ? 1 : 0];
    }
    return w;
}

} // namespace ridgeline::testing
