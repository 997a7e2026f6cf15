// SPDX-License-Identifier: MIT
// nccl-tests' S, algbw and busbw (src/*.cu *GetBw, doc/PERFORMANCE.md) and the collective verdict.
#include "ridgeline/core/analysis/collectives.h"

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <utility>

namespace ridgeline::core {

namespace {

// Lower case without '_', ' ' and '-': "_allgather_base" -> "allgatherbase".
std::string squashed(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (c != '_' && c != ' ' && c != '-')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

std::string percentOf(double fraction)
{
    if (fraction > 0 && fraction < 0.01)
        return fmt::format("{:.1g} %", fraction * 100.0);
    return fmt::format("{:.0f} %", fraction * 100.0);
}

// Decimal megabytes as people read message sizes ("26.5 MB"), bytes below 1 kB.
std::string messageSize(double bytes)
{
    if (bytes < 1e3)
        return fmt::format("{:.0f} B", bytes);
    if (bytes < 1e6)
        return fmt::format("{:.3g} kB", bytes / 1e3);
    if (bytes < 1e9)
        return fmt::format("{:.3g} MB", bytes / 1e6);
    return fmt::format("{:.3g} GB", bytes / 1e9);
}

} // namespace

CollectiveType collectiveTypeFromName(std::string_view name)
{
    const std::string s = squashed(name);
    // Longer names first: "reducescatter" before "reduce", "sendrecv" before "send".
    static constexpr std::array<std::pair<std::string_view, CollectiveType>, 12> kPrefixes { {
        { "allreduce", CollectiveType::AllReduce },
        { "allgather", CollectiveType::AllGather },
        { "reducescatter", CollectiveType::ReduceScatter },
        { "alltoall", CollectiveType::AllToAll },
        { "broadcast", CollectiveType::Broadcast },
        { "sendrecv", CollectiveType::SendRecv },
        { "reduce", CollectiveType::Reduce },
        { "send", CollectiveType::Send },
        { "recv", CollectiveType::Recv },
        { "gather", CollectiveType::Gather },
        { "scatter", CollectiveType::Scatter },
        { "barrier", CollectiveType::Barrier },
    } };
    for (const auto& [prefix, type] : kPrefixes) {
        if (s.rfind(prefix, 0) == 0)
            return type;
    }
    return CollectiveType::Unknown;
}

const char* toString(CollectiveType type)
{
    switch (type) {
    case CollectiveType::AllReduce:
        return "AllReduce";
    case CollectiveType::AllGather:
        return "AllGather";
    case CollectiveType::ReduceScatter:
        return "ReduceScatter";
    case CollectiveType::AllToAll:
        return "AlltoAll";
    case CollectiveType::Broadcast:
        return "Broadcast";
    case CollectiveType::Reduce:
        return "Reduce";
    case CollectiveType::SendRecv:
        return "SendRecv";
    case CollectiveType::Send:
        return "Send";
    case CollectiveType::Recv:
        return "Recv";
    case CollectiveType::Gather:
        return "Gather";
    case CollectiveType::Scatter:
        return "Scatter";
    case CollectiveType::Barrier:
        return "Barrier";
    case CollectiveType::Unknown:
        break;
    }
    return "unknown";
}

std::optional<double> busBandwidthFactor(CollectiveType type, int ranks)
{
    if (ranks < 1)
        return std::nullopt;
    const double n = ranks;
    switch (type) {
    case CollectiveType::AllReduce:
        return 2.0 * (n - 1) / n;
    case CollectiveType::AllGather:
    case CollectiveType::ReduceScatter:
    case CollectiveType::AllToAll:
    case CollectiveType::Gather:
    case CollectiveType::Scatter:
        return (n - 1) / n;
    case CollectiveType::Broadcast:
    case CollectiveType::Reduce:
    case CollectiveType::SendRecv:
    case CollectiveType::Send:
    case CollectiveType::Recv:
        return 1.0;
    case CollectiveType::Barrier:
    case CollectiveType::Unknown:
        break;
    }
    return std::nullopt;
}

std::optional<std::int64_t> collectiveBytes(
    CollectiveType type, std::int64_t inElements, std::int64_t outElements, int elementBytes, int ranks)
{
    if (elementBytes <= 0)
        return std::nullopt;
    const std::int64_t n = ranks;
    std::int64_t elements = -1;
    switch (type) {
    case CollectiveType::AllGather: // out = n x in: the whole output
    case CollectiveType::Gather:
        elements = outElements > 0 ? outElements : (inElements > 0 && n > 0 ? inElements * n : -1);
        break;
    case CollectiveType::ReduceScatter: // in = n x out: the whole input
    case CollectiveType::Scatter:
        elements = inElements > 0 ? inElements : (outElements > 0 && n > 0 ? outElements * n : -1);
        break;
    default:
        elements = inElements > 0 ? inElements : outElements;
        break;
    }
    if (elements <= 0)
        return std::nullopt;
    return elements * elementBytes;
}

std::optional<Bandwidth> collectiveBandwidth(CollectiveType type, double bytes, double seconds, int ranks)
{
    const auto factor = busBandwidthFactor(type, ranks);
    if (!factor || !(bytes > 0) || !(seconds > 0))
        return std::nullopt;
    Bandwidth bw;
    bw.algBytesPerS = bytes / seconds;
    bw.busBytesPerS = bw.algBytesPerS * *factor;
    return bw;
}

void CollectiveFigures::add(const CollectiveFigures& other)
{
    if (collective.empty())
        collective = other.collective;
    if (algorithm.empty())
        algorithm = other.algorithm;
    if (protocol.empty())
        protocol = other.protocol;
    if (link.name.empty() || (link.bytesPerS <= 0 && other.link.bytesPerS > 0))
        link = other.link;
    launches += other.launches;
    bytes += other.bytes;
    busBytes += other.busBytes;
    durationNs += other.durationNs;
    waitNs += other.waitNs;
    for (const auto& [rank, late] : other.lateRanks) {
        auto& mine = lateRanks[rank];
        mine.first += late.first;
        mine.second += late.second;
    }
}

std::optional<double> CollectiveFigures::busBytesPerS() const
{
    if (launches <= 0 || !(durationNs > 0) || !(busBytes > 0))
        return std::nullopt;
    return busBytes / (durationNs / 1e9);
}

std::optional<double> CollectiveFigures::algBytesPerS() const
{
    if (launches <= 0 || !(durationNs > 0) || !(bytes > 0))
        return std::nullopt;
    return bytes / (durationNs / 1e9);
}

std::string waitCause(const CollectiveFigures& f)
{
    // Waiting matters once it is a tenth of the time in these collectives.
    if (f.lateRanks.empty() || !(f.waitNs > 0) || (f.durationNs > 0 && f.waitNs < 0.1 * f.durationNs))
        return {};
    const auto worst = std::max_element(f.lateRanks.begin(), f.lateRanks.end(),
        [](const auto& x, const auto& y) { return x.second.second < y.second.second; });
    const auto [times, waited] = worst->second;
    return fmt::format("waiting for rank {} (arrives {} late on average)", worst->first,
        formatDuration(waited / static_cast<double>(std::max<std::int64_t>(times, 1))));
}

void classifyCollective(KernelAnalysis& a, const std::string& collective)
{
    a.verdict = VerdictClass::CommunicationBound;
    a.boundBy = "collective";
    a.boundUtilization.reset();
    const CollectiveFigures* f = a.comm ? &*a.comm : nullptr;
    const auto busbw = f ? f->busBytesPerS() : std::nullopt;
    if (!busbw) {
        a.reason = fmt::format(
            "communication-bound: carries the collective {}; message sizes missing, so no bus bandwidth", collective);
        if (const auto cause = f ? waitCause(*f) : std::string(); !cause.empty())
            a.reason += "; " + cause;
        return;
    }
    std::vector<std::string> details;
    details.push_back(messageSize(f->bytes / static_cast<double>(f->launches)) + " messages");
    if (!f->algorithm.empty() || !f->protocol.empty()) {
        details.back() += ", " + f->algorithm + (f->algorithm.empty() || f->protocol.empty() ? "" : "/") + f->protocol;
        details.back() += f->algorithm.empty() ? " protocol" : "";
    }
    if (f->link.inferred && !f->link.note.empty() && f->link.bytesPerS > 0)
        details.push_back(f->link.note);
    if (const auto cause = waitCause(*f); !cause.empty())
        details.push_back(cause);
    std::string head;
    if (f->link.bytesPerS > 0) {
        const double util = *busbw / f->link.bytesPerS;
        if (const auto link = resourceFromString(f->link.name))
            a.utilization[*link] = util;
        a.boundUtilization = util;
        if (util >= kBoundThreshold) {
            a.boundBy = f->link.name;
            head = fmt::format("communication-bound ({}): busbw {} = {} of {}", f->link.name, formatRate(*busbw, "B/s"),
                percentOf(util), formatRate(f->link.bytesPerS, "B/s"));
        } else {
            head = fmt::format("communication, not bandwidth-bound: busbw {} = {} of {} {}", formatRate(*busbw, "B/s"),
                percentOf(util), f->link.name, formatRate(f->link.bytesPerS, "B/s"));
        }
    } else {
        head = fmt::format("communication-bound: {} busbw {}; no ceiling known for its link{}", collective,
            formatRate(*busbw, "B/s"), f->link.note.empty() ? "" : " (" + f->link.note + ")");
    }
    a.reason = head;
    for (const auto& d : details)
        a.reason += "; " + d;
}

} // namespace ridgeline::core
