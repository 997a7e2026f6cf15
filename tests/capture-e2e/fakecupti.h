// SPDX-License-Identifier: MIT
// Private to the stand-in libcupti.so.13 of the end-to-end capture tests (fakecupti*.cpp; what
// the stand-in is: fakecupti.cpp): the state and helpers its parts share. The cues and the
// ledger (fakecupti.cpp), the activity records (fakecupti_activity.cpp), the callback subscriber
// (fakecupti_callbacks.cpp) and the range profiler's counter data images (fakecupti_profiler.cpp).
// Nothing here is exported (hidden, and local by fakecupti.map): libcupti.so.13 exports CUPTI's
// C API only.
#pragma once

#include "fakedriver.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <cupti.h>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)
namespace fakecuda::libcupti {

// ---------------------------------------------------------------------------------------------
// Cues and the ledger (fakecupti.cpp)

struct Cues {
    std::string chip = "GH100";
    std::size_t bufferBytes = 65536;
    std::uint32_t flushMs = 0; // 0: as asked
    std::uint64_t dropEvery = 0;
    std::set<std::uint64_t> foreignAt, droppedAt;
    std::string graphRanges = "node";
    std::string nanMetric;
    std::uint32_t replayUs = 0;
    bool domainCreateCallback = true; // RIDGELINE_FAKE_NVTX_CREATE_CALLBACK=0: nvtxDomainCreateA is not reported
    std::map<std::string, int> fail;
};

const Cues& cues();
CUptiResult cued(const char* function);

#define FAKE_CUED(function)                                                                                            \
    do {                                                                                                               \
        if (const CUptiResult cuedResult_ = cued(function); cuedResult_ != CUPTI_SUCCESS)                              \
            return cuedResult_;                                                                                        \
    } while (false)

__attribute__((format(printf, 1, 2))) void ledger(const char* format, ...);
unsigned pid();
std::uint32_t tid();
std::uint64_t timestamp();
const char* intern(const char* text);

// ---------------------------------------------------------------------------------------------
// Activity API (fakecupti_activity.cpp)

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

Activity& activity();
void startFlushThread(Activity& a);
bool enabled(std::uint32_t kind);
bool emit(const void* record);

template <typename Record> Record zeroed()
{
    Record r;
    std::memset(static_cast<void*>(&r), 0, sizeof r);
    return r;
}

// ---------------------------------------------------------------------------------------------
// Callback API (fakecupti_callbacks.cpp)

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

Callbacks& callbacks();
void call(CUpti_CallbackDomain domain, std::uint32_t cbid, const void* data);
std::map<CUcontext, std::uint32_t>& contextDevices();
std::mutex& contextMutex();

// ---------------------------------------------------------------------------------------------
// Range profiler: counter data images in the stand-in's own layout (fakecupti_profiler.cpp).

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

ImageHeader* header(const std::uint8_t* image, std::size_t size);
const char* imageMetric(const std::uint8_t* image, std::size_t i);
std::uint8_t* rangeAt(std::uint8_t* image, const ImageHeader& h, std::size_t r);
std::vector<std::string> configMetrics(const std::uint8_t* config, std::size_t size);

struct RangeObject;

struct Profiler {
    std::mutex mutex;
    std::map<CUcontext, RangeObject*> objects;
    std::uint64_t starts = 0;
};

Profiler& profiler();
void profileKernel(const Work& w);

} // namespace fakecuda::libcupti
#pragma GCC visibility pop
