// SPDX-License-Identifier: MIT
// A source read ahead on its own thread: gzip is inflated while the splitter works on what came
// before, so inflating and splitting run on two cores instead of one after the other.
#include "inputsource.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace ridgeline::collectors {

namespace {

constexpr std::size_t kChunkBytes = std::size_t { 4 } << 20;
constexpr std::size_t kChunksAhead = 4;

struct Chunk {
    std::vector<char> bytes; // empty: the end of the text
    std::optional<core::Error> error;
    double fraction = 0;
};

class ReadAhead final : public InputSource {
public:
    explicit ReadAhead(std::unique_ptr<InputSource> inner)
        : InputSource(inner->name())
        , m_inner(std::move(inner))
    {
        m_thread = std::thread([this] { produce(); });
    }
    ~ReadAhead() override
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    core::Result<std::size_t> read(char* out, std::size_t room) override
    {
        while (m_at == m_current.bytes.size()) {
            if (m_current.error) // the producer stopped at this error: it stays the answer
                return *m_current.error;
            if (m_ended)
                return std::size_t { 0 };
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return !m_ready.empty(); });
            m_current = std::move(m_ready.front());
            m_ready.pop_front();
            lock.unlock();
            m_changed.notify_all();
            m_at = 0;
            m_fraction = m_current.fraction;
            if (m_current.bytes.empty() && !m_current.error)
                m_ended = true;
        }
        const std::size_t n = std::min(room, m_current.bytes.size() - m_at);
        std::memcpy(out, m_current.bytes.data() + m_at, n);
        m_at += n;
        return n;
    }
    double fractionRead() const override { return m_fraction; }

private:
    void produce()
    {
        while (true) {
            Chunk chunk;
            chunk.bytes.resize(kChunkBytes);
            auto got = m_inner->read(chunk.bytes.data(), chunk.bytes.size());
            const bool last = got.hasError() || got.value() == 0;
            if (got.hasError())
                chunk.error = got.error();
            chunk.bytes.resize(got.hasError() ? 0 : got.value());
            chunk.fraction = m_inner->fractionRead();
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return m_stopping || m_ready.size() < kChunksAhead; });
            if (m_stopping)
                return;
            m_ready.push_back(std::move(chunk));
            lock.unlock();
            m_changed.notify_all();
            if (last)
                return;
        }
    }

    std::unique_ptr<InputSource> m_inner; // used by the producer thread only
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Chunk> m_ready;
    bool m_stopping = false;
    // The consumer's side.
    Chunk m_current;
    std::size_t m_at = 0;
    bool m_ended = false;
    double m_fraction = 0;
};

} // namespace

std::unique_ptr<InputSource> readAhead(std::unique_ptr<InputSource> source)
{
    return std::make_unique<ReadAhead>(std::move(source));
}

} // namespace ridgeline::collectors
