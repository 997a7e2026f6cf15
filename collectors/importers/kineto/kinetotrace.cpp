// SPDX-License-Identifier: MIT
// One trace, streamed: the splitter cuts the text on this thread while worker threads parse the
// batches of events, and this thread parses one too whenever it would wait for them; the batches'
// records are merged back in file order, so the result (and the first error reported) is the same
// as a sequential parse. Batches in flight are bounded, so memory stays at a few windows of text
// plus the records kept.
#include "kinetointernal.h"
#include "kinetosplit.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <simdjson.h>
#include <thread>
#include <vector>

namespace ridgeline::collectors::kineto {

namespace {

struct Batch {
    std::unique_ptr<char[]> text; // "[...]" followed by simdjson's padding
    std::size_t capacity = 0;
    std::size_t size = 0;
    std::uint64_t offset = 0;
    std::string name;
    std::promise<core::Result<ParsedTrace>> parsed;
};

// Worker threads, each with its own simdjson parser, taking batches in submission order.
class ParsePool {
public:
    explicit ParsePool(unsigned threads)
    {
        for (unsigned i = 0; i < threads; ++i)
            m_threads.emplace_back([this] { work(); });
    }
    ~ParsePool()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_all();
        for (auto& thread : m_threads)
            thread.join();
    }
    ParsePool(const ParsePool&) = delete;
    ParsePool& operator=(const ParsePool&) = delete;

    // A batch whose text was parsed, for its buffer to be filled again (none: nullptr).
    std::unique_ptr<Batch> spare()
    {
        std::lock_guard lock(m_mutex);
        if (m_spare.empty())
            return nullptr;
        auto batch = std::move(m_spare.back());
        m_spare.pop_back();
        return batch;
    }

    std::future<core::Result<ParsedTrace>> submit(std::unique_ptr<Batch> batch)
    {
        auto future = batch->parsed.get_future();
        {
            std::lock_guard lock(m_mutex);
            m_queue.push_back(std::move(batch));
        }
        m_wake.notify_one();
        return future;
    }

    // Parses the oldest batch no worker has taken yet, here, with `parser`: the submitting thread
    // helps instead of waiting idle for a result. False when none is waiting.
    bool helpOne(PieceParser& parser)
    {
        std::unique_ptr<Batch> batch;
        {
            std::lock_guard lock(m_mutex);
            if (m_queue.empty())
                return false;
            batch = std::move(m_queue.front());
            m_queue.pop_front();
        }
        parse(parser, std::move(batch));
        return true;
    }

private:
    void work()
    {
        PieceParser parser;
        while (true) {
            std::unique_ptr<Batch> batch;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
                if (m_stopping)
                    return;
                batch = std::move(m_queue.front());
                m_queue.pop_front();
            }
            parse(parser, std::move(batch));
        }
    }

    void parse(PieceParser& parser, std::unique_ptr<Batch> batch)
    {
        ParsedTrace part;
        part.name = batch->name;
        auto status
            = parser.events(std::string_view(batch->text.get(), batch->size), batch->capacity, batch->offset, part);
        if (status.hasError())
            batch->parsed.set_value(status.error());
        else
            batch->parsed.set_value(std::move(part));
        // Its text buffer is used again: a new one per batch would be fresh pages each time,
        // and the freed ones would raise glibc's threshold for giving memory back.
        batch->parsed = {};
        std::lock_guard lock(m_mutex);
        m_spare.push_back(std::move(batch));
    }

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::unique_ptr<Batch>> m_queue;
    std::vector<std::unique_ptr<Batch>> m_spare;
    bool m_stopping = false;
};

} // namespace

unsigned parseWorkers()
{
    // The reading thread parses too whenever it would wait for a result (ParsePool::helpOne): one
    // worker fewer than cores keeps every thread on a core of its own.
    const unsigned cores = std::thread::hardware_concurrency();
    return std::clamp(cores > 1 ? cores - 1 : 1u, 1u, 8u);
}

core::Result<ParsedTrace> parseTrace(InputSource& source, const std::function<void(double)>& progress, unsigned workers,
    std::size_t batchBytes, const BatchConsumer& consume, std::size_t windowBytes)
{
    ParsedTrace trace;
    trace.name = source.name();
    PieceParser parser; // top-level members, and every batch when there are no workers
    std::unique_ptr<ParsePool> pool; // started with the first batch
    std::deque<std::future<core::Result<ParsedTrace>>> inFlight;
    // Two more than the workers hold, so that the reading thread has one to parse (helpOne) whenever
    // it would wait for the oldest.
    const std::size_t maxInFlight = 2 * std::size_t { workers } + 2;
    bool batchFailed = false;

    const auto mergeOldest = [&]() -> core::Status {
        auto& oldest = inFlight.front();
        while (oldest.wait_for(std::chrono::seconds(0)) != std::future_status::ready && pool->helpOne(parser)) { }
        auto part = oldest.get();
        inFlight.pop_front();
        if (part.hasError()) {
            batchFailed = true;
            return part.error();
        }
        if (consume)
            RIDGELINE_TRY(consume(part.value()));
        mergeInto(trace, std::move(part).value());
        return {};
    };

    // One batch parsed on this thread, in file order.
    const auto parseHere = [&](std::string_view text, std::size_t capacity, std::uint64_t offset) -> core::Status {
        ParsedTrace part;
        part.name = trace.name;
        auto parsed = parser.events(text, capacity, offset, part);
        if (parsed.hasError()) {
            batchFailed = true;
            return parsed.error();
        }
        if (consume)
            RIDGELINE_TRY(consume(part));
        mergeInto(trace, std::move(part));
        return {};
    };
    // The first batch waits for a second before any thread starts: a trace of one batch (most
    // small traces) is parsed here, without starting and stopping a pool for it.
    std::unique_ptr<Batch> held;

    SplitHandlers handlers;
    handlers.member = [&](std::string_view text, std::size_t capacity) { return parser.member(text, capacity, trace); };
    handlers.events = [&](std::string_view text, std::size_t capacity, std::uint64_t offset) -> core::Status {
        if (workers == 0)
            return parseHere(text, capacity, offset);
        auto batch = pool ? pool->spare() : nullptr;
        if (!batch)
            batch = std::make_unique<Batch>();
        if (batch->capacity < text.size() + simdjson::SIMDJSON_PADDING) {
            batch->capacity = text.size() + simdjson::SIMDJSON_PADDING;
            batch->text.reset(new char[batch->capacity]);
        }
        std::memcpy(batch->text.get(), text.data(), text.size());
        std::memset(batch->text.get() + text.size(), 0, simdjson::SIMDJSON_PADDING); // the rest: never read
        batch->size = text.size();
        batch->offset = offset;
        batch->name = trace.name;
        if (!pool && !held) {
            held = std::move(batch);
            return {};
        }
        if (!pool) {
            pool = std::make_unique<ParsePool>(workers);
            inFlight.push_back(pool->submit(std::move(held)));
        }
        inFlight.push_back(pool->submit(std::move(batch)));
        while (inFlight.size() > maxInFlight)
            RIDGELINE_TRY(mergeOldest());
        return {};
    };
    handlers.progress = progress;
    SplitOptions options;
    if (batchBytes > 0)
        options.batchBytes = batchBytes;
    if (windowBytes > 0) {
        options.windowBytes = windowBytes;
        options.batchBytes = std::min(options.batchBytes, windowBytes);
    }
    auto split = splitTrace(source, handlers, options);
    if (split.hasError() && batchFailed) // batches merge in file order: this is the first error
        return split.error();
    // A batch still in flight (or held) lies before where the splitter stopped: its error comes first.
    while (!inFlight.empty())
        RIDGELINE_TRY(mergeOldest());
    if (held)
        RIDGELINE_TRY(parseHere(std::string_view(held->text.get(), held->size), held->capacity, held->offset));
    if (split.hasError())
        return split.error();
    return trace;
}

} // namespace ridgeline::collectors::kineto
