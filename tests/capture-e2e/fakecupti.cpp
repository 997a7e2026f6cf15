// SPDX-License-Identifier: MIT
// A stand-in libcupti.so.13 for the end-to-end capture tests: exactly the CUPTI calls
// libridgeline-inject.so makes (Activity, Callback, Profiler target, Range Profiler and Profiler
// Host API, and InitializeInjectionNvtx2), written against the real CUDA 13 headers. Records are
// the real CUDA 13 structs (CUpti_ActivityKernel10, Memcpy6, MemcpyPtoP4, Memset4, API, Marker2,
// MarkerData2, Synchronization2, Device5, Name), delivered through the registered buffer
// callbacks: when a buffer fills, from a periodic flush thread, and from cuptiActivityFlushAll
// (also in a fatal-signal handler, where it uses no malloc and no lock it cannot give up). The
// "GPU work" comes from the stand-in libcuda.so.1 (fakedriver.h); counter values from fakework.h.
//
// Every record handed to the collector, every counter range and every cue it acted on is also
// written to a ledger ($RIDGELINE_FAKE_LEDGER, one line per event, appended with one write(2)), so
// that a test can check the merged session record by record. This proves the plumbing, not the GPU.
//
// Cues (environment):
//   RIDGELINE_FAKE_LEDGER=PATH          where the ledger goes (none: no ledger)
//   RIDGELINE_FAKE_CHIP=NAME            cuptiDeviceGetChipName's answer (default GH100)
//   RIDGELINE_FAKE_BUFFER_BYTES=N       bytes of each requested buffer used (default 65536)
//   RIDGELINE_FAKE_FLUSH_MS=N           worker period used instead of the one asked for
//   RIDGELINE_FAKE_DROP_EVERY=N         every Nth activity record is dropped (counted as dropped)
//   RIDGELINE_FAKE_RANGE_CUES=L         comma list of foreign:K / dropped:K: the K-th profiled launch
//                                       (1-based) records an extra range of another kernel, or
//                                       loses its range
//   RIDGELINE_FAKE_GRAPH_RANGES=M       node (default): a range per kernel node of a graph launch;
//                                       graph: one range for the whole launch; none: no range
//   RIDGELINE_FAKE_NAN_METRIC=NAME      that metric evaluates to NaN (not collected)
//   RIDGELINE_FAKE_REPLAY_US=N          a profiled kernel takes N us longer (its replay passes)
//   RIDGELINE_FAKE_NVTX_CREATE_CALLBACK=0  nvtxDomainCreateA is not reported to the subscriber
//   RIDGELINE_FAKE_FAIL=F=CODE[,F=CODE] CUPTI function F answers CUptiResult CODE
//
// The parts: this file holds the cues, the ledger and cuptiGetVersion/cuptiGetTimestamp;
// fakecupti_activity.cpp the activity records and buffers, fakecupti_callbacks.cpp the callback
// subscriber, fakecupti_hooks.cpp what the stand-in driver reports (API calls, GPU work),
// fakecupti_profiler.cpp the profiler target and range profiler, fakecupti_profilerhost.cpp the
// profiler host API, fakecupti_nvtx.cpp NVTX; fakecupti.h what they share.
#include "fakecupti.h"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cupti.h>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

using namespace fakecuda;
using namespace fakecuda::libcupti;

// ---------------------------------------------------------------------------------------------
// Cues and the ledger

namespace fakecuda::libcupti {

const Cues& cues()
{
    static const Cues* c = [] {
        auto* out = new Cues();
        auto get = [](const char* name) -> std::string {
            const char* v = std::getenv(name);
            return v != nullptr ? std::string(v) : std::string();
        };
        if (auto v = get("RIDGELINE_FAKE_CHIP"); !v.empty())
            out->chip = v;
        if (auto v = get("RIDGELINE_FAKE_BUFFER_BYTES"); !v.empty())
            out->bufferBytes = std::max<std::size_t>(1024, std::strtoull(v.c_str(), nullptr, 10));
        if (auto v = get("RIDGELINE_FAKE_FLUSH_MS"); !v.empty())
            out->flushMs = static_cast<std::uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
        if (auto v = get("RIDGELINE_FAKE_DROP_EVERY"); !v.empty())
            out->dropEvery = std::strtoull(v.c_str(), nullptr, 10);
        if (auto v = get("RIDGELINE_FAKE_GRAPH_RANGES"); !v.empty())
            out->graphRanges = v;
        out->nanMetric = get("RIDGELINE_FAKE_NAN_METRIC");
        out->domainCreateCallback = get("RIDGELINE_FAKE_NVTX_CREATE_CALLBACK") != "0";
        if (auto v = get("RIDGELINE_FAKE_REPLAY_US"); !v.empty())
            out->replayUs = static_cast<std::uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
        auto each = [](const std::string& list, auto&& visit) {
            std::size_t start = 0;
            while (start < list.size()) {
                const auto end = std::min(list.find(',', start), list.size());
                const auto item = list.substr(start, end - start);
                if (const auto sep = item.find_first_of(":="); sep != std::string::npos)
                    visit(item.substr(0, sep), item.substr(sep + 1));
                start = end + 1;
            }
        };
        each(get("RIDGELINE_FAKE_RANGE_CUES"), [&](const std::string& what, const std::string& at) {
            const auto k = std::strtoull(at.c_str(), nullptr, 10);
            (what == "foreign" ? out->foreignAt : out->droppedAt).insert(k);
        });
        each(get("RIDGELINE_FAKE_FAIL"), [&](const std::string& function, const std::string& code) {
            out->fail[function] = std::atoi(code.c_str());
        });
        return out;
    }();
    return *c;
}

// A failure cue for `function`, else success.
CUptiResult cued(const char* function)
{
    const auto& fail = cues().fail;
    if (auto it = fail.find(function); it != fail.end())
        return static_cast<CUptiResult>(it->second);
    return CUPTI_SUCCESS;
}

} // namespace fakecuda::libcupti

namespace {

std::atomic<int> g_ledgerFd { -2 }; // -2: not opened yet

int ledgerFd()
{
    int fd = g_ledgerFd.load();
    if (fd != -2)
        return fd;
    const char* path = std::getenv("RIDGELINE_FAKE_LEDGER");
    fd = path != nullptr && *path != '\0' ? ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
    int expected = -2;
    if (!g_ledgerFd.compare_exchange_strong(expected, fd) && fd >= 0)
        ::close(fd);
    return g_ledgerFd.load();
}

} // namespace

namespace fakecuda::libcupti {

// One line, one write(2): lines of concurrent threads and processes never interleave. No malloc.
__attribute__((format(printf, 1, 2))) void ledger(const char* format, ...)
{
    const int fd = ledgerFd();
    if (fd < 0)
        return;
    char line[8192];
    va_list args;
    va_start(args, format);
    int n = std::vsnprintf(line, sizeof line - 1, format, args);
    va_end(args);
    if (n < 0)
        return;
    n = std::min(n, static_cast<int>(sizeof line) - 2);
    line[n] = '\n';
    (void)::write(fd, line, static_cast<std::size_t>(n) + 1);
}

unsigned pid()
{
    return static_cast<unsigned>(::getpid());
}

std::uint32_t tid()
{
    return static_cast<std::uint32_t>(::syscall(SYS_gettid));
}

std::uint64_t timestamp()
{
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

// Strings records point to live as long as the process (as CUPTI's do).
const char* intern(const char* text)
{
    if (text == nullptr)
        return nullptr;
    static std::mutex* mutex = new std::mutex();
    static auto* strings = new std::set<std::string>();
    std::lock_guard lock(*mutex);
    return strings->insert(text).first->c_str();
}

} // namespace fakecuda::libcupti

// =============================================================================================
// The CUPTI API (C linkage, versioned libcupti.so.13 by fakecupti.map): version and clock

extern "C" {

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version)
{
    if (version == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *version = CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* value)
{
    if (value == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *value = timestamp();
    return CUPTI_SUCCESS;
}

} // extern "C"
