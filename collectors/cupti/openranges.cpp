// SPDX-License-Identifier: MIT
#include "openranges.h"

#include <nlohmann/json.hpp>

namespace ridgeline::inject {

std::string encodeOpenRanges(const OpenRanges& ranges)
{
    if (ranges.empty())
        return {};
    auto out = nlohmann::json::array();
    for (const auto& [id, r] : ranges)
        out.push_back({ { "id", id }, { "thread", r.threadId }, { "domain", r.domain }, { "name", r.name },
            { "start", r.startNs }, { "color", r.color }, { "category", r.category } });
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

OpenRanges decodeOpenRanges(const std::string& text)
{
    OpenRanges out;
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_array())
        return out;
    for (const auto& item : doc) {
        try {
            if (!item.is_object() || !item.contains("id") || !item["id"].is_number_unsigned()
                || !item.value("start", nlohmann::json()).is_number_integer())
                continue;
            core::NvtxRange r;
            r.threadId = item.value("thread", std::int64_t { 0 });
            r.domain = item.value("domain", std::string("default"));
            r.name = item.value("name", std::string());
            r.startNs = item.value("start", std::int64_t { 0 });
            r.endNs = r.startNs;
            r.color = item.value("color", std::uint32_t { 0 });
            r.category = item.value("category", std::int64_t { 0 });
            out.emplace_back(item["id"].get<std::uint32_t>(), std::move(r));
        } catch (const nlohmann::json::exception&) {
            continue; // a field of the wrong type: that range is left out
        }
    }
    return out;
}

} // namespace ridgeline::inject
