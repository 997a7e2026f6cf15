// SPDX-License-Identifier: MIT
#include "activitybuffers.h"

#include "cuptierrors.h"

#include <atomic>
#include <cstdlib>
#include <utility>

namespace ridgeline::inject {

namespace {

constexpr std::size_t kBufferSize = 8 * 1024 * 1024; // as CUPTI's samples: large enough for ~100k records
constexpr std::size_t kAlignment = 8;

// The fatal-signal path may not allocate: CUPTI's flush there can still ask for a buffer (for the
// records it moves out of its own queues), so one buffer is reserved at start-up and handed out
// then, once; any later request in that path gets none (CUPTI counts what it cannot store as
// dropped records).
std::atomic<bool> g_inSignal { false };
std::atomic<std::uint8_t*> g_reserved { nullptr };

void CUPTIAPI requestBuffer(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords)
{
    *maxNumRecords = 0; // as many as fit
    if (g_inSignal.load()) {
        std::uint8_t* reserved = g_reserved.exchange(nullptr);
        *buffer = reserved;
        *size = reserved != nullptr ? kBufferSize : 0;
        return;
    }
    void* memory = std::aligned_alloc(kAlignment, kBufferSize);
    // On failure CUPTI gets no buffer and counts what it cannot store as dropped records.
    *buffer = static_cast<std::uint8_t*>(memory);
    *size = memory ? kBufferSize : 0;
}

BufferCompleted g_completed = nullptr;

void CUPTIAPI completeBuffer(
    CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t size, std::size_t validSize)
{
    if (g_completed)
        g_completed(context, streamId, buffer, size, validSize);
    else
        releaseBuffer(buffer);
}

struct KindInfo {
    CUpti_ActivityKind kind;
    const char* what;
    bool essential; // without it the capture is pointless
};

constexpr KindInfo kKinds[] = {
    { CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "kernels", true },
    { CUPTI_ACTIVITY_KIND_MEMCPY, "memory copies", false },
    { CUPTI_ACTIVITY_KIND_MEMCPY2, "peer-to-peer copies", false },
    { CUPTI_ACTIVITY_KIND_MEMSET, "memsets", false },
    { CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronisation", false },
    { CUPTI_ACTIVITY_KIND_RUNTIME, "CUDA runtime API calls", false },
    { CUPTI_ACTIVITY_KIND_DRIVER, "CUDA driver API calls", false },
    { CUPTI_ACTIVITY_KIND_MARKER, "NVTX ranges", false },
    { CUPTI_ACTIVITY_KIND_MARKER_DATA, "NVTX colours", false },
    { CUPTI_ACTIVITY_KIND_NAME, "thread names", false },
    { CUPTI_ACTIVITY_KIND_OVERHEAD, "CUPTI overhead records", false },
    { CUPTI_ACTIVITY_KIND_DEVICE, "device properties", false },
};

} // namespace

ActivitySetup enableActivities(BufferCompleted completed, std::uint32_t flushPeriodMs)
{
    ActivitySetup setup;
    g_completed = completed;
    if (g_reserved.load() == nullptr)
        g_reserved.store(static_cast<std::uint8_t*>(std::aligned_alloc(kAlignment, kBufferSize)));
    if (const CUptiResult r = cuptiActivityRegisterCallbacks(requestBuffer, completeBuffer); r != CUPTI_SUCCESS) {
        setup.error = cuptiErrorSentence(r, CuptiStage::Tracing, "cuptiActivityRegisterCallbacks");
        return setup;
    }
    for (const auto& info : kKinds) {
        const CUptiResult r = cuptiActivityEnable(info.kind);
        if (r == CUPTI_SUCCESS)
            continue;
        std::string sentence = cuptiErrorSentence(r, CuptiStage::Tracing, "cuptiActivityEnable");
        if (info.essential) {
            setup.error = std::move(sentence);
            return setup;
        }
        setup.warnings.push_back(std::string("CUPTI could not record ") + info.what + " (CUPTI error "
            + std::to_string(static_cast<int>(r)) + "); the rest of the trace is kept.");
    }
    if (const CUptiResult r = cuptiActivityFlushPeriod(flushPeriodMs); r != CUPTI_SUCCESS)
        setup.warnings.push_back("CUPTI refused a flush period of " + std::to_string(flushPeriodMs)
            + " ms (CUPTI error " + std::to_string(static_cast<int>(r))
            + "); records are written when buffers fill and at exit.");
    return setup;
}

std::vector<const CUpti_Activity*> bufferRecords(std::uint8_t* buffer, std::size_t validSize)
{
    std::vector<const CUpti_Activity*> records;
    if (!buffer || validSize == 0)
        return records;
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS)
        records.push_back(record);
    return records;
}

std::uint64_t droppedRecords(CUcontext context, std::uint32_t streamId)
{
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) != CUPTI_SUCCESS)
        return 0;
    return dropped;
}

void enterSignalPath() noexcept
{
    g_inSignal.store(true);
}

void releaseBuffer(std::uint8_t* buffer)
{
    std::free(buffer);
}

} // namespace ridgeline::inject
