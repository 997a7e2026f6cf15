// SPDX-License-Identifier: MIT
#include "periodicflush.h"

#include <system_error>

namespace ridgeline::inject {

PeriodicFlush::~PeriodicFlush()
{
    stop();
}

bool PeriodicFlush::start(std::uint32_t periodMs, std::function<void()> flush)
{
    if (m_thread.joinable() || periodMs == 0 || !flush)
        return false;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = false;
    }
    try {
        m_thread = std::thread([this, periodMs, flush = std::move(flush)] {
            std::unique_lock lock(m_mutex);
            while (!m_wake.wait_for(lock, std::chrono::milliseconds(periodMs), [this] { return m_stopping; })) {
                lock.unlock();
                flush();
                lock.lock();
            }
        });
    } catch (const std::system_error&) {
        return false;
    }
    return true;
}

void PeriodicFlush::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id())
        m_thread.join();
}

} // namespace ridgeline::inject
