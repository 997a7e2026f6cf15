// SPDX-License-Identifier: MIT
// A kernel's ncu estimates (analysis/ncuestimates.h) as the JSON reports carry them: `report -f json`
// kernel rows and `report --opportunities` kernel rows.
#pragma once

#include "ridgeline/core/analysis/ncuestimates.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace ridgeline::core::detail {

inline nlohmann::json ncuEstimatesJson(const std::vector<NcuEstimate>& estimates)
{
    using nlohmann::json;
    json out = json::array();
    for (const auto& e : estimates)
        out.push_back({ { "rule", e.rule }, { "name", e.name }, { "section", e.section }, { "type", e.type },
            { "message", e.message }, { "speedup_pct", e.speedupPct ? json(*e.speedupPct) : json(nullptr) },
            { "speedup_type", e.speedupType.empty() ? json(nullptr) : json(e.speedupType) },
            { "launches", e.launches } });
    return out;
}

} // namespace ridgeline::core::detail
