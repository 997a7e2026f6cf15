// SPDX-License-Identifier: MIT
// A thread of the injection library that asks CUPTI every period to deliver the activity buffers
// whose records are complete (cuptiActivityFlushAll(0)), so that the part file grows while the
// program runs and a process killed outright (SIGKILL, the OOM killer) loses at most one period.
// CUPTI's own periodic flush (cuptiActivityFlushPeriod) delivers only *full* buffers (CUDA 13
// cupti_activity.h), which with 8 MB buffers can mean nothing until exit; the header advises this
// "default flush ... at a regular interval in a separate thread" instead.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace ridgeline::inject {

class PeriodicFlush {
public:
    PeriodicFlush() = default;
    ~PeriodicFlush();
    PeriodicFlush(const PeriodicFlush&) = delete;
    PeriodicFlush& operator=(const PeriodicFlush&) = delete;

    // Calls `flush` every `periodMs` until stop(). False when the thread could not be started.
    bool start(std::uint32_t periodMs, std::function<void()> flush);
    // Stops and joins the thread (a flush in progress finishes first). Idempotent. Never called in
    // a forked child (it does not own the capture), where the thread does not exist.
    void stop();

private:
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace ridgeline::inject
