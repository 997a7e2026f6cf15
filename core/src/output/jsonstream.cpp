// SPDX-License-Identifier: MIT
#include "jsonstream.h"

#include <string>

namespace ridgeline::core::detail {

JsonObjectStream::JsonObjectStream(std::ostream& out)
    : m_out(out)
{
    m_out << '{';
}

void JsonObjectStream::key(std::string_view name)
{
    m_out << (m_firstMember ? "\n  " : ",\n  ")
          << nlohmann::json(name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << ": ";
    m_firstMember = false;
}

// `value` as dump(2) gives it, each line after the first indented by `depth` levels more.
void JsonObjectStream::indented(const nlohmann::json& value, int depth)
{
    const std::string text = value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string pad(static_cast<std::size_t>(2 * depth), ' ');
    std::size_t from = 0;
    for (auto nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
        m_out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
        m_out << pad;
        from = nl + 1;
    }
    m_out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

void JsonObjectStream::member(std::string_view name, const nlohmann::json& value)
{
    key(name);
    indented(value, 1);
}

void JsonObjectStream::beginArray(std::string_view name)
{
    key(name);
    m_out << '[';
    m_firstElement = true;
}

void JsonObjectStream::element(const nlohmann::json& value)
{
    m_out << (m_firstElement ? "\n    " : ",\n    ");
    m_firstElement = false;
    indented(value, 2);
}

void JsonObjectStream::endArray()
{
    m_out << (m_firstElement ? "]" : "\n  ]");
}

void JsonObjectStream::finish()
{
    m_out << (m_firstMember ? "}\n" : "\n}\n");
}

} // namespace ridgeline::core::detail
