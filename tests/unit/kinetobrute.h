// SPDX-License-Identifier: MIT
// What the PyTorch operator tests (issue 17) compare with: a Kineto trace read with zlib +
// nlohmann::json, and each GPU op linked to its operator by brute force (its launching call by
// correlation id, then the smallest cpu_op of the call's thread whose time holds the call, or the
// operator the call's External id names), independently of the importer's stack and of
// core's operator index. For the tests that link ZLIB and nlohmann_json.
#pragma once

#include "gunzip.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ridgeline::testing::kineto {

// long double keeps ns-resolution timestamps (1712195495519689.047 µs) exact to the ns.
using Json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t, long double>;

inline std::int64_t toNs(const Json& v)
{
    if (v.is_number_integer())
        return v.get<std::int64_t>() * 1000;
    return static_cast<std::int64_t>(std::llround(v.get<long double>() * 1000.0L));
}

// An integer field that some events write as a string ("pid": "Spans"); like the importer, numeric
// strings count and others are 0.
inline std::int64_t intOf(const Json& event, const char* key)
{
    if (!event.contains(key))
        return 0;
    const auto& v = event[key];
    if (v.is_number())
        return v.is_number_integer() ? v.get<std::int64_t>()
                                     : static_cast<std::int64_t>(std::llround(v.get<long double>()));
    if (!v.is_string())
        return 0;
    try {
        return std::stoll(v.get<std::string>());
    } catch (const std::exception&) {
        return 0;
    }
}

inline std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

struct Event {
    std::int64_t pid = 0, tid = 0, start = 0, end = 0, externalId = 0, correlation = 0;
    std::string name;
    std::string cat; // lower case
    std::size_t index = 0; // among operators, in file order
    std::int64_t duration() const { return end - start; }
    bool holds(std::int64_t s, std::int64_t e) const { return start <= s && e <= end; }
};

struct Trace {
    std::vector<Event> ops; // cpu_op events in file order
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> opsOfThread;
    std::map<std::int64_t, Event> callOf; // correlation -> earliest runtime/driver call
    std::vector<Event> gpuOps; // kernels, copies, memsets
};

inline Trace readTrace(const std::string& path)
{
    const auto doc = Json::parse(ridgeline::testing::gunzipFile(path));
    Trace t;
    for (const auto& ev : doc["traceEvents"]) {
        if (!ev.contains("ph") || ev["ph"] != "X" || !ev.contains("cat") || !ev.contains("ts"))
            continue;
        const auto cat = lower(ev["cat"].get<std::string>());
        Event e;
        e.pid = intOf(ev, "pid");
        e.tid = intOf(ev, "tid");
        e.start = toNs(ev["ts"]);
        e.end = e.start + (ev.contains("dur") ? toNs(ev["dur"]) : 0);
        e.name = ev.value("name", "");
        e.cat = cat;
        if (ev.contains("args")) {
            e.externalId = intOf(ev["args"], "External id");
            e.correlation = intOf(ev["args"], "correlation");
        }
        if (cat == "cpu_op") {
            e.index = t.ops.size();
            t.opsOfThread[{ e.pid, e.tid }].push_back(e.index);
            t.ops.push_back(e);
        } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
            auto [it, added] = t.callOf.try_emplace(e.correlation, e);
            if (!added && e.start < it->second.start)
                it->second = e;
        } else if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
            t.gpuOps.push_back(e);
        }
    }
    return t;
}

// The smallest operator of the thread that holds [s, e]; of equal ones the later in the file (the
// importer nests an operator listed after an identical one inside it).
inline std::optional<std::size_t> innermostByTime(
    const Trace& t, std::int64_t pid, std::int64_t tid, std::int64_t s, std::int64_t e)
{
    auto it = t.opsOfThread.find({ pid, tid });
    if (it == t.opsOfThread.end())
        return std::nullopt;
    std::optional<std::size_t> best;
    for (std::size_t i : it->second) {
        const Event& op = t.ops[i];
        if (!op.holds(s, e))
            continue;
        if (!best
            || std::tuple(op.duration(), -op.start, -static_cast<std::int64_t>(i))
                < std::tuple(t.ops[*best].duration(), -t.ops[*best].start, -static_cast<std::int64_t>(*best)))
            best = i;
    }
    return best;
}

// Per GPU op of the trace (in t.gpuOps order), the operator (index into t.ops) that launched it;
// nullopt when unattributed. `linked`, `disagrees`, `unmatched` count the External id links.
struct Links {
    std::vector<std::optional<std::size_t>> opOfGpuOp;
    std::int64_t linked = 0, disagrees = 0, unmatched = 0;
};

inline Links linkGpuOps(const Trace& t)
{
    Links out;
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> byExternal; // first in the file
    for (const auto& op : t.ops) {
        if (op.externalId != 0)
            byExternal.try_emplace({ op.pid, op.externalId }, op.index);
    }
    for (const auto& g : t.gpuOps) {
        std::optional<std::size_t> op;
        auto call = t.callOf.find(g.correlation);
        if (g.correlation != 0 && call != t.callOf.end()) {
            const Event& c = call->second;
            op = innermostByTime(t, c.pid, c.tid, c.start, c.end);
            if (c.externalId != 0 && c.externalId != c.correlation) {
                auto named = byExternal.find({ c.pid, c.externalId });
                if (named != byExternal.end() && t.ops[named->second].tid == c.tid
                    && t.ops[named->second].holds(c.start, c.end)) {
                    ++out.linked;
                    out.disagrees += op != named->second ? 1 : 0;
                    op = named->second;
                } else {
                    ++out.unmatched;
                }
            }
        }
        out.opOfGpuOp.push_back(op);
    }
    return out;
}

// The outermost cpu_op of its thread that holds operator `i` (itself when none does): the longest,
// of equal ones the earliest in the file.
inline std::size_t outermostOf(const Trace& t, std::size_t i)
{
    const Event& op = t.ops[i];
    std::size_t best = i;
    for (std::size_t j : t.opsOfThread.at({ op.pid, op.tid })) {
        const Event& other = t.ops[j];
        if (!other.holds(op.start, op.end))
            continue;
        if (std::tuple(-other.duration(), j) < std::tuple(-t.ops[best].duration(), best))
            best = j;
    }
    return best;
}

} // namespace ridgeline::testing::kineto
