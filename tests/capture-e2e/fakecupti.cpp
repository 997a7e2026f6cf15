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
//   RIDGELINE_FAKE_FAIL=F=CODE[,F=CODE] CUPTI function F answers CUptiResult CODE
#include "fakedriver.h"
#include "fakework.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <pthread.h>
#include <set>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

// clang-format off
#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>
// clang-format on

using namespace fakecuda;

namespace {

// ---------------------------------------------------------------------------------------------
// Cues and the ledger

struct Cues {
    std::string chip = "GH100";
    std::size_t bufferBytes = 65536;
    std::uint32_t flushMs = 0; // 0: as asked
    std::uint64_t dropEvery = 0;
    std::set<std::uint64_t> foreignAt, droppedAt;
    std::string graphRanges = "node";
    std::string nanMetric;
    std::uint32_t replayUs = 0;
    std::map<std::string, int> fail;
};

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

#define FAKE_CUED(function)                                                                                            \
    do {                                                                                                               \
        if (const CUptiResult cuedResult_ = cued(function); cuedResult_ != CUPTI_SUCCESS)                              \
            return cuedResult_;                                                                                        \
    } while (false)

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

// ---------------------------------------------------------------------------------------------
// Activity API: records wait in a fixed pending area (no malloc: a flush may run in a signal
// handler), as CUPTI's own do, until a flush moves them into the collector's buffers or a
// buffer's worth has gathered (then a buffer fills). As the CUDA 13 header says of the real one,
// the periodic flush (cuptiActivityFlushPeriod) hands over only full buffers; cuptiActivityFlushAll
// hands over every buffer whose records are complete (here: all), flag 0 or FORCED alike.

std::size_t recordSize(std::uint32_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
        return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        return sizeof(CUpti_ActivityMemcpyPtoP4);
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_MARKER:
        return sizeof(CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
        return sizeof(CUpti_ActivityMarkerData2);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        return sizeof(CUpti_ActivitySynchronization2);
    case CUPTI_ACTIVITY_KIND_DEVICE:
        return sizeof(CUpti_ActivityDevice5);
    case CUPTI_ACTIVITY_KIND_NAME:
        return sizeof(CUpti_ActivityName);
    default:
        return 0;
    }
}

std::size_t aligned(std::size_t n)
{
    return (n + 7) & ~std::size_t { 7 };
}

constexpr std::size_t kPendingBytes = 1 << 20;
constexpr std::size_t kMaxQueued = 256;

struct FullBuffer {
    std::uint8_t* buffer = nullptr;
    std::size_t size = 0;
    std::size_t used = 0;
};

struct Activity {
    std::mutex mutex; // everything below
    std::mutex delivery; // one delivery at a time, in order
    CUpti_BuffersCallbackRequestFunc request = nullptr;
    CUpti_BuffersCallbackCompleteFunc complete = nullptr;
    std::atomic<bool> enabled[CUPTI_ACTIVITY_KIND_COUNT] = {};
    alignas(8) std::uint8_t pending[kPendingBytes];
    std::size_t pendingUsed = 0;
    std::uint8_t* buffer = nullptr;
    std::size_t bufferSize = 0; // usable
    std::size_t bufferUsed = 0;
    FullBuffer queued[kMaxQueued];
    std::size_t queuedCount = 0;
    std::atomic<std::uint64_t> dropped { 0 };
    std::atomic<std::uint64_t> emitted { 0 };
    // Flush thread
    std::condition_variable wake;
    std::uint32_t periodMs = 0;
    bool threadRunning = false;
    bool deliverNow = false;
};

Activity& activity()
{
    static Activity* a = new Activity(); // never destroyed (threads and atexit handlers use it)
    return *a;
}

// Locks `m`, giving up after ~2 s (a fatal-signal handler may have interrupted its holder).
bool lockPatiently(std::mutex& m)
{
    for (int i = 0; i < 2000; ++i) {
        if (m.try_lock())
            return true;
        timespec ms { 0, 1'000'000 };
        nanosleep(&ms, nullptr);
    }
    return false;
}

// Caller holds a.mutex. The current buffer joins the queue of full buffers.
void retireBufferLocked(Activity& a)
{
    if (a.buffer == nullptr)
        return;
    if (a.queuedCount < kMaxQueued)
        a.queued[a.queuedCount++] = FullBuffer { a.buffer, a.bufferSize, a.bufferUsed };
    a.buffer = nullptr;
    a.bufferSize = a.bufferUsed = 0;
}

// Caller holds a.mutex. Moves the pending records into buffers, asking the collector for them.
void drainLocked(Activity& a)
{
    std::size_t at = 0;
    std::uint64_t lost = 0;
    while (at < a.pendingUsed) {
        const auto* record = reinterpret_cast<const CUpti_Activity*>(a.pending + at);
        const std::size_t size = recordSize(record->kind);
        if (a.buffer != nullptr && a.bufferUsed + aligned(size) > a.bufferSize)
            retireBufferLocked(a);
        if (a.buffer == nullptr && a.request != nullptr) {
            std::uint8_t* buffer = nullptr;
            std::size_t bytes = 0;
            std::size_t maxRecords = 0;
            a.request(&buffer, &bytes, &maxRecords);
            if (buffer != nullptr && bytes >= 1024) {
                a.buffer = buffer;
                a.bufferSize = std::min(bytes, cues().bufferBytes);
                a.bufferUsed = 0;
            }
        }
        if (a.buffer == nullptr) {
            ++lost; // no buffer: CUPTI counts the record as dropped
        } else {
            std::memcpy(a.buffer + a.bufferUsed, record, size);
            a.bufferUsed += aligned(size);
        }
        at += aligned(size);
    }
    a.pendingUsed = 0;
    if (lost > 0) {
        a.dropped += lost;
        ledger("lost\t%u\t%llu", pid(), static_cast<unsigned long long>(lost));
    }
}

// Hands the queued (full) buffers to the collector, in order. `all`: first every record it holds.
void flush(bool all)
{
    Activity& a = activity();
    const bool delivering = lockPatiently(a.delivery);
    FullBuffer taken[kMaxQueued];
    std::size_t count = 0;
    CUpti_BuffersCallbackCompleteFunc complete = nullptr;
    if (lockPatiently(a.mutex)) {
        if (all) {
            retireBufferLocked(a); // what CUPTI already holds in a buffer
            drainLocked(a); // records still on their way: may need a new buffer
            retireBufferLocked(a);
        }
        for (std::size_t i = 0; i < a.queuedCount; ++i)
            taken[count++] = a.queued[i];
        a.queuedCount = 0;
        complete = a.complete;
        a.mutex.unlock();
    }
    for (std::size_t i = 0; i < count; ++i) {
        if (complete != nullptr)
            complete(nullptr, 0, taken[i].buffer, taken[i].size, taken[i].used);
    }
    if (delivering)
        a.delivery.unlock();
}

// CUPTI's worker thread: full buffers, when one fills or every period.
void flushThread()
{
    Activity& a = activity();
    for (;;) {
        {
            std::unique_lock lock(a.mutex);
            const auto period = std::chrono::milliseconds(a.periodMs > 0 ? a.periodMs : 1000);
            a.wake.wait_for(lock, period, [&] { return a.deliverNow; });
            a.deliverNow = false;
        }
        flush(false);
    }
}

void startFlushThread(Activity& a)
{
    if (a.threadRunning)
        return;
    a.threadRunning = true;
    std::thread(flushThread).detach();
}

bool enabled(std::uint32_t kind)
{
    return kind < CUPTI_ACTIVITY_KIND_COUNT && activity().enabled[kind].load();
}

// A record for the collector (or dropped on cue). False when it was dropped.
bool emit(const void* record)
{
    Activity& a = activity();
    const auto kind = static_cast<const CUpti_Activity*>(record)->kind;
    const std::size_t size = recordSize(kind);
    if (size == 0 || !enabled(kind))
        return false;
    const std::uint64_t n = ++a.emitted;
    if (cues().dropEvery > 0 && n % cues().dropEvery == 0) {
        ++a.dropped;
        ledger("dropped\t%u\t%u", pid(), static_cast<unsigned>(kind));
        return false;
    }
    std::lock_guard lock(a.mutex);
    if (a.pendingUsed + aligned(size) > kPendingBytes)
        drainLocked(a);
    std::memcpy(a.pending + a.pendingUsed, record, size);
    a.pendingUsed += aligned(size);
    if (a.pendingUsed >= std::min(cues().bufferBytes, kPendingBytes / 2))
        drainLocked(a); // a buffer's worth: it fills (and waits in the queue for the worker)
    if (a.queuedCount > 0 && !a.deliverNow) {
        a.deliverNow = true;
        a.wake.notify_one();
    }
    return true;
}

template <typename Record> Record zeroed()
{
    Record r;
    std::memset(static_cast<void*>(&r), 0, sizeof r);
    return r;
}

// ---------------------------------------------------------------------------------------------
// Callback API

constexpr std::size_t kDomains = 8;
constexpr std::size_t kCbids = 2048;

struct Callbacks {
    std::atomic<CUpti_CallbackFunc> function { nullptr };
    std::atomic<void*> userdata { nullptr };
    std::atomic<bool> subscribed { false };
    std::atomic<bool> enabled[kDomains][kCbids] = {};
    std::atomic<const char*> names[kDomains][kCbids] = {}; // API names, as the driver reported them
    std::atomic<std::uint32_t> correlation { 0 };
};

Callbacks& callbacks()
{
    static Callbacks* c = new Callbacks();
    return *c;
}

bool wants(CUpti_CallbackDomain domain, std::uint32_t cbid)
{
    Callbacks& c = callbacks();
    return c.subscribed.load() && static_cast<std::size_t>(domain) < kDomains && cbid < kCbids
        && c.enabled[domain][cbid].load();
}

void call(CUpti_CallbackDomain domain, std::uint32_t cbid, const void* data)
{
    Callbacks& c = callbacks();
    if (auto* f = c.function.load(); f != nullptr && wants(domain, cbid))
        f(c.userdata.load(), domain, cbid, data);
}

struct Frame {
    CUpti_CallbackDomain domain;
    std::uint32_t cbid;
    std::uint32_t correlation;
    std::uint64_t start;
    std::uint64_t correlationData;
    int result;
};
thread_local std::vector<Frame> t_frames;
thread_local std::uint32_t t_runtimeCorrelation = 0;

std::map<CUcontext, std::uint32_t>& contextDevices()
{
    static auto* m = new std::map<CUcontext, std::uint32_t>();
    return *m;
}
std::mutex& contextMutex()
{
    static auto* m = new std::mutex();
    return *m;
}

std::uint32_t contextId(CUcontext context)
{
    // The stand-in driver's contexts start with their id (fakecuda.cpp, struct Context).
    return context != nullptr ? *reinterpret_cast<const std::uint32_t*>(context) : 0;
}

// ---------------------------------------------------------------------------------------------
// Range profiler: counter data images in the stand-in's own layout.

constexpr char kImageMagic[8] = { 'R', 'L', 'F', 'A', 'K', 'E', 'C', 'D' };
constexpr char kConfigMagic[] = "RLFAKECFG\n";
constexpr std::size_t kMetricNameBytes = 128;
constexpr std::size_t kRangeNameBytes = 256;

struct ImageHeader {
    char magic[8];
    std::uint32_t numMetrics;
    std::uint32_t maxRanges;
    std::uint32_t numRanges;
    std::uint32_t reserved;
};

std::size_t imageSize(std::size_t metrics, std::size_t ranges)
{
    return sizeof(ImageHeader) + metrics * kMetricNameBytes + ranges * (kRangeNameBytes + 8 * metrics);
}

ImageHeader* header(const std::uint8_t* image, std::size_t size)
{
    if (image == nullptr || size < sizeof(ImageHeader))
        return nullptr;
    auto* h = reinterpret_cast<ImageHeader*>(const_cast<std::uint8_t*>(image));
    if (std::memcmp(h->magic, kImageMagic, 8) != 0 || imageSize(h->numMetrics, h->maxRanges) > size)
        return nullptr;
    return h;
}

const char* imageMetric(const std::uint8_t* image, std::size_t i)
{
    return reinterpret_cast<const char*>(image + sizeof(ImageHeader) + i * kMetricNameBytes);
}

std::uint8_t* rangeAt(std::uint8_t* image, const ImageHeader& h, std::size_t r)
{
    return image + sizeof(ImageHeader) + h.numMetrics * kMetricNameBytes + r * (kRangeNameBytes + 8 * h.numMetrics);
}

std::vector<std::string> configMetrics(const std::uint8_t* config, std::size_t size)
{
    std::vector<std::string> names;
    const std::size_t magic = sizeof kConfigMagic - 1;
    if (config == nullptr || size < magic || std::memcmp(config, kConfigMagic, magic) != 0)
        return names;
    std::string text(reinterpret_cast<const char*>(config) + magic, size - magic);
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        if (end > start)
            names.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return names;
}

struct RangeObject {
    CUcontext context = nullptr;
    std::vector<std::string> sizedMetrics; // of the last GetCounterDataSize
    std::uint8_t* image = nullptr;
    std::size_t imageBytes = 0;
    std::vector<std::string> config;
    bool started = false;
    std::size_t droppedRanges = 0;
    bool foreignNext = false;
    bool dropNext = false;
    // One range for a whole graph launch (RIDGELINE_FAKE_GRAPH_RANGES=graph).
    std::vector<double> graphSums;
};

struct Profiler {
    std::mutex mutex;
    std::map<CUcontext, RangeObject*> objects;
    std::uint64_t starts = 0;
};

Profiler& profiler()
{
    static Profiler* p = new Profiler();
    return *p;
}

// Caller holds the profiler mutex.
void addRange(RangeObject& o, const char* name, const std::vector<double>& values, std::uint32_t correlation)
{
    ImageHeader* h = header(o.image, o.imageBytes);
    if (h == nullptr)
        return;
    if (h->numRanges >= h->maxRanges) {
        ++o.droppedRanges;
        ledger("rangedrop\t%u\t%u\tfull", pid(), correlation);
        return;
    }
    std::uint8_t* range = rangeAt(o.image, *h, h->numRanges);
    std::snprintf(reinterpret_cast<char*>(range), kRangeNameBytes, "%s", name);
    std::memcpy(range + kRangeNameBytes, values.data(), 8 * h->numMetrics);
    std::string text;
    for (std::uint32_t i = 0; i < h->numMetrics; ++i) {
        char one[64];
        std::snprintf(one, sizeof one, "%.17g", values[i]);
        text += (i == 0 ? "" : ";") + std::string(imageMetric(o.image, i)) + "=" + one;
    }
    ledger("range\t%u\t%u\t%u\t%s\t%s", pid(), correlation, h->numRanges, name, text.c_str());
    ++h->numRanges;
}

std::vector<double> valuesFor(const RangeObject& o, const char* name, std::uint64_t durationNs)
{
    std::vector<double> values;
    const ImageHeader* h = header(o.image, o.imageBytes);
    if (h == nullptr)
        return values;
    for (std::uint32_t i = 0; i < h->numMetrics; ++i)
        values.push_back(counterValue(imageMetric(o.image, i), name, durationNs));
    return values;
}

// A kernel ran on a context: a range when its range profiler is started.
void profileKernel(const Work& w)
{
    Profiler& p = profiler();
    std::unique_lock lock(p.mutex);
    auto it = p.objects.find(w.context);
    if (it == p.objects.end() || !it->second->started)
        return;
    RangeObject& o = *it->second;
    const std::uint64_t duration = w.end - w.start;
    if (o.dropNext) {
        o.dropNext = false;
        ++o.droppedRanges;
        ledger("rangedrop\t%u\t%u\tcue", pid(), w.correlationId);
    } else if (w.graphId != 0 && cues().graphRanges != "node") {
        if (cues().graphRanges == "graph") {
            const auto values = valuesFor(o, w.name, duration);
            if (w.graphNodeIndex == 0)
                o.graphSums.assign(values.size(), 0.0);
            const ImageHeader* h = header(o.image, o.imageBytes);
            for (std::size_t i = 0; i < values.size() && i < o.graphSums.size(); ++i) {
                const std::string metric = imageMetric(o.image, i);
                // Peaks and clocks are the chip's, not sums.
                const bool constant = metric.ends_with(".peak_sustained") || metric.ends_with(".per_second");
                o.graphSums[i] = constant ? values[i] : o.graphSums[i] + values[i];
            }
            if (h != nullptr && w.graphNodeIndex + 1 == w.graphNodeCount) {
                char name[64];
                std::snprintf(name, sizeof name, "graph %u", w.graphId);
                addRange(o, name, o.graphSums, w.correlationId);
            }
        }
    } else {
        if (o.foreignNext) {
            o.foreignNext = false;
            addRange(o, "_Z7foreignv", valuesFor(o, "_Z7foreignv", 3000), w.correlationId);
        }
        addRange(o, w.name, valuesFor(o, w.name, duration), w.correlationId);
    }
    lock.unlock();
    if (cues().replayUs > 0)
        std::this_thread::sleep_for(std::chrono::microseconds(cues().replayUs));
}

// ---------------------------------------------------------------------------------------------
// Hooks for the stand-in driver

void deviceRecord(std::uint32_t device)
{
    static std::mutex* mutex = new std::mutex();
    static auto* seen = new std::set<std::uint32_t>();
    {
        std::lock_guard lock(*mutex);
        if (!seen->insert(device).second)
            return;
    }
    auto d = zeroed<CUpti_ActivityDevice5>();
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.globalMemorySize = kMemoryBytes;
    d.l2CacheSize = kL2Bytes;
    d.numThreadsPerWarp = 32;
    d.coreClockRate = kCoreClockKhz;
    d.numMultiprocessors = kSmCount;
    d.maxWarpsPerMultiprocessor = 64;
    d.maxSharedMemoryPerMultiprocessor = 233'472;
    d.computeCapabilityMajor = kCcMajor;
    d.computeCapabilityMinor = kCcMinor;
    d.id = device;
    unsigned char uuid[16];
    deviceUuid(static_cast<int>(device), uuid);
    std::memcpy(d.uuid.bytes, uuid, 16);
    d.name = intern(kDeviceName);
    if (emit(&d))
        ledger("device\t%u\t%u\t%s", pid(), device, kDeviceName);
}

void onContextCreated(CUcontext context, std::uint32_t, std::uint32_t device)
{
    {
        std::lock_guard lock(contextMutex());
        contextDevices()[context] = device;
    }
    deviceRecord(device);
    CUpti_ResourceData data {};
    data.context = context;
    call(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED, &data);
}

std::uint32_t onApiEnter(CUpti_CallbackDomain domain, std::uint32_t cbid, const char* function, const char* symbol,
    CUcontext context, const void* params)
{
    Callbacks& c = callbacks();
    if (static_cast<std::size_t>(domain) < kDomains && cbid < kCbids)
        c.names[domain][cbid].store(function);
    std::uint32_t correlation = 0;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && t_runtimeCorrelation != 0)
        correlation = t_runtimeCorrelation; // a driver call inside a runtime call shares its id
    else
        correlation = ++c.correlation;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        t_runtimeCorrelation = correlation;
    t_frames.push_back(Frame { domain, cbid, correlation, timestamp(), 0, 0 });
    Frame& frame = t_frames.back();
    CUpti_CallbackData data {};
    data.callbackSite = CUPTI_API_ENTER;
    data.functionName = function;
    data.functionParams = params;
    data.functionReturnValue = &frame.result;
    data.symbolName = symbol;
    data.context = context;
    data.contextUid = contextId(context);
    data.correlationData = &frame.correlationData;
    data.correlationId = correlation;
    call(domain, cbid, &data);
    return correlation;
}

void onApiExit(CUpti_CallbackDomain domain, std::uint32_t cbid, const char* function, const char* symbol,
    CUcontext context, const void* params, int result)
{
    if (t_frames.empty())
        return;
    Frame frame = t_frames.back();
    t_frames.pop_back();
    frame.result = result;
    const std::uint64_t end = timestamp();
    CUpti_CallbackData data {};
    data.callbackSite = CUPTI_API_EXIT;
    data.functionName = function;
    data.functionParams = params;
    data.functionReturnValue = &frame.result;
    data.symbolName = symbol;
    data.context = context;
    data.contextUid = contextId(context);
    data.correlationData = &frame.correlationData;
    data.correlationId = frame.correlation;
    call(domain, cbid, &data);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        t_runtimeCorrelation = 0;

    auto a = zeroed<CUpti_ActivityAPI>();
    a.kind = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CUPTI_ACTIVITY_KIND_RUNTIME : CUPTI_ACTIVITY_KIND_DRIVER;
    a.cbid = cbid;
    a.start = frame.start;
    a.end = end;
    a.processId = pid();
    a.threadId = tid();
    a.correlationId = frame.correlation;
    a.returnValue = static_cast<std::uint32_t>(result);
    if (emit(&a))
        ledger("api\t%u\t%s\t%u\t%u\t%u\t%llu\t%llu\t%d\t%s", pid(),
            domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver", cbid, frame.correlation, a.threadId,
            static_cast<unsigned long long>(a.start), static_cast<unsigned long long>(a.end), result, function);
}

void onWork(const Work& w)
{
    const auto start = static_cast<unsigned long long>(w.start);
    const auto end = static_cast<unsigned long long>(w.end);
    switch (w.kind) {
    case WorkKind::Kernel: {
        auto k = zeroed<CUpti_ActivityKernel10>();
        k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k.registersPerThread = 32;
        k.start = w.start;
        k.end = w.end;
        k.completed = w.end;
        k.deviceId = w.deviceId;
        k.contextId = w.contextId;
        k.streamId = w.streamId;
        k.gridX = static_cast<std::int32_t>(w.grid[0]);
        k.gridY = static_cast<std::int32_t>(w.grid[1]);
        k.gridZ = static_cast<std::int32_t>(w.grid[2]);
        k.blockX = static_cast<std::int32_t>(w.block[0]);
        k.blockY = static_cast<std::int32_t>(w.block[1]);
        k.blockZ = static_cast<std::int32_t>(w.block[2]);
        k.staticSharedMemory = 0;
        k.dynamicSharedMemory = static_cast<std::int32_t>(w.dynamicShared);
        k.correlationId = w.correlationId;
        k.name = intern(w.name);
        k.graphId = w.graphId;
        k.graphNodeId = w.graphNodeId;
        k.isSharedMemoryCarveoutRequested = 0;
        k.launchType
            = w.cooperative ? CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE : CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
        profileKernel(w); // the range first: a crash right after still finds both
        if (emit(&k))
            ledger("kernel\t%u\t%u\t%u\t%u\t%u\t%llu\t%llu\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%llu\t%s", pid(),
                w.correlationId, w.deviceId, w.contextId, w.streamId, start, end, w.grid[0], w.grid[1], w.grid[2],
                w.block[0], w.block[1], w.block[2], w.dynamicShared, w.graphId,
                static_cast<unsigned long long>(w.graphNodeId), w.name);
        break;
    }
    case WorkKind::Memcpy: {
        auto m = zeroed<CUpti_ActivityMemcpy6>();
        m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        m.copyKind = w.copyKind;
        m.srcKind = w.srcKind;
        m.dstKind = w.dstKind;
        m.bytes = w.bytes;
        m.start = w.start;
        m.end = w.end;
        m.deviceId = w.deviceId;
        m.contextId = w.contextId;
        m.streamId = w.streamId;
        m.correlationId = w.correlationId;
        if (emit(&m))
            ledger("memcpy\t%u\t%u\t%u\t%u\t%llu\t%llu\t%u\t%u\t%u\t%llu", pid(), w.correlationId, w.deviceId,
                w.streamId, start, end, w.copyKind, w.srcKind, w.dstKind, static_cast<unsigned long long>(w.bytes));
        break;
    }
    case WorkKind::PeerCopy: {
        auto m = zeroed<CUpti_ActivityMemcpyPtoP4>();
        m.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
        m.copyKind = w.copyKind;
        m.srcKind = w.srcKind;
        m.dstKind = w.dstKind;
        m.bytes = w.bytes;
        m.start = w.start;
        m.end = w.end;
        m.deviceId = w.deviceId;
        m.contextId = w.contextId;
        m.streamId = w.streamId;
        m.srcDeviceId = w.srcDeviceId;
        m.srcContextId = w.srcContextId;
        m.dstDeviceId = w.dstDeviceId;
        m.dstContextId = w.dstContextId;
        m.correlationId = w.correlationId;
        if (emit(&m))
            ledger("p2p\t%u\t%u\t%u\t%u\t%llu\t%llu\t%u\t%u\t%llu", pid(), w.correlationId, w.deviceId, w.streamId,
                start, end, w.srcDeviceId, w.dstDeviceId, static_cast<unsigned long long>(w.bytes));
        break;
    }
    case WorkKind::Memset: {
        auto m = zeroed<CUpti_ActivityMemset4>();
        m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
        m.value = w.value;
        m.bytes = w.bytes;
        m.start = w.start;
        m.end = w.end;
        m.deviceId = w.deviceId;
        m.contextId = w.contextId;
        m.streamId = w.streamId;
        m.correlationId = w.correlationId;
        m.memoryKind = w.dstKind;
        if (emit(&m))
            ledger("memset\t%u\t%u\t%u\t%u\t%llu\t%llu\t%llu\t%u", pid(), w.correlationId, w.deviceId, w.streamId,
                start, end, static_cast<unsigned long long>(w.bytes), w.value);
        break;
    }
    case WorkKind::Sync: {
        auto s = zeroed<CUpti_ActivitySynchronization2>();
        s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
        s.type = static_cast<CUpti_ActivitySynchronizationType>(w.syncType);
        s.start = w.start;
        s.end = w.end;
        s.correlationId = w.correlationId;
        s.contextId = w.contextId;
        s.streamId = w.streamId;
        if (emit(&s))
            ledger("sync\t%u\t%u\t%u\t%llu\t%llu", pid(), w.correlationId, w.syncType, start, end);
        break;
    }
    }
}

std::uint64_t onTimestamp()
{
    return timestamp();
}

const Hooks kHooks = [] {
    Hooks h;
    h.apiEnter = onApiEnter;
    h.apiExit = onApiExit;
    h.work = onWork;
    h.contextCreated = onContextCreated;
    h.timestamp = onTimestamp;
    return h;
}();

void forkPrepare()
{
    activity().delivery.lock();
    activity().mutex.lock();
    profiler().mutex.lock();
}

void forkParent()
{
    profiler().mutex.unlock();
    activity().mutex.unlock();
    activity().delivery.unlock();
}

void forkChild()
{
    profiler().mutex.unlock();
    activity().mutex.unlock();
    activity().delivery.unlock();
    ledger("fork\t%u", pid());
    // Threads do not survive fork: the child gets a flush thread of its own.
    Activity& a = activity();
    if (a.threadRunning) {
        a.threadRunning = false;
        startFlushThread(a);
    }
}

__attribute__((constructor)) void attach()
{
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (driver == nullptr)
        return;
    if (auto* attachTo = reinterpret_cast<AttachFunction>(dlsym(driver, kAttachSymbol)))
        attachTo(&kHooks);
    pthread_atfork(forkPrepare, forkParent, forkChild);
    ledger("attach\t%u", pid());
}

// ---------------------------------------------------------------------------------------------
// NVTX (InitializeInjectionNvtx2): push/pop, start/end and marks become marker records.

std::atomic<std::uint32_t> g_markerId { 0 };

struct OpenMarker {
    std::uint32_t id;
    std::uint64_t start;
    const char* name;
    const char* domain;
    std::uint32_t color;
};
thread_local std::vector<OpenMarker> t_pushed;
std::mutex& startedMutex()
{
    static auto* m = new std::mutex();
    return *m;
}
std::map<std::uint64_t, std::pair<OpenMarker, std::uint32_t>>& started() // id -> marker, thread
{
    static auto* m = new std::map<std::uint64_t, std::pair<OpenMarker, std::uint32_t>>();
    return *m;
}

const char* domainName(nvtxDomainHandle_t domain)
{
    return reinterpret_cast<const char*>(domain); // handles are interned names (fakeDomainCreateA)
}

void markerRecord(CUpti_ActivityFlag flags, std::uint32_t id, std::uint64_t at, const char* name, const char* domain)
{
    auto m = zeroed<CUpti_ActivityMarker2>();
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = flags;
    m.timestamp = at;
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = pid();
    m.objectId.pt.threadId = tid();
    m.name = name;
    m.domain = domain;
    (void)emit(&m);
}

void markerData(std::uint32_t id, std::uint32_t color, std::uint32_t category)
{
    auto d = zeroed<CUpti_ActivityMarkerData2>();
    d.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
    d.flags = color != 0 ? CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB : CUPTI_ACTIVITY_FLAG_NONE;
    d.id = id;
    d.color = color;
    d.category = category;
    (void)emit(&d);
}

// A marker record only counts as delivered when the kind is on (the ledger says what the session
// must hold).
bool markersOn()
{
    return enabled(CUPTI_ACTIVITY_KIND_MARKER);
}

void nvtxLedger(const OpenMarker& m, std::uint32_t thread, std::uint64_t end)
{
    if (markersOn())
        ledger("nvtx\t%u\t%u\t%llu\t%llu\t%u\t%s\t%s", pid(), thread, static_cast<unsigned long long>(m.start),
            static_cast<unsigned long long>(end), m.color, m.domain != nullptr ? m.domain : "default",
            m.name != nullptr ? m.name : "");
}

int push(const char* message, const char* domain, std::uint32_t color, std::uint32_t cbid, const void* params)
{
    OpenMarker m { ++g_markerId, timestamp(), intern(message), domain, color };
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_START, m.id, m.start, m.name, domain);
    if (color != 0)
        markerData(m.id, color, 0);
    t_pushed.push_back(m);
    CUpti_NvtxData data { "nvtxRangePush", params, nullptr };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
    return static_cast<int>(t_pushed.size()) - 1;
}

int pop(std::uint32_t cbid, const void* params)
{
    if (t_pushed.empty())
        return -1;
    const OpenMarker m = t_pushed.back();
    t_pushed.pop_back();
    const std::uint64_t end = timestamp();
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, m.id, end, nullptr, m.domain);
    nvtxLedger(m, tid(), end);
    CUpti_NvtxData data { "nvtxRangePop", params, nullptr };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
    return static_cast<int>(t_pushed.size());
}

std::uint32_t colorOf(const nvtxEventAttributes_t* a)
{
    return a != nullptr && a->colorType == NVTX_COLOR_ARGB ? a->color : 0;
}

const char* messageOf(const nvtxEventAttributes_t* a)
{
    return a != nullptr && a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : "";
}

int NVTX_API fakeRangePushA(const char* message)
{
    nvtxRangePushA_params p { message };
    return push(message, nullptr, 0, CUPTI_CBID_NVTX_nvtxRangePushA, &p);
}

int NVTX_API fakeRangePushEx(const nvtxEventAttributes_t* attributes)
{
    nvtxRangePushEx_params p { attributes };
    return push(messageOf(attributes), nullptr, colorOf(attributes), CUPTI_CBID_NVTX_nvtxRangePushEx, &p);
}

int NVTX_API fakeRangePop()
{
    return pop(CUPTI_CBID_NVTX_nvtxRangePop, nullptr);
}

void mark(const char* message, const char* domain)
{
    const std::uint64_t at = timestamp();
    const OpenMarker m { ++g_markerId, at, intern(message), domain, 0 };
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, m.id, at, m.name, domain);
    nvtxLedger(m, tid(), at);
}

void NVTX_API fakeMarkA(const char* message)
{
    mark(message, nullptr);
}

nvtxRangeId_t startRange(const char* message, const char* domain, std::uint32_t cbid, const void* params)
{
    OpenMarker m { ++g_markerId, timestamp(), intern(message), domain, 0 };
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_START, m.id, m.start, m.name, domain);
    {
        std::lock_guard lock(startedMutex());
        started()[m.id] = { m, tid() };
    }
    nvtxRangeId_t id = m.id;
    CUpti_NvtxData data { "nvtxRangeStart", params, &id };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
    return id;
}

void endRange(nvtxRangeId_t id, std::uint32_t cbid, const void* params)
{
    std::pair<OpenMarker, std::uint32_t> m;
    {
        std::lock_guard lock(startedMutex());
        auto it = started().find(id);
        if (it == started().end())
            return;
        m = it->second;
        started().erase(it);
    }
    const std::uint64_t end = timestamp();
    markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, m.first.id, end, nullptr, m.first.domain);
    nvtxLedger(m.first, m.second, end);
    CUpti_NvtxData data { "nvtxRangeEnd", params, nullptr };
    call(CUPTI_CB_DOMAIN_NVTX, cbid, &data);
}

nvtxRangeId_t NVTX_API fakeRangeStartA(const char* message)
{
    nvtxRangeStartA_params p { message };
    return startRange(message, nullptr, CUPTI_CBID_NVTX_nvtxRangeStartA, &p);
}

void NVTX_API fakeRangeEnd(nvtxRangeId_t id)
{
    nvtxRangeEnd_params p { id };
    endRange(id, CUPTI_CBID_NVTX_nvtxRangeEnd, &p);
}

void NVTX_API fakeNameOsThreadA(std::uint32_t thread, const char* name)
{
    auto n = zeroed<CUpti_ActivityName>();
    n.kind = CUPTI_ACTIVITY_KIND_NAME;
    n.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    n.objectId.pt.processId = pid();
    n.objectId.pt.threadId = thread;
    n.name = intern(name);
    if (emit(&n))
        ledger("thread\t%u\t%u\t%s", pid(), thread, name);
}

nvtxDomainHandle_t NVTX_API fakeDomainCreateA(const char* name)
{
    return reinterpret_cast<nvtxDomainHandle_t>(const_cast<char*>(intern(name)));
}

int NVTX_API fakeDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    nvtxDomainRangePushEx_params p {};
    p.domain = domain;
    p.core.eventAttrib = attributes;
    return push(
        messageOf(attributes), domainName(domain), colorOf(attributes), CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &p);
}

int NVTX_API fakeDomainRangePop(nvtxDomainHandle_t domain)
{
    nvtxDomainRangePop_params p { domain };
    return pop(CUPTI_CBID_NVTX_nvtxDomainRangePop, &p);
}

void NVTX_API fakeDomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    mark(messageOf(attributes), domainName(domain));
}

template <typename F> void install(NvtxFunctionTable table, unsigned int size, unsigned int id, F function)
{
    if (table != nullptr && id < size && table[id] != nullptr)
        *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

} // namespace

// =============================================================================================
// The CUPTI API (C linkage, versioned libcupti.so.13 by fakecupti.map)

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

CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext context, uint32_t* deviceId)
{
    FAKE_CUED("cuptiGetDeviceId");
    if (deviceId == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(contextMutex());
    auto it = contextDevices().find(context);
    if (it == contextDevices().end())
        return CUPTI_ERROR_INVALID_CONTEXT;
    *deviceId = it->second;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char** name)
{
    if (name == nullptr || static_cast<std::size_t>(domain) >= kDomains || cbid >= kCbids)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *name = callbacks().names[domain][cbid].load();
    return *name != nullptr ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(
    CUpti_BuffersCallbackRequestFunc request, CUpti_BuffersCallbackCompleteFunc complete)
{
    FAKE_CUED("cuptiActivityRegisterCallbacks");
    if (request == nullptr || complete == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Activity& a = activity();
    std::lock_guard lock(a.mutex);
    a.request = request;
    a.complete = complete;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind)
{
    FAKE_CUED("cuptiActivityEnable");
    if (static_cast<std::uint32_t>(kind) >= CUPTI_ACTIVITY_KIND_COUNT)
        return CUPTI_ERROR_INVALID_KIND;
    activity().enabled[kind].store(true);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushPeriod(uint32_t time)
{
    FAKE_CUED("cuptiActivityFlushPeriod");
    Activity& a = activity();
    std::lock_guard lock(a.mutex);
    a.periodMs = cues().flushMs > 0 ? cues().flushMs : time;
    startFlushThread(a);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
    // Every record here is complete: the default flush (0) and the forced one deliver the same.
    (void)flag;
    flush(true);
    ledger("flushall\t%u\t%u", pid(), flag);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t validBufferSizeBytes, CUpti_Activity** record)
{
    if (buffer == nullptr || record == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::size_t at = 0;
    if (*record != nullptr) {
        const auto* current = reinterpret_cast<const std::uint8_t*>(*record);
        if (current < buffer || current >= buffer + validBufferSizeBytes)
            return CUPTI_ERROR_INVALID_PARAMETER;
        at = static_cast<std::size_t>(current - buffer) + aligned(recordSize((*record)->kind));
    }
    if (at + sizeof(CUpti_Activity) > validBufferSizeBytes) {
        *record = nullptr;
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    }
    auto* next = reinterpret_cast<CUpti_Activity*>(buffer + at);
    if (recordSize(next->kind) == 0 || at + recordSize(next->kind) > validBufferSizeBytes)
        return CUPTI_ERROR_INVALID_KIND;
    *record = next;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped)
{
    if (dropped == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *dropped = static_cast<size_t>(activity().dropped.exchange(0));
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* userdata)
{
    FAKE_CUED("cuptiSubscribe");
    if (subscriber == nullptr || callback == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Callbacks& c = callbacks();
    if (c.subscribed.exchange(true))
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    c.function.store(callback);
    c.userdata.store(userdata);
    *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&c);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle subscriber)
{
    Callbacks& c = callbacks();
    if (subscriber != reinterpret_cast<CUpti_SubscriberHandle>(&c))
        return CUPTI_ERROR_INVALID_PARAMETER;
    c.subscribed.store(false);
    c.function.store(nullptr);
    for (auto& domain : c.enabled) {
        for (auto& e : domain)
            e.store(false);
    }
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(
    uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    FAKE_CUED("cuptiEnableCallback");
    Callbacks& c = callbacks();
    if (subscriber != reinterpret_cast<CUpti_SubscriberHandle>(&c) || static_cast<std::size_t>(domain) >= kDomains
        || cbid >= kCbids)
        return CUPTI_ERROR_INVALID_PARAMETER;
    c.enabled[domain][cbid].store(enable != 0);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain)
{
    FAKE_CUED("cuptiEnableDomain");
    Callbacks& c = callbacks();
    if (subscriber != reinterpret_cast<CUpti_SubscriberHandle>(&c) || static_cast<std::size_t>(domain) >= kDomains)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (auto& e : c.enabled[domain])
        e.store(enable != 0);
    return CUPTI_SUCCESS;
}

// --- Profiler target ---

CUptiResult CUPTIAPI cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params* params)
{
    FAKE_CUED("cuptiProfilerInitialize");
    return params != nullptr ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiProfilerDeviceSupported(CUpti_Profiler_DeviceSupported_Params* params)
{
    FAKE_CUED("cuptiProfilerDeviceSupported");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->isSupported = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->architecture = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->sli = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->vGpu = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->confidentialCompute = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->cmp = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    params->wsl = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params* params)
{
    FAKE_CUED("cuptiDeviceGetChipName");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->pChipName = cues().chip.c_str();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params* params)
{
    FAKE_CUED("cuptiProfilerGetCounterAvailability");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (params->pCounterAvailabilityImage == nullptr) {
        params->counterAvailabilityImageSize = 64;
        return CUPTI_SUCCESS;
    }
    std::memset(
        params->pCounterAvailabilityImage, 0xff, std::min<std::size_t>(params->counterAvailabilityImageSize, 64));
    return CUPTI_SUCCESS;
}

// --- Range profiler ---

CUptiResult CUPTIAPI cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerEnable");
    if (params == nullptr || params->ctx == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Profiler& p = profiler();
    std::lock_guard lock(p.mutex);
    auto*& o = p.objects[params->ctx];
    if (o != nullptr)
        return CUPTI_ERROR_INVALID_OPERATION;
    o = new RangeObject();
    o->context = params->ctx;
    params->pRangeProfilerObject = reinterpret_cast<CUpti_RangeProfiler_Object*>(o);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params* params)
{
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Profiler& p = profiler();
    std::lock_guard lock(p.mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    p.objects.erase(o->context);
    delete o;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerGetCounterDataSize");
    if (params == nullptr || params->pRangeProfilerObject == nullptr || params->pMetricNames == nullptr
        || params->numMetrics == 0 || params->maxNumOfRanges == 0)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    o->sizedMetrics.clear();
    for (std::size_t i = 0; i < params->numMetrics; ++i) {
        if (params->pMetricNames[i] == nullptr || std::strlen(params->pMetricNames[i]) >= kMetricNameBytes)
            return CUPTI_ERROR_INVALID_PARAMETER;
        o->sizedMetrics.emplace_back(params->pMetricNames[i]);
    }
    params->counterDataSize = imageSize(params->numMetrics, params->maxNumOfRanges);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerCounterDataImageInitialize(
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerCounterDataImageInitialize");
    if (params == nullptr || params->pRangeProfilerObject == nullptr || params->pCounterData == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    if (ImageHeader* h = header(params->pCounterData, params->counterDataSize)) {
        h->numRanges = 0; // initialised before: same metrics, no ranges
        return CUPTI_SUCCESS;
    }
    const std::size_t metrics = o->sizedMetrics.size();
    if (metrics == 0)
        return CUPTI_ERROR_INVALID_OPERATION;
    const std::size_t perRange = kRangeNameBytes + 8 * metrics;
    const std::size_t fixed = sizeof(ImageHeader) + metrics * kMetricNameBytes;
    if (params->counterDataSize < fixed + perRange)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::memset(params->pCounterData, 0, params->counterDataSize);
    ImageHeader h {};
    std::memcpy(h.magic, kImageMagic, 8);
    h.numMetrics = static_cast<std::uint32_t>(metrics);
    h.maxRanges = static_cast<std::uint32_t>((params->counterDataSize - fixed) / perRange);
    std::memcpy(params->pCounterData, &h, sizeof h);
    for (std::size_t i = 0; i < metrics; ++i)
        std::snprintf(reinterpret_cast<char*>(params->pCounterData + sizeof h + i * kMetricNameBytes), kMetricNameBytes,
            "%s", o->sizedMetrics[i].c_str());
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerSetConfig");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    auto metrics = configMetrics(params->pConfig, params->configSize);
    if (h == nullptr || metrics.empty() || params->range != CUPTI_AutoRange || params->replayMode != CUPTI_KernelReplay)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (const auto& m : metrics) {
        bool found = false;
        for (std::uint32_t i = 0; i < h->numMetrics && !found; ++i)
            found = m == imageMetric(params->pCounterDataImage, i);
        if (!found)
            return CUPTI_ERROR_INVALID_PARAMETER; // the image was not made for this configuration
    }
    o->config = std::move(metrics);
    o->image = params->pCounterDataImage;
    o->imageBytes = params->counterDataImageSize;
    ledger("setconfig\t%u\t%zu", pid(), o->config.size());
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerStart");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    Profiler& p = profiler();
    std::lock_guard lock(p.mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    if (o->image == nullptr || o->started)
        return CUPTI_ERROR_INVALID_OPERATION;
    o->started = true;
    const std::uint64_t k = ++p.starts;
    o->foreignNext = cues().foreignAt.count(k) != 0;
    o->dropNext = cues().droppedAt.count(k) != 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerStop");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    if (!o->started)
        return CUPTI_ERROR_INVALID_OPERATION;
    o->started = false;
    params->passIndex = 0;
    params->targetNestingLevel = 1;
    params->isAllPassSubmitted = 1;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params* params)
{
    FAKE_CUED("cuptiRangeProfilerDecodeData");
    if (params == nullptr || params->pRangeProfilerObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    auto* o = reinterpret_cast<RangeObject*>(params->pRangeProfilerObject);
    params->numOfRangeDropped = o->droppedRanges;
    o->droppedRanges = 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params* params)
{
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    if (h == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->numTotalRanges = h->numRanges;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerCounterDataGetRangeInfo(
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params* params)
{
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    if (h == nullptr || params->rangeIndex >= h->numRanges)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->rangeName = reinterpret_cast<const char*>(
        rangeAt(const_cast<std::uint8_t*>(params->pCounterDataImage), *h, params->rangeIndex));
    return CUPTI_SUCCESS;
}

// --- Profiler host ---

struct CUpti_Profiler_Host_Object {
    std::string chip;
    std::vector<std::string> metrics;
};

CUptiResult CUPTIAPI cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params* params)
{
    FAKE_CUED("cuptiProfilerHostInitialize");
    if (params == nullptr || params->pChipName == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->pHostObject = new CUpti_Profiler_Host_Object { params->pChipName, {} };
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostDeinitialize(CUpti_Profiler_Host_Deinitialize_Params* params)
{
    if (params == nullptr || params->pHostObject == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    delete params->pHostObject;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* params)
{
    FAKE_CUED("cuptiProfilerHostConfigAddMetrics");
    if (params == nullptr || params->pHostObject == nullptr || params->ppMetricNames == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (std::size_t i = 0; i < params->numMetrics; ++i) {
        if (params->ppMetricNames[i] == nullptr || std::strlen(params->ppMetricNames[i]) >= kMetricNameBytes)
            return CUPTI_ERROR_INVALID_PARAMETER;
        params->pHostObject->metrics.emplace_back(params->ppMetricNames[i]);
    }
    return CUPTI_SUCCESS;
}

namespace {
std::string configText(const CUpti_Profiler_Host_Object& host)
{
    std::string text(kConfigMagic);
    for (const auto& m : host.metrics)
        text += m + "\n";
    return text;
}
} // namespace

CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params* params)
{
    if (params == nullptr || params->pHostObject == nullptr || params->pHostObject->metrics.empty())
        return CUPTI_ERROR_INVALID_PARAMETER;
    params->configImageSize = configText(*params->pHostObject).size();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params* params)
{
    if (params == nullptr || params->pHostObject == nullptr || params->pConfigImage == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto text = configText(*params->pHostObject);
    if (params->configImageSize < text.size())
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::memcpy(params->pConfigImage, text.data(), text.size());
    return CUPTI_SUCCESS;
}

// Passes: the stand-in's own rule (one, plus one per tensor counter: CUPTI's cost is similar).
CUptiResult CUPTIAPI cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params* params)
{
    FAKE_CUED("cuptiProfilerHostGetNumOfPasses");
    if (params == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto metrics = configMetrics(params->pConfigImage, params->configImageSize);
    if (metrics.empty())
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::size_t passes = 1;
    for (const auto& m : metrics) {
        if (m.starts_with("sm__ops_path_tensor_src_") && m.ends_with(".sum"))
            ++passes;
    }
    params->numOfPasses = passes;
    ledger("passes\t%u\t%zu\t%zu", pid(), passes, metrics.size());
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params* params)
{
    FAKE_CUED("cuptiProfilerHostEvaluateToGpuValues");
    if (params == nullptr || params->pHostObject == nullptr || params->pMetricValues == nullptr
        || params->ppMetricNames == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard lock(profiler().mutex);
    const ImageHeader* h = header(params->pCounterDataImage, params->counterDataImageSize);
    if (h == nullptr || params->rangeIndex >= h->numRanges)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const std::uint8_t* range
        = rangeAt(const_cast<std::uint8_t*>(params->pCounterDataImage), *h, params->rangeIndex) + kRangeNameBytes;
    for (std::size_t i = 0; i < params->numMetrics; ++i) {
        const std::string name = params->ppMetricNames[i];
        bool found = false;
        for (std::uint32_t m = 0; m < h->numMetrics && !found; ++m) {
            if (name == imageMetric(params->pCounterDataImage, m)) {
                std::memcpy(&params->pMetricValues[i], range + 8 * m, 8);
                found = true;
            }
        }
        if (!found)
            return CUPTI_ERROR_INVALID_METRIC_NAME;
        if (name == cues().nanMetric)
            params->pMetricValues[i] = std::nan("");
    }
    return CUPTI_SUCCESS;
}

// --- NVTX ---

// What libcupti.so.13 exports for an injection library's InitializeInjectionNvtx2 to call (the
// CUPTI guide's "Initialization to Receive NVTX Callbacks or Activity Records"; no header declares it).
CUptiResult CUPTIAPI cuptiNvtxInitialize2(void* pfnGetExportTable)
{
    FAKE_CUED("cuptiNvtxInitialize2");
    auto getExportTable = reinterpret_cast<NvtxGetExportTableFunc_t>(pfnGetExportTable);
    if (getExportTable == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto* exports = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (exports == nullptr || exports->GetModuleFunctionTable == nullptr)
        return CUPTI_ERROR_INVALID_PARAMETER;
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (exports->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) == 0)
        return CUPTI_ERROR_UNKNOWN;
    install(table, size, NVTX_CBID_CORE_MarkA, fakeMarkA);
    install(table, size, NVTX_CBID_CORE_RangeStartA, fakeRangeStartA);
    install(table, size, NVTX_CBID_CORE_RangeEnd, fakeRangeEnd);
    install(table, size, NVTX_CBID_CORE_RangePushA, fakeRangePushA);
    install(table, size, NVTX_CBID_CORE_RangePushEx, fakeRangePushEx);
    install(table, size, NVTX_CBID_CORE_RangePop, fakeRangePop);
    install(table, size, NVTX_CBID_CORE_NameOsThreadA, fakeNameOsThreadA);
    if (exports->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) == 0)
        return CUPTI_ERROR_UNKNOWN;
    install(table, size, NVTX_CBID_CORE2_DomainCreateA, fakeDomainCreateA);
    install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, fakeDomainRangePushEx);
    install(table, size, NVTX_CBID_CORE2_DomainRangePop, fakeDomainRangePop);
    install(table, size, NVTX_CBID_CORE2_DomainMarkEx, fakeDomainMarkEx);
    ledger("nvtx-attach\t%u", pid());
    return CUPTI_SUCCESS;
}

// libcupti.so.13 is itself an NVTX injection library too (NVTX_INJECTION64_PATH=libcupti.so).
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable)
{
    return cuptiNvtxInitialize2(reinterpret_cast<void*>(getExportTable)) == CUPTI_SUCCESS ? 1 : 0;
}

} // extern "C"
