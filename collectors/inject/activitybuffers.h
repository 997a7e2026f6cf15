// SPDX-License-Identifier: MIT
// The CUPTI Activity API side of the injection library: which record kinds are enabled, buffer
// allocation, and walking a completed buffer into record pointers for the translator. Needs the
// CUDA driver (cuptiActivityEnable fails without one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cupti_activity.h>
#include <string>
#include <vector>

namespace ridgeline::inject {

using BufferCompleted = void (*)(
    CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t size, std::size_t validSize);

struct ActivitySetup {
    // Kinds that could not be enabled, as user sentences (tracing goes on with the others).
    std::vector<std::string> warnings;
    // Set when nothing can be traced (the callbacks could not be registered, no kernels).
    std::string error;
};

// Registers the buffer callbacks, enables every kind Ridgeline records and sets the flush
// period. `completed` is called from CUPTI's thread (or from a flush) with each full buffer.
ActivitySetup enableActivities(BufferCompleted completed, std::uint32_t flushPeriodMs);

// The records of a completed buffer, in order (pointers into the buffer).
std::vector<const CUpti_Activity*> bufferRecords(std::uint8_t* buffer, std::size_t validSize);

// Records CUPTI dropped for this context and stream since the last call.
std::uint64_t droppedRecords(CUcontext context, std::uint32_t streamId);

// From here on the buffer request callback allocates nothing (called by the fatal-signal handler
// before it asks CUPTI to flush): it hands out the one buffer reserved by enableActivities, then
// none. Async-signal-safe.
void enterSignalPath() noexcept;

// Frees a buffer handed out by the request callback.
void releaseBuffer(std::uint8_t* buffer);

} // namespace ridgeline::inject
