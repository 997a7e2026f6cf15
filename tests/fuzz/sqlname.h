// SPDX-License-Identifier: MIT
// A table or column name as SQL text: in double quotes, a quote inside doubled. Shared by the
// SQLite mutator and the row editor, which build statements over whatever names a schema has.
#pragma once

#include <string>
#include <string_view>

namespace ridgeline::fuzz {

inline std::string sqlName(std::string_view name)
{
    std::string out = "\"";
    for (const char c : name) {
        out += c;
        if (c == '"')
            out += '"';
    }
    return out + '"';
}

} // namespace ridgeline::fuzz
