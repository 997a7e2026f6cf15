// SPDX-License-Identifier: MIT
// One JSON object written member by member, an array member element by element, each value dumped
// on its own: a report of many rows never exists whole as a JSON tree (nlohmann's DOM takes about
// eight times the text's size). The text is laid out as nlohmann's dump(2) lays it out; invalid
// UTF-8 in names from foreign files is replaced rather than aborting the report.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

namespace ridgeline::core::detail {

class JsonObjectStream {
public:
    explicit JsonObjectStream(std::ostream& out); // writes "{"
    void member(std::string_view key, const nlohmann::json& value);
    void beginArray(std::string_view key);
    void element(const nlohmann::json& value);
    void endArray();
    void finish(); // "}" and a line end

private:
    void key(std::string_view key);
    void indented(const nlohmann::json& value, int depth);

    std::ostream& m_out;
    bool m_firstMember = true;
    bool m_firstElement = true;
};

} // namespace ridgeline::core::detail
