// SPDX-License-Identifier: MIT
// JSON values the operator reports (`--by shape`, `--opportunities`) share: a trace's JSON text
// (Input Dims, Input type) as JSON, and an optional number.
#pragma once

#include "ridgeline/core/analysis/operatorshapes.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ridgeline::core::detail {

// The trace's JSON text as JSON (nested arrays), or the text itself when it does not parse or
// nests deeper than any argument list; null when empty.
inline nlohmann::json traceTextJson(const std::string& text)
{
    if (text.empty())
        return nullptr;
    if (traceJsonNestsTooDeep(text))
        return nlohmann::json(text);
    auto parsed = nlohmann::json::parse(text, nullptr, false);
    return parsed.is_discarded() ? nlohmann::json(text) : parsed;
}

inline nlohmann::json optionalNumberJson(const std::optional<double>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace ridgeline::core::detail
