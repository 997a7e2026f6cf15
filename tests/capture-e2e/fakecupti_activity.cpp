// SPDX-License-Identifier: MIT
// The stand-in libcupti.so.13's Activity API (what the stand-in is: fakecupti.cpp): records
// pending until a flush, the collector's buffers, CUPTI's flush thread and cuptiActivity*.
#include "fakecupti.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <cupti.h>
#include <mutex>
#include <thread>

using namespace fakecuda;
using namespace fakecuda::libcupti;

// ---------------------------------------------------------------------------------------------
// Activity API: records wait in a fixed pending area (no malloc: a flush may run in a signal
// handler), as CUPTI's own do, until a flush moves them into the collector's buffers or a
// buffer's worth has gathered (then a buffer fills). As the CUDA 13 header says of the real one,
// the periodic flush (cuptiActivityFlushPeriod) hands over only full buffers; cuptiActivityFlushAll
// hands over every buffer whose records are complete (here: all), flag 0 or FORCED alike.

namespace {

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

} // namespace

namespace fakecuda::libcupti {

Activity& activity()
{
    static Activity* a = new Activity(); // never destroyed (threads and atexit handlers use it)
    return *a;
}

} // namespace fakecuda::libcupti

namespace {

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

} // namespace

namespace fakecuda::libcupti {

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

} // namespace fakecuda::libcupti

// =============================================================================================
// The CUPTI API (C linkage, versioned libcupti.so.13 by fakecupti.map): Activity

extern "C" {

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

} // extern "C"
