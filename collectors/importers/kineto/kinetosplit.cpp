// SPDX-License-Identifier: MIT
#include "kinetosplit.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <simdjson.h>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ridgeline::collectors::kineto {

namespace {

constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;
static_assert(kPadding >= 64, "containerEnd reads whole 64-byte blocks");
constexpr std::size_t kNeedMore = static_cast<std::size_t>(-1);
constexpr std::size_t kTooDeep = kNeedMore - 1;
// simdjson's own default limit: deeper text would be refused by it anyway, and following it costs
// nothing here; refusing it up front gives one clear message.
constexpr std::size_t kMaxDepth = 1024;

enum ByteClass : unsigned char { Plain, Quote, Open, Close, Space, Delimiter };

constexpr std::array<unsigned char, 256> makeClasses()
{
    std::array<unsigned char, 256> classes {};
    classes['"'] = Quote;
    classes['{'] = Open;
    classes['['] = Open;
    classes['}'] = Close;
    classes[']'] = Close;
    for (const char c : { ' ', '\t', '\r', '\n' })
        classes[static_cast<unsigned char>(c)] = Space;
    classes[','] = Delimiter;
    classes[':'] = Delimiter;
    return classes;
}
constexpr auto kClasses = makeClasses();

inline unsigned char classOf(char c)
{
    return kClasses[static_cast<unsigned char>(c)];
}

// The position after the closing quote of the string whose opening quote is at `open`; kNeedMore
// when the text ends first.
std::size_t stringEnd(const char* text, std::size_t open, std::size_t end)
{
    std::size_t at = open + 1;
    while (at < end) {
        const void* quote = std::memchr(text + at, '"', end - at);
        if (quote == nullptr)
            return kNeedMore;
        const auto q = static_cast<std::size_t>(static_cast<const char*>(quote) - text);
        std::size_t backslashes = 0;
        while (q - backslashes - 1 > open && text[q - backslashes - 1] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return q + 1;
        at = q + 1;
    }
    return kNeedMore;
}

// Bit i of each mask tells of byte i of a 64-byte block.
struct BlockMasks {
    std::uint64_t quote, backslash, open, close;
};

#if defined(__SSE2__)
inline std::uint64_t bits16(__m128i bytes, char c)
{
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(c))));
}

// SSE2 is part of every x86-64: no dispatch needed. '{' and '[' (0x7B, 0x5B) differ only in bit
// 0x20, as do '}' and ']': one compare finds both.
template <int Part> inline void addPart(const char* at, BlockMasks& masks)
{
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at + 16 * Part));
    const __m128i folded = _mm_or_si128(bytes, _mm_set1_epi8(0x20));
    masks.quote |= bits16(bytes, '"') << (16 * Part);
    masks.backslash |= bits16(bytes, '\\') << (16 * Part);
    masks.open |= bits16(folded, '{') << (16 * Part);
    masks.close |= bits16(folded, '}') << (16 * Part);
}

inline BlockMasks blockMasks(const char* at)
{
    BlockMasks masks {};
    addPart<0>(at, masks); // written out: constant shifts, no loop
    addPart<1>(at, masks);
    addPart<2>(at, masks);
    addPart<3>(at, masks);
    return masks;
}
#else
inline BlockMasks blockMasks(const char* at)
{
    BlockMasks masks {};
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t { 1 } << i;
        const char c = at[i];
        masks.quote |= c == '"' ? bit : 0;
        masks.backslash |= c == '\\' ? bit : 0;
        masks.open |= c == '{' || c == '[' ? bit : 0;
        masks.close |= c == '}' || c == ']' ? bit : 0;
    }
    return masks;
}
#endif

// The characters escaped by a backslash (the one after each odd run of backslashes), carrying a
// run that ends a block into the next (simdjson's branchless scan, as in its stage 1).
inline std::uint64_t escapedChars(std::uint64_t backslash, std::uint64_t& carried)
{
    constexpr std::uint64_t kEvenBits = 0x5555555555555555ULL;
    backslash &= ~carried;
    const std::uint64_t followsEscape = backslash << 1 | carried;
    const std::uint64_t oddStarts = backslash & ~kEvenBits & ~followsEscape;
    const std::uint64_t sum = oddStarts + backslash;
    carried = sum < oddStarts ? 1 : 0;
    const std::uint64_t invert = sum << 1;
    return (kEvenBits ^ invert) & followsEscape;
}

// Bit i set when byte i is inside a string (its opening quote included, its closing one not).
inline std::uint64_t prefixXor(std::uint64_t bits)
{
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}

// Brackets are counted with two popcounts a block. Baseline x86-64 has no POPCNT instruction and
// GCC calls a library routine instead (4 % of an import's time on the reading thread): a copy
// for CPUs that have it is chosen at load time.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RIDGELINE_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define RIDGELINE_POPCNT_CLONES
#endif

// The end of the object or array that opens at `at`, 64 bytes at a time: the quotes not escaped
// mark the strings, and the brackets outside them are counted. Reads up to 63 bytes past `end`
// (the window's padding), ignoring them.
RIDGELINE_POPCNT_CLONES std::size_t containerEnd(const char* text, std::size_t at, std::size_t end)
{
    std::int64_t depth = 0;
    std::uint64_t carried = 0; // a backslash run ends the last block
    std::uint64_t inString = 0; // all ones when the last block ended inside a string
    for (std::size_t block = at; block < end; block += 64) {
        const std::size_t left = end - block;
        const std::uint64_t valid = left >= 64 ? ~std::uint64_t { 0 } : (std::uint64_t { 1 } << left) - 1;
        const BlockMasks masks = blockMasks(text + block);
        const std::uint64_t quotes = masks.quote & ~escapedChars(masks.backslash & valid, carried) & valid;
        const std::uint64_t strings = prefixXor(quotes) ^ inString;
        inString = static_cast<std::uint64_t>(static_cast<std::int64_t>(strings) >> 63);
        const std::uint64_t opens = masks.open & ~strings & valid;
        const std::uint64_t closes = masks.close & ~strings & valid;
        const auto openCount = static_cast<std::int64_t>(std::popcount(opens));
        const auto closeCount = static_cast<std::int64_t>(std::popcount(closes));
        // Most blocks can neither close the value nor nest it too deep: counted whole.
        if (depth > closeCount && depth + openCount <= static_cast<std::int64_t>(kMaxDepth)) {
            depth += openCount - closeCount;
            continue;
        }
        for (std::uint64_t brackets = opens | closes; brackets != 0; brackets &= brackets - 1) {
            const int bit = std::countr_zero(brackets);
            depth += static_cast<std::int64_t>((opens >> bit) & 1) * 2 - 1; // no branch on which
            if (depth > static_cast<std::int64_t>(kMaxDepth))
                return kTooDeep;
            if (depth == 0)
                return block + static_cast<std::size_t>(bit) + 1;
        }
    }
    return kNeedMore;
}

// The end of the JSON value that starts at `at` (an object, array, string or scalar); kNeedMore
// when the text ends first. Brackets are only counted: simdjson checks that they match.
std::size_t valueEndIn(const char* text, std::size_t at, std::size_t end)
{
    switch (classOf(text[at])) {
    case Quote:
        return stringEnd(text, at, end);
    case Open:
        return containerEnd(text, at, end);
    default: // a number or a literal: up to the next delimiter, space or bracket
        for (std::size_t i = at; i < end; ++i) {
            const auto c = classOf(text[i]);
            if (c != Plain && c != Open && c != Quote)
                return i;
        }
        return kNeedMore;
    }
}

class Splitter {
public:
    Splitter(InputSource& source, const SplitHandlers& handlers, const SplitOptions& options)
        : m_source(source)
        , m_handlers(handlers)
        , m_options(options)
        , m_buffer(std::max<std::size_t>(options.windowBytes, 16) + kPadding)
    { }

    core::Status run()
    {
        auto first = peek();
        if (first.hasError())
            return first.error();
        if (first.value() < 0)
            return core::makeError(core::ErrorCode::BadFile, fmt::format("{}: the file is empty", name()));
        if (first.value() == '[')
            RIDGELINE_TRY(eventArray());
        else if (first.value() == '{')
            RIDGELINE_TRY(members());
        else
            return malformed("a trace is a JSON object or array");
        auto after = peek();
        if (after.hasError())
            return after.error();
        if (after.value() >= 0)
            return core::makeError(core::ErrorCode::BadFile,
                fmt::format("{}: malformed JSON: unexpected text after the trace at byte {}", name(), offsetOf(m_pos)));
        return {};
    }

private:
    const std::string& name() const { return m_source.name(); }
    char* text() { return m_buffer.data(); }
    std::size_t usable() const { return m_buffer.size() - kPadding; }
    std::uint64_t offsetOf(std::size_t position) const { return m_shifted + position - 1; }

    core::Error malformed(std::string_view what) const
    {
        return core::makeError(
            core::ErrorCode::BadFile, fmt::format("{}: malformed JSON at byte {}: {}", name(), offsetOf(m_pos), what));
    }
    core::Error tooDeep() const
    {
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: malformed trace: the value at byte {} is nested deeper than {} levels", name(),
                offsetOf(m_pos), kMaxDepth));
    }
    core::Error truncated() const
    {
        return core::makeError(core::ErrorCode::BadFile,
            fmt::format("{}: truncated or malformed JSON: the text ends at byte {} inside an unclosed object, array "
                        "or string",
                name(), offsetOf(m_end)));
    }

    // Reads more text after what is kept ([m_keep, m_end) moves to position 1; position 0 stays free
    // for the '[' of a batch). False at the end of the text.
    core::Result<bool> fill()
    {
        if (m_eof)
            return false;
        // Kept text moves to the front only when the next read would not fit after it.
        if (m_keep > 1 && usable() - m_end < m_options.readBytes) {
            const std::size_t shift = m_keep - 1;
            std::memmove(text() + 1, text() + m_keep, m_end - m_keep);
            m_shifted += shift;
            m_keep -= shift;
            m_pos -= shift;
            m_end -= shift;
            if (m_batchOpen) {
                m_batchStart -= shift;
                m_lastEnd = m_lastEnd > shift ? m_lastEnd - shift : 0;
            }
        }
        if (m_end == usable() && usable() >= m_options.maxValueBytes)
            return core::makeError(core::ErrorCode::BadFile,
                fmt::format("{}: the JSON value (an event or a top-level member) at byte {} is larger than {} MB, "
                            "the most Ridgeline reads as one value",
                    name(), offsetOf(m_keep), m_options.maxValueBytes >> 20));
        if (m_end == usable()) // one value is bigger than the window: the window grows for it
            m_buffer.resize((m_buffer.size() - kPadding) * 2 + kPadding);
        auto got = m_source.read(text() + m_end, std::min(usable() - m_end, m_options.readBytes));
        if (got.hasError())
            return got.error();
        if (got.value() == 0) {
            m_eof = true;
            return false;
        }
        m_end += got.value();
        return true;
    }

    // The next character after white space, or -1 at the end of the text.
    core::Result<int> peek()
    {
        while (true) {
            while (m_pos < m_end && classOf(text()[m_pos]) == Space)
                ++m_pos;
            if (m_pos < m_end)
                return static_cast<int>(static_cast<unsigned char>(text()[m_pos]));
            if (!m_batchOpen)
                m_keep = m_pos;
            auto more = fill();
            if (more.hasError())
                return more.error();
            if (!more.value())
                return -1;
        }
    }

    // The end of the value at m_pos, reading more as needed (m_pos follows the text when it moves).
    core::Result<std::size_t> valueEnd()
    {
        if (!m_batchOpen)
            m_keep = m_pos;
        while (true) {
            const std::size_t end = valueEndIn(text(), m_pos, m_end);
            if (end == kTooDeep)
                return tooDeep();
            if (end != kNeedMore)
                return end;
            auto more = fill();
            if (more.hasError())
                return more.error();
            if (!more.value())
                return truncated();
        }
    }

    core::Status members()
    {
        ++m_pos;
        auto c = peek();
        RIDGELINE_TRY(c);
        if (c.value() == '}') {
            ++m_pos;
            return {};
        }
        while (true) {
            if (c.value() < 0)
                return truncated();
            if (c.value() != '"')
                return malformed("expected a key");
            auto keyEnd = valueEnd();
            RIDGELINE_TRY(keyEnd);
            const std::string key(text() + m_pos, keyEnd.value() - m_pos);
            m_pos = keyEnd.value();
            c = peek();
            RIDGELINE_TRY(c);
            if (c.value() != ':')
                return c.value() < 0 ? core::Status(truncated()) : core::Status(malformed("expected ':' after a key"));
            ++m_pos;
            c = peek();
            RIDGELINE_TRY(c);
            if (c.value() < 0)
                return truncated();
            if (key == "\"traceEvents\"" && c.value() == '[')
                RIDGELINE_TRY(eventArray());
            else
                RIDGELINE_TRY(member(key));
            c = peek();
            RIDGELINE_TRY(c);
            if (c.value() == '}') {
                ++m_pos;
                return {};
            }
            if (c.value() != ',')
                return c.value() < 0 ? core::Status(truncated()) : core::Status(malformed("expected ',' or '}'"));
            ++m_pos;
            c = peek();
            RIDGELINE_TRY(c);
        }
    }

    core::Status member(const std::string& key)
    {
        auto end = valueEnd();
        RIDGELINE_TRY(end);
        std::string object;
        object.reserve(key.size() + (end.value() - m_pos) + 3 + kPadding);
        object.append("{").append(key).append(":").append(text() + m_pos, end.value() - m_pos).append("}");
        m_pos = end.value();
        if (m_handlers.member)
            RIDGELINE_TRY(m_handlers.member(object, object.capacity()));
        return {};
    }

    core::Status eventArray()
    {
        ++m_pos;
        auto c = peek();
        RIDGELINE_TRY(c);
        if (c.value() == ']') {
            ++m_pos;
            return {};
        }
        while (true) {
            if (c.value() < 0)
                return truncated();
            if (!m_batchOpen) {
                m_batchOpen = true;
                m_batchStart = m_pos;
                m_lastEnd = 0;
                m_keep = m_pos;
            }
            std::size_t end = valueEndIn(text(), m_pos, m_end);
            if (end == kTooDeep)
                return tooDeep();
            if (end == kNeedMore) {
                if (m_lastEnd > m_batchStart) // hand over the whole events first: the window is then free
                    RIDGELINE_TRY(flush());
                if (!m_batchOpen) {
                    m_batchOpen = true;
                    m_batchStart = m_pos;
                    m_lastEnd = 0;
                }
                m_keep = m_batchStart;
                auto found = valueEnd();
                RIDGELINE_TRY(found);
                end = found.value();
            }
            m_lastEnd = end;
            m_pos = end;
            c = peek();
            RIDGELINE_TRY(c);
            if (c.value() == ']') {
                RIDGELINE_TRY(flush());
                ++m_pos;
                return {};
            }
            if (c.value() != ',')
                return c.value() < 0 ? core::Status(truncated())
                                     : core::Status(malformed("expected ',' or ']' after an event"));
            if (m_lastEnd - m_batchStart >= m_options.batchBytes)
                RIDGELINE_TRY(flush());
            ++m_pos;
            c = peek();
            RIDGELINE_TRY(c);
            if (c.value() == ']')
                return malformed("an event list ends with ','");
        }
    }

    // Hands [m_batchStart, m_lastEnd) to simdjson as "[...]", in place: the bytes just before and
    // just after are separators or space, replaced for the call and put back.
    core::Status flush()
    {
        const std::size_t open = m_batchStart - 1;
        const std::size_t close = m_lastEnd;
        const char before = text()[open];
        const char after = text()[close];
        text()[open] = '[';
        text()[close] = ']';
        core::Status handled;
        if (m_handlers.events)
            handled = m_handlers.events(
                std::string_view(text() + open, close + 1 - open), m_buffer.size() - open, offsetOf(open));
        text()[open] = before;
        text()[close] = after;
        m_batchOpen = false;
        m_lastEnd = 0;
        m_keep = m_pos;
        if (m_handlers.progress)
            m_handlers.progress(m_source.fractionRead());
        return handled;
    }

    InputSource& m_source;
    const SplitHandlers& m_handlers;
    SplitOptions m_options;
    std::vector<char> m_buffer;
    std::size_t m_keep = 1; // text before this position may be dropped
    std::size_t m_pos = 1;
    std::size_t m_end = 1;
    std::uint64_t m_shifted = 0; // text dropped from the front so far
    bool m_eof = false;
    bool m_batchOpen = false;
    std::size_t m_batchStart = 0;
    std::size_t m_lastEnd = 0;
};

} // namespace

core::Status splitTrace(InputSource& source, const SplitHandlers& handlers, const SplitOptions& options)
{
    return Splitter(source, handlers, options).run();
}

} // namespace ridgeline::collectors::kineto
