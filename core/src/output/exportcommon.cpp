// SPDX-License-Identifier: MIT
#include "exportcommon.h"

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <unistd.h>

namespace ridgeline::core {

namespace {

struct VerdictColour {
    VerdictClass verdict;
    const char* traceName;
    const char* css;
};

// Catapult's reserved colours and their RGB values (tracing/base/color_scheme.html).
constexpr VerdictColour kColours[] = {
    { VerdictClass::ComputeBound, "terrible", "#b40000" }, // 180, 0, 0
    { VerdictClass::MemoryBound, "thread_state_runnable", "#85a0d2" }, // 133, 160, 210
    { VerdictClass::CommunicationBound, "detailed_memory_dump", "#b400b4" }, // 180, 0, 180
    { VerdictClass::LatencyBound, "thread_state_iowait", "#ff8c00" }, // 255, 140, 0
};
constexpr VerdictColour kUnknownColour { VerdictClass::Unknown, "generic_work", "#7d7d7d" }; // 125, 125, 125

const VerdictColour& colourOf(VerdictClass verdict)
{
    for (const auto& colour : kColours) {
        if (colour.verdict == verdict)
            return colour;
    }
    return kUnknownColour;
}

} // namespace

const char* traceColourForVerdict(VerdictClass verdict)
{
    return colourOf(verdict).traceName;
}

const char* htmlColourForVerdict(VerdictClass verdict)
{
    return colourOf(verdict).css;
}

std::string htmlEscape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        case '\0':
            out += "&#xFFFD;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

Status writeFileAtomically(const std::string& path, const std::function<Status(std::ostream&)>& write)
{
    namespace fs = std::filesystem;
    std::random_device random;
    const fs::path target(path);
    const fs::path temporary
        = target.parent_path() / fmt::format(".{}.tmp-{}-{:08x}", target.filename().string(), ::getpid(), random());
    auto remove = [&] {
        std::error_code ignored;
        fs::remove(temporary, ignored);
    };
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            return makeError(ErrorCode::Io, fmt::format("cannot write {}: {}", path, std::strerror(errno)));
        auto written = write(out);
        if (written.hasError()) {
            out.close();
            remove();
            return written.error();
        }
        out.flush();
        out.close();
        if (!out) {
            remove();
            return makeError(ErrorCode::Io, fmt::format("cannot write {} (disk full?)", path));
        }
    }
    std::error_code ec;
    fs::rename(temporary, target, ec);
    if (ec) {
        remove();
        return makeError(ErrorCode::Io, fmt::format("cannot write {}: {}", path, ec.message()));
    }
    return {};
}

} // namespace ridgeline::core

namespace ridgeline::core::detail {

Error readError(const Error& error)
{
    if (error.code != ErrorCode::Io)
        return error;
    return makeError(ErrorCode::BadFile, error.message);
}

std::string jsonString(std::string_view text)
{
    return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string microseconds(std::int64_t ns)
{
    const bool negative = ns < 0;
    // Via unsigned so that INT64_MIN has a magnitude too.
    const std::uint64_t magnitude
        = negative ? std::uint64_t(0) - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    return fmt::format("{}{}.{:03}", negative ? "-" : "", magnitude / 1000, magnitude % 1000);
}

std::string dimText(const Dim3& dim)
{
    return fmt::format("{}x{}x{}", dim.x, dim.y, dim.z);
}

std::vector<MemOp> sortedByStart(std::vector<MemOp> ops)
{
    std::stable_sort(ops.begin(), ops.end(), [](const MemOp& a, const MemOp& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs < b.endNs;
    });
    return ops;
}

Status forEachGpuOp(SessionReader& reader, const std::vector<MemOp>& memOps, const GpuOpVisitor& visit)
{
    std::size_t next = 0;
    auto analysed = analyzeSession(reader, [&](const Kernel& kernel, const KernelAnalysis& analysis) {
        while (next < memOps.size() && memOps[next].startNs <= kernel.startNs)
            visit.memOp(memOps[next++]);
        visit.kernel(kernel, analysis);
    });
    if (analysed.hasError())
        return readError(analysed.error());
    while (next < memOps.size())
        visit.memOp(memOps[next++]);
    return {};
}

} // namespace ridgeline::core::detail
