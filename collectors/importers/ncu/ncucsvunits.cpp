// SPDX-License-Identifier: MIT
// Numbers, units and launch sizes as Nsight Compute prints them in CSV.
#include "ridgeline/collectors/importers/ncucsvimporter.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace ridgeline::collectors::ncu {

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Time units in ns: long names (nsecond, older ncu) and short ones (ns, newer ncu).
std::optional<double> timeInNs(std::string_view unit)
{
    struct Entry {
        std::string_view name;
        double ns;
    };
    static constexpr std::array kTimes { Entry { "psecond", 1e-3 }, Entry { "ps", 1e-3 }, Entry { "nsecond", 1 },
        Entry { "ns", 1 }, Entry { "usecond", 1e3 }, Entry { "us", 1e3 }, Entry { "\u00b5s", 1e3 },
        Entry { "msecond", 1e6 }, Entry { "ms", 1e6 }, Entry { "second", 1e9 }, Entry { "s", 1e9 } };
    for (const auto& entry : kTimes) {
        if (entry.name == unit)
            return entry.ns;
    }
    return std::nullopt;
}

std::optional<double> frequencyInHz(std::string_view unit)
{
    struct Entry {
        std::string_view name;
        double hz;
    };
    static constexpr std::array kFrequencies { Entry { "hz", 1 }, Entry { "Hz", 1 }, Entry { "khz", 1e3 },
        Entry { "kHz", 1e3 }, Entry { "Khz", 1e3 }, Entry { "KHz", 1e3 }, Entry { "mhz", 1e6 }, Entry { "Mhz", 1e6 },
        Entry { "MHz", 1e6 }, Entry { "ghz", 1e9 }, Entry { "Ghz", 1e9 }, Entry { "GHz", 1e9 } };
    for (const auto& entry : kFrequencies) {
        if (entry.name == unit)
            return entry.hz;
    }
    return std::nullopt;
}

// Quantities Nsight Compute scales with a prefix ("Mbyte", "Kinst"). Others ("register",
// "SM", "cluster") are kept as printed: a leading capital there is not a prefix.
bool isScalableBase(std::string_view base)
{
    static constexpr std::array<std::string_view, 12> kBases { "byte", "bit", "cycle", "inst", "sector", "request",
        "warp", "thread", "block", "transaction", "wavefront", "B" };
    for (auto known : kBases) {
        if (known == base)
            return true;
    }
    return false;
}

struct Quantity {
    double factor = 1;
    std::string base;
};

// "Gbyte" -> {1e9, "byte"}, "Kibyte" -> {1024, "byte"}, "byte" -> {1, "byte"}.
std::optional<Quantity> splitPrefix(std::string_view unit)
{
    if (isScalableBase(unit))
        return Quantity { 1, std::string(unit == "B" ? "byte" : unit) };
    struct Prefix {
        std::string_view text;
        double factor;
    };
    static constexpr std::array kPrefixes { Prefix { "Ki", 1024.0 }, Prefix { "Mi", 1048576.0 },
        Prefix { "Gi", 1073741824.0 }, Prefix { "Ti", 1099511627776.0 }, Prefix { "Pi", 1125899906842624.0 },
        Prefix { "K", 1e3 }, Prefix { "k", 1e3 }, Prefix { "M", 1e6 }, Prefix { "G", 1e9 }, Prefix { "T", 1e12 },
        Prefix { "P", 1e15 } };
    for (const auto& prefix : kPrefixes) {
        if (unit.size() > prefix.text.size() && unit.substr(0, prefix.text.size()) == prefix.text) {
            const auto base = unit.substr(prefix.text.size());
            if (isScalableBase(base))
                return Quantity { prefix.factor, std::string(base == "B" ? "byte" : base) };
        }
    }
    return std::nullopt;
}

} // namespace

UnitScale normaliseUnit(std::string_view unit)
{
    unit = trim(unit);
    if (unit.empty() || unit == "%")
        return { 1, std::string(unit) };
    if (auto ns = timeInNs(unit))
        return { *ns, "ns" };
    if (auto hz = frequencyInHz(unit))
        return { *hz, "Hz" };
    const auto slash = unit.find('/');
    if (slash == std::string_view::npos) {
        if (auto quantity = splitPrefix(unit))
            return { quantity->factor, quantity->base };
        return { 1, std::string(unit) };
    }
    const auto numerator = unit.substr(0, slash);
    const auto denominator = unit.substr(slash + 1);
    auto quantity = splitPrefix(numerator);
    if (!quantity)
        return { 1, std::string(unit) };
    if (auto ns = timeInNs(denominator)) {
        // A rate: per second. Cycles per second is a clock frequency.
        const double factor = quantity->factor * 1e9 / *ns;
        return { factor, quantity->base == "cycle" ? std::string("Hz") : quantity->base + "/s" };
    }
    return { quantity->factor, quantity->base + "/" + std::string(denominator) };
}

ParsedNumber parseNumber(std::string_view text)
{
    text = trim(text);
    if (text.empty() || text == "n/a" || text == "N/A" || text == "-")
        return { NumberStatus::Missing, 0 };
    // Thousands separators: only between digit groups of three before the decimal point.
    std::string plain;
    plain.reserve(text.size());
    std::size_t digitsSinceComma = 0;
    bool sawComma = false;
    bool inFraction = false;
    bool inExponent = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ',') {
            const bool groupOk = !inFraction && !inExponent && digitsSinceComma >= 1
                && (sawComma ? digitsSinceComma == 3 : digitsSinceComma <= 3);
            if (!groupOk || i + 1 >= text.size() || !isDigit(text[i + 1]))
                return { NumberStatus::NotNumber, 0 };
            sawComma = true;
            digitsSinceComma = 0;
            continue;
        }
        if (isDigit(c)) {
            ++digitsSinceComma;
        } else if (c == '.' || c == 'e' || c == 'E') {
            if (sawComma && !inFraction && !inExponent && digitsSinceComma != 3)
                return { NumberStatus::NotNumber, 0 };
            inFraction = inFraction || c == '.';
            inExponent = inExponent || c != '.';
        }
        plain += c;
    }
    if (sawComma && !inFraction && !inExponent && digitsSinceComma != 3)
        return { NumberStatus::NotNumber, 0 };
    const char* begin = plain.data();
    const char* end = plain.data() + plain.size();
    if (begin != end && *begin == '+')
        ++begin;
    double value = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return { NumberStatus::NotNumber, 0 };
    return { NumberStatus::Ok, value };
}

std::optional<core::Dim3> parseDim3(std::string_view text)
{
    text = trim(text);
    if (text.size() < 2 || text.front() != '(' || text.back() != ')')
        return std::nullopt;
    text = text.substr(1, text.size() - 2);
    // Components are separated by ", "; without spaces ("(256,1,1)") by ",". With spaces, a
    // comma not followed by a space is a thousands separator ("(65,536, 1, 1)").
    const std::string_view separator = text.find(", ") != std::string_view::npos ? ", " : ",";
    std::array<std::uint32_t, 3> values {};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto next = text.find(separator);
        if ((i < 2) != (next != std::string_view::npos))
            return std::nullopt;
        const auto part = text.substr(0, next);
        const auto parsed = parseNumber(part);
        if (parsed.status != NumberStatus::Ok || parsed.value < 1 || parsed.value != std::floor(parsed.value)
            || parsed.value > static_cast<double>(std::numeric_limits<std::uint32_t>::max()))
            return std::nullopt;
        values[i] = static_cast<std::uint32_t>(parsed.value);
        if (next != std::string_view::npos)
            text.remove_prefix(next + separator.size());
    }
    return core::Dim3 { values[0], values[1], values[2] };
}

} // namespace ridgeline::collectors::ncu
