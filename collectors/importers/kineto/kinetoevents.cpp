// SPDX-License-Identifier: MIT
// Small pure helpers of the Kineto importer: exact µs -> ns conversion, memcpy kinds, NCCL
// kernel names and dtypes, JSON string unescaping.
#include "kinetointernal.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace ridgeline::collectors::kineto {

namespace {

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowered(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = lower(c);
    return out;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::optional<std::uint32_t> hex4(std::string_view text, std::size_t at)
{
    if (at + 4 > text.size())
        return std::nullopt;
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + 4, value, 16);
    if (ec != std::errc() || end != text.data() + at + 4)
        return std::nullopt;
    return value;
}

} // namespace

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

namespace {

// Any other number token: signs, spaces, exponents, more than 16 whole digits.
std::optional<std::int64_t> anyMicrosToNs(std::string_view token)
{
    while (
        !token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    if (token.empty())
        return std::nullopt;
    const bool negative = token.front() == '-';
    std::string_view digits = negative ? token.substr(1) : token;
    const auto dot = digits.find('.');
    const std::string_view whole = digits.substr(0, dot);
    const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : digits.substr(dot + 1);
    bool plain = !whole.empty() && whole.size() <= 16; // up to 9.2e15 µs fits in int64 ns
    for (char c : whole)
        plain = plain && isDigit(c);
    for (char c : fraction)
        plain = plain && isDigit(c);
    if (!plain) {
        // Exponents or huge values: go through double (exact enough for them).
        double value = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
            return std::nullopt;
        const double ns = value * 1000.0;
        if (!(std::fabs(ns) < 9.2e18))
            return std::nullopt;
        return static_cast<std::int64_t>(std::llround(ns));
    }
    std::int64_t us = 0; // at most 16 digits, checked above: no overflow
    for (const char c : whole)
        us = us * 10 + (c - '0');
    if (us > std::numeric_limits<std::int64_t>::max() / 1000 - 1)
        return std::nullopt;
    std::int64_t ns = us * 1000;
    static constexpr std::array<std::int64_t, 3> kScale { 100, 10, 1 };
    for (std::size_t i = 0; i < fraction.size() && i < 3; ++i)
        ns += (fraction[i] - '0') * kScale[i];
    if (fraction.size() > 3 && fraction[3] >= '5')
        ns += 1;
    return negative ? -ns : ns;
}

} // namespace

std::optional<std::int64_t> microsToNs(std::string_view token)
{
    // Nearly every "ts" and "dur": 1 to 16 digits, maybe a '.' and more digits; read in one pass.
    const char* at = token.data();
    const char* const end = at + token.size();
    std::int64_t us = 0;
    int whole = 0;
    for (; at < end && whole <= 16 && static_cast<unsigned>(*at - '0') < 10; ++at, ++whole)
        us = us * 10 + (*at - '0');
    if (whole == 0 || whole > 16 || us > std::numeric_limits<std::int64_t>::max() / 1000 - 1)
        return anyMicrosToNs(token);
    std::int64_t ns = us * 1000;
    if (at < end && *at == '.') {
        static constexpr std::int64_t kScale[] { 100, 10, 1 };
        int place = 0;
        for (++at; at < end && static_cast<unsigned>(*at - '0') < 10; ++at, ++place) {
            if (place < 3)
                ns += (*at - '0') * kScale[place];
            else if (place == 3 && *at >= '5')
                ns += 1;
        }
    }
    return at == end ? std::optional<std::int64_t>(ns) : anyMicrosToNs(token);
}

void parseMemcpyName(std::string_view name, core::MemOp& op)
{
    const std::string text = lowered(name);
    op.kind = core::MemOpKind::Other;
    if (text.find("htod") != std::string::npos)
        op.kind = core::MemOpKind::MemcpyHtoD;
    else if (text.find("dtoh") != std::string::npos)
        op.kind = core::MemOpKind::MemcpyDtoH;
    else if (text.find("dtod") != std::string::npos)
        op.kind = core::MemOpKind::MemcpyDtoD;
    else if (text.find("htoh") != std::string::npos)
        op.kind = core::MemOpKind::MemcpyHtoH;
    else if (text.find("ptop") != std::string::npos)
        op.kind = core::MemOpKind::MemcpyPtoP;
    // "(Pinned -> Device)"
    const auto open = text.find('(');
    const auto arrow = text.find("->", open == std::string::npos ? 0 : open);
    const auto close = text.find(')', arrow == std::string::npos ? 0 : arrow);
    if (open == std::string::npos || arrow == std::string::npos || close == std::string::npos)
        return;
    auto trim = [](std::string s) {
        const auto first = s.find_first_not_of(' ');
        const auto last = s.find_last_not_of(' ');
        return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
    };
    op.srcMemory = trim(text.substr(open + 1, arrow - open - 1));
    op.dstMemory = trim(text.substr(arrow + 2, close - arrow - 2));
}

void parseNcclKernelName(std::string_view name, CommInfo& info)
{
    const auto start = name.find("nccl");
    if (start == std::string_view::npos)
        return;
    name = name.substr(start);
    name = name.substr(0, name.find('('));
    std::vector<std::string_view> parts;
    for (std::size_t pos = 0; pos <= name.size();) {
        const auto next = std::min(name.find('_', pos), name.size());
        parts.push_back(name.substr(pos, next - pos));
        pos = next + 1;
    }
    if (parts.size() >= 2 && info.collective.empty())
        info.collective = std::string(parts[1]);
    static constexpr std::array<std::string_view, 6> kAlgorithms { "RING", "TREE", "COLLNET", "NVLS", "PAT", "CHAIN" };
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kProtocols { { { "LL", "LL" },
        { "LL128", "LL128" }, { "SIMPLE", "Simple" } } };
    for (std::size_t i = 2; i < parts.size(); ++i) {
        for (auto algorithm : kAlgorithms) {
            if (parts[i] == algorithm && info.algorithm.empty()) {
                info.algorithm = std::string(1, algorithm[0]) + lowered(algorithm.substr(1));
                if (algorithm == "NVLS" || algorithm == "PAT")
                    info.algorithm = std::string(algorithm);
            }
        }
        for (auto [token, label] : kProtocols) {
            if (parts[i] == token && info.protocol.empty())
                info.protocol = std::string(label);
        }
    }
}

int dtypeSize(std::string_view dtype)
{
    std::string text = lowered(dtype);
    if (const auto colons = text.rfind("::"); colons != std::string::npos)
        text = text.substr(colons + 2);
    if (text.substr(0, 6) == "torch.")
        text = text.substr(6);
    static const std::map<std::string, int, std::less<>> kSizes {
        { "double", 8 },
        { "float64", 8 },
        { "long", 8 },
        { "int64", 8 },
        { "complexfloat", 8 },
        { "complexdouble", 16 },
        { "uint64", 8 },
        { "float", 4 },
        { "float32", 4 },
        { "int", 4 },
        { "int32", 4 },
        { "uint32", 4 },
        { "half", 2 },
        { "float16", 2 },
        { "bfloat16", 2 },
        { "short", 2 },
        { "int16", 2 },
        { "uint16", 2 },
        { "char", 1 },
        { "byte", 1 },
        { "int8", 1 },
        { "uint8", 1 },
        { "bool", 1 },
        { "float8_e4m3fn", 1 },
        { "float8_e5m2", 1 },
        { "float8_e4m3fnuz", 1 },
        { "float8_e5m2fnuz", 1 },
    };
    const auto it = kSizes.find(text);
    return it == kSizes.end() ? 0 : it->second;
}

std::string unescapeJsonString(std::string_view token)
{
    while (!token.empty() && token.back() != '"')
        token.remove_suffix(1);
    if (token.size() >= 2 && token.front() == '"')
        token = token.substr(1, token.size() - 2);
    if (token.find('\\') == std::string_view::npos)
        return std::string(token);
    std::string out;
    out.reserve(token.size());
    for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i] != '\\' || i + 1 >= token.size()) {
            out += token[i];
            continue;
        }
        const char c = token[++i];
        switch (c) {
        case 'n':
            out += '\n';
            break;
        case 't':
            out += '\t';
            break;
        case 'r':
            out += '\r';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'u': {
            auto cp = hex4(token, i + 1);
            if (!cp) {
                out += "\\u";
                break;
            }
            i += 4;
            if (*cp >= 0xD800 && *cp < 0xDC00 && i + 2 < token.size() && token[i + 1] == '\\' && token[i + 2] == 'u') {
                if (auto low = hex4(token, i + 3); low && *low >= 0xDC00 && *low < 0xE000) {
                    cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
                    i += 6;
                }
            }
            appendUtf8(out, *cp >= 0xD800 && *cp < 0xE000 ? 0xFFFD : *cp);
            break;
        }
        default: // \" \\ \/
            out += c;
        }
    }
    return out;
}

} // namespace ridgeline::collectors::kineto
