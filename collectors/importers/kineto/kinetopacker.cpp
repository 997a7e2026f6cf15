// SPDX-License-Identifier: MIT
// OperatorPacker (kinetointernal.h): once a trace is read, nesting its operators and packing them
// into chunks is CPU work that needs no SQLite, and writing the trace's kernels, copies, verdicts
// and indexes is SQLite work on the writer's one connection. Done one after the other they kept one
// core busy and the other idle for ~0.25 s of a 300 MB trace; here the first runs on a thread of its
// own beside the second, and only the chunks' inserts wait for it.
#include "kinetointernal.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace ridgeline::collectors::kineto {

namespace {

using Chunk = core::SessionWriter::OperatorChunk;

// Below this many operators a thread costs more than it saves (a small trace, a fuzz input).
constexpr std::size_t kThreadFrom = 8 * core::SessionWriter::kOperatorChunkRows;
// Bytes of chunks packed ahead of the inserts at most (~75 KB a chunk on a real trace): enough
// for the packing not to wait while the caller builds the session's indexes (a 300 MB trace's
// chunks are 15 MB in all), few enough to bound memory on a bigger one.
constexpr std::size_t kMaxWaitingBytes = std::size_t { 24 } << 20;

} // namespace

struct OperatorPacker::Shared {
    OperatorNesting& nesting;
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Chunk> ready; // packed, in order
    std::size_t readyBytes = 0;
    std::vector<Chunk> spare; // stored, their buffers used again
    bool done = false; // finish() returned: `result` is set
    bool stopping = false; // the caller stopped taking chunks
    core::Result<std::int64_t> result = std::int64_t { 0 };
    std::thread thread;

    explicit Shared(OperatorNesting& held)
        : nesting(held)
    { }

    // On the packing thread: finish(), each span packed and queued.
    void pack()
    {
        auto finished = nesting.finish([this](std::span<const OperatorNesting::Row> rows) -> core::Status {
            Chunk chunk;
            {
                std::lock_guard lock(mutex);
                if (!spare.empty()) {
                    chunk = std::move(spare.back());
                    spare.pop_back();
                }
            }
            RIDGELINE_TRY(core::SessionWriter::packOperators(rows, chunk));
            std::unique_lock lock(mutex);
            changed.wait(lock, [this] { return stopping || readyBytes < kMaxWaitingBytes; });
            if (stopping) // the caller's error is the one reported
                return core::makeError(core::ErrorCode::Internal, "operator packing stopped");
            readyBytes += chunk.data.size();
            ready.push_back(std::move(chunk));
            changed.notify_all();
            return {};
        });
        std::lock_guard lock(mutex);
        result = std::move(finished);
        done = true;
        changed.notify_all();
    }

    void stop()
    {
        if (!thread.joinable())
            return;
        {
            std::lock_guard lock(mutex);
            stopping = true;
        }
        changed.notify_all();
        thread.join();
    }
};

OperatorPacker::OperatorPacker(OperatorNesting& nesting)
    : m_shared(std::make_unique<Shared>(nesting))
{
    if (nesting.size() >= kThreadFrom) {
        Shared* shared = m_shared.get();
        shared->thread = std::thread([shared] { shared->pack(); });
    }
}

OperatorPacker::~OperatorPacker()
{
    m_shared->stop();
}

core::Result<std::int64_t> OperatorPacker::drain(const std::function<core::Status(const Chunk&)>& store)
{
    Shared& d = *m_shared;
    if (!d.thread.joinable()) { // few operators: all here
        Chunk chunk;
        return d.nesting.finish([&](std::span<const OperatorNesting::Row> rows) -> core::Status {
            RIDGELINE_TRY(core::SessionWriter::packOperators(rows, chunk));
            return store(chunk);
        });
    }
    while (true) {
        Chunk chunk;
        {
            std::unique_lock lock(d.mutex);
            d.changed.wait(lock, [&d] { return d.done || !d.ready.empty(); });
            if (d.ready.empty()) // done, every chunk stored
                break;
            chunk = std::move(d.ready.front());
            d.ready.pop_front();
            d.readyBytes -= chunk.data.size();
            d.changed.notify_all();
        }
        auto stored = store(chunk);
        if (stored.hasError()) {
            d.stop();
            return stored.error();
        }
        std::lock_guard lock(d.mutex);
        d.spare.push_back(std::move(chunk));
    }
    d.thread.join();
    return std::move(d.result);
}

} // namespace ridgeline::collectors::kineto
