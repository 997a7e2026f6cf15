// SPDX-License-Identifier: MIT
// The timeline analysis of a session: its GPU ops (sessiongpuops.h) grouped by rank and device
// (and stream), read on two threads when the session is large.
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/profilersteps.h"
#include "ridgeline/core/timeline/timeline.h"
#include "sessiongpuops.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ridgeline::core {

namespace {

using GroupKey = std::pair<int, std::int64_t>; // rank, device
using OpGroups = std::map<GroupKey, std::vector<TimelineGpuOp>>;

// The ops of (a part of) a scan by rank, device and stream. A stream's ops come in start order in
// the file (they ran one after another), so each (rank, device) becomes a few sorted runs, a stream
// each, that analyzeTimeline merges in one pass: in storage order they were millions of runs, and
// their sort 11 % of a report of 10 M ops.
class StreamLists {
public:
    void add(int rank, std::int64_t deviceId, const TimelineGpuOp& op)
    {
        const Key key { rank, deviceId, op.streamId };
        if (m_last == kNone || !(m_lists[m_last].key == key)) {
            auto [it, inserted] = m_index.try_emplace(key, m_lists.size());
            if (inserted)
                m_lists.push_back(List { key, {} });
            m_last = it->second;
        }
        auto& chunks = m_lists[m_last].chunks;
        if (chunks.empty()) {
            chunks.emplace_back(); // grows as it fills: a hostile session may name a million streams
        } else if (chunks.back().size() == kChunkOps) {
            chunks.emplace_back();
            chunks.back().reserve(kChunkOps);
        }
        chunks.back().push_back(op);
    }

    // The parts' ops by (rank, device), stream by stream, the parts in the order given. Each group
    // is allocated once at its size and each chunk freed as it is copied.
    static OpGroups groups(std::span<StreamLists> parts)
    {
        std::map<GroupKey, std::size_t> sizes;
        for (const auto& part : parts)
            for (const auto& list : part.m_lists)
                for (const auto& chunk : list.chunks)
                    sizes[{ list.key.rank, list.key.deviceId }] += chunk.size();
        OpGroups out;
        for (const auto& [key, size] : sizes)
            out[key].reserve(size);
        for (auto& part : parts) {
            for (auto& list : part.m_lists) {
                auto& group = out[{ list.key.rank, list.key.deviceId }];
                for (auto& chunk : list.chunks) {
                    group.insert(group.end(), chunk.begin(), chunk.end());
                    std::vector<TimelineGpuOp>().swap(chunk);
                }
            }
        }
        return out;
    }

private:
    struct Key {
        int rank;
        std::int64_t deviceId;
        std::int64_t streamId;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const
        {
            return std::hash<std::uint64_t>()((static_cast<std::uint64_t>(k.deviceId) * 1000003u)
                ^ (static_cast<std::uint64_t>(k.streamId) * 31u) ^ static_cast<std::uint64_t>(k.rank));
        }
    };
    // A stream's ops in chunks (768 KB): a vector grown by doubling copied them again and again and
    // faulted in fresh pages each time (a tenth of a report of 10 M ops).
    static constexpr std::size_t kChunkOps = 16 * 1024;
    struct List {
        Key key;
        std::vector<std::vector<TimelineGpuOp>> chunks;
    };
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::vector<List> m_lists;
    std::unordered_map<Key, std::size_t, KeyHash> m_index;
    std::size_t m_last = kNone; // the list of the op before: ops of one stream often come together
};

// Every op of the whole session (no window) into `parts`: the kernels of the lower ids on this
// thread, the others and the copies, memsets and collectives on a second one when the session is
// large, the machine has two cores and the session is a file.
Status scanWholeSession(SessionReader& reader, const detail::SessionGpuOps& source, std::vector<StreamLists>& parts)
{
    const auto into = [](StreamLists& part) {
        return [&part](const detail::SessionGpuOp& g) {
            part.add(g.rank, g.deviceId, g.op);
            return true;
        };
    };
    constexpr std::int64_t kLowest = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t kHighest = std::numeric_limits<std::int64_t>::max();
    auto range = reader.kernelIdRange();
    if (range.hasError())
        return range.error();
    std::optional<SessionReader> second;
    if (range.value())
        second = reader.readerForSplitScan(*range.value());
    if (!second) {
        parts.resize(1);
        RIDGELINE_TRY(source.forEachKernel(reader, kLowest, kHighest, into(parts[0])));
        return source.forEachOther(reader, into(parts[0]));
    }
    // The second thread also reads the copies and memsets, so it takes fewer kernels: the split
    // puts half of all GPU ops on each side (ids are dense in files Ridgeline writes).
    auto memOps = reader.memOpIdRange();
    if (memOps.hasError())
        return memOps.error();
    const std::int64_t lowest = range.value()->first;
    const std::int64_t highest = range.value()->second;
    const auto spanOf = [](const std::optional<std::pair<std::int64_t, std::int64_t>>& r) {
        return r ? static_cast<double>(saturatingSub(r->second, r->first)) + 1.0 : 0.0;
    };
    const double kernels = spanOf(range.value());
    const double others = spanOf(memOps.value());
    const double lowerShare = std::clamp((kernels + others) / 2.0 / kernels, 0.5, 1.0);
    // Hostile ids can span all of int64: a double that large does not convert back.
    const double offset = static_cast<double>(saturatingSub(highest, lowest)) * lowerShare;
    const std::int64_t middle = offset >= 9.0e18
        ? lowest / 2 + highest / 2
        : std::clamp(saturatingAdd(lowest, static_cast<std::int64_t>(offset)), lowest, highest);
    parts.resize(2);
    Status upperRead;
    Status lowerRead;
    {
        // Plain references, not structured bindings: clang 14 (the sanitizer build) cannot capture those.
        StreamLists& upper = parts[1];
        SessionReader& upperReader = *second;
        std::jthread worker([&] {
            upperRead = source.forEachKernel(upperReader, middle + 1, highest, into(upper));
            if (upperRead.ok())
                upperRead = source.forEachOther(upperReader, into(upper));
        });
        lowerRead = source.forEachKernel(reader, lowest, middle, into(parts[0]));
    }
    RIDGELINE_TRY(lowerRead);
    return upperRead;
}

// analyzeTimeline of every group, on two threads when there are several.
std::vector<TimelineSummary> analyzeGroups(OpGroups& groups, const std::optional<TimeWindow>& window)
{
    std::vector<std::pair<const GroupKey*, std::vector<TimelineGpuOp>*>> work;
    for (auto& [key, ops] : groups)
        work.emplace_back(&key, &ops);
    std::vector<TimelineSummary> summaries(work.size());
    std::atomic<std::size_t> next { 0 };
    const auto drain = [&] {
        for (std::size_t i = next++; i < work.size(); i = next++) {
            summaries[i] = analyzeTimeline(*work[i].second, window);
            summaries[i].rank = work[i].first->first;
            summaries[i].deviceId = work[i].first->second;
            std::vector<TimelineGpuOp>().swap(*work[i].second); // its memory back as soon as it is done
        }
    };
    {
        std::optional<std::jthread> helper;
        if (work.size() > 1 && std::thread::hardware_concurrency() >= 2)
            helper.emplace(drain);
        drain();
    }
    return summaries;
}

} // namespace

Result<std::vector<TimelineSummary>> analyzeSessionTimeline(
    SessionReader& reader, const KernelVerdictSource& verdicts, const TimelineSelection& selection)
{
    return detail::analyzeSessionTimeline(reader, verdicts, selection, {});
}

Result<std::vector<TimelineSummary>> detail::analyzeSessionTimeline(SessionReader& reader,
    const KernelVerdictSource& verdicts, const TimelineSelection& selection,
    const std::function<void(int rank, std::int64_t deviceId, const TimelineGpuOp& op)>& eachOp)
{
    std::optional<TimeWindow> window = selection.window;
    if (selection.step) {
        auto stepWindow = profilerStepWindow(reader, *selection.step);
        if (stepWindow.hasError())
            return stepWindow.error();
        window = stepWindow.value();
    }
    if (window && window->endNs <= window->startNs)
        return makeError(ErrorCode::InvalidArgument, "The time window is empty: its end must come after its start.");
    // The whole session: kernels in storage order (a narrow scan); analyzeTimeline orders them.
    auto source = detail::SessionGpuOps::load(reader, { window, true, window.has_value() }, verdicts);
    if (source.hasError())
        return source.error();
    std::vector<StreamLists> parts;
    if (!window && !eachOp) {
        RIDGELINE_TRY(scanWholeSession(reader, source.value(), parts));
    } else {
        parts.resize(1);
        RIDGELINE_TRY(source.value().forEach(reader, [&](const detail::SessionGpuOp& g) {
            parts[0].add(g.rank, g.deviceId, g.op);
            if (eachOp)
                eachOp(g.rank, g.deviceId, g.op);
            return true;
        }));
    }
    OpGroups groups = StreamLists::groups(parts);
    parts.clear();

    std::vector<TimelineSummary> result;
    for (auto& s : analyzeGroups(groups, window)) {
        if (s.kernels + s.memcpys + s.memsets + s.collectives > 0 || !window)
            result.push_back(std::move(s));
    }
    return result;
}

namespace {

// "[-]<digits>[.<digits>][ns|us|ms|s]" -> ns, in exact decimal arithmetic (epoch-ns bounds such
// as 1661203463063943000 do not fit a double's 53 bits). A fraction of a nanosecond rounds to the
// nearest, halves away from zero; a value beyond int64 is rejected.
__extension__ using Wide = __int128; // exact for every int64 times a unit, with room to spare

std::optional<std::int64_t> parseTime(std::string_view text)
{
    std::int64_t scale = 1;
    int scaleDigits = 0;
    for (const auto& [suffix, factor, digits] : { std::tuple<std::string_view, std::int64_t, int> { "ns", 1, 0 },
             { "us", 1'000, 3 }, { "ms", 1'000'000, 6 }, { "s", 1'000'000'000, 9 } }) {
        if (text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            scale = factor;
            scaleDigits = digits;
            break;
        }
    }
    const bool negative = text.starts_with('-');
    if (negative)
        text.remove_prefix(1);
    const auto dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
    const auto allDigits = [](std::string_view s) {
        return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if ((whole.empty() && fraction.empty()) || !allDigits(whole) || !allDigits(fraction)
        || (dot != std::string_view::npos && fraction.empty()))
        return std::nullopt;
    constexpr Wide limit = std::numeric_limits<std::int64_t>::max();
    Wide ns = 0;
    for (char c : whole) {
        ns = ns * 10 + (c - '0');
        if (ns > limit)
            return std::nullopt;
    }
    ns *= scale;
    // The fraction's first scaleDigits digits are whole nanoseconds; the next one rounds.
    Wide place = scale;
    for (std::size_t i = 0; i < fraction.size() && i <= static_cast<std::size_t>(scaleDigits); ++i) {
        const int digit = fraction[i] - '0';
        if (static_cast<int>(i) == scaleDigits) {
            if (digit >= 5)
                ns += 1;
            break;
        }
        place /= 10;
        ns += digit * place;
    }
    if (ns > limit)
        return std::nullopt;
    return static_cast<std::int64_t>(negative ? -ns : ns);
}

} // namespace

Result<TimeWindow> parseTimeWindow(std::string_view text)
{
    const auto colon = text.find(':');
    const auto invalid = [&] {
        return makeError(ErrorCode::InvalidArgument,
            "Invalid time window \"" + std::string(text)
                + "\": expected START:END in ns, or with a unit (ns, us, ms, s), e.g. 1.5ms:2ms.");
    };
    if (colon == std::string_view::npos)
        return invalid();
    const auto start = parseTime(text.substr(0, colon));
    const auto end = parseTime(text.substr(colon + 1));
    if (!start || !end)
        return invalid();
    if (*end <= *start)
        return makeError(ErrorCode::InvalidArgument,
            "The time window \"" + std::string(text) + "\" is empty: its end must come after its start.");
    return TimeWindow { *start, *end };
}

} // namespace ridgeline::core
