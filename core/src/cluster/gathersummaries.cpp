// SPDX-License-Identifier: MIT
// Rank summaries of many sessions, several at once on worker threads: each worker opens one
// session, keeps its summaries and closes it, so memory follows the largest session in flight.
#include "ridgeline/core/base/slurmjob.h"
#include "ridgeline/core/cluster/ranksummary.h"
#include "ridgeline/core/store/sessionreader.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

namespace ridgeline::core {

namespace {

Result<std::vector<RankSummary>> summariesOf(const std::string& path, const GatherOptions& options, bool& stored)
{
    auto reader = SessionReader::open(path);
    if (reader.hasError())
        return reader.error();
    std::optional<std::vector<RankSummary>> summaries;
    if (options.useStored) {
        auto kept = storedRankSummaries(reader.value());
        if (kept.ok() && kept.value()) {
            stored = true;
            summaries = std::move(*kept.value());
        }
    }
    if (!summaries) {
        auto made = summarizeRanks(reader.value(), options.topKernels);
        if (made.hasError())
            return made.error();
        summaries = std::move(made).value();
    }
    // The Slurm job is the session's, not the summary's: a few bytes of meta, read every time.
    auto meta = reader.value().meta();
    if (meta.hasError())
        return meta.error();
    if (auto job = meta.value().find(metakey::SlurmJobId); job != meta.value().end()) {
        for (auto& s : *summaries)
            s.job = job->second;
    }
    return std::move(*summaries);
}

} // namespace

std::vector<std::string> expandSessionPaths(const std::vector<std::string>& paths)
{
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const auto& path : paths) {
        std::error_code ec;
        if (!fs::is_directory(path, ec)) {
            out.push_back(path);
            continue;
        }
        std::vector<std::string> inFolder;
        for (const auto& entry : fs::directory_iterator(path, ec)) {
            if (entry.path().extension() == ".ridge" && entry.is_regular_file(ec))
                inFolder.push_back(entry.path().string());
        }
        std::sort(inFolder.begin(), inFolder.end());
        out.insert(out.end(), inFolder.begin(), inFolder.end());
    }
    return out;
}

GatheredSummaries gatherRankSummaries(const std::vector<std::string>& paths, const GatherOptions& options,
    const std::function<void(std::size_t, std::size_t)>& progress)
{
    struct Slot {
        std::optional<Result<std::vector<RankSummary>>> result;
        bool stored = false;
    };
    std::vector<Slot> slots(paths.size());
    std::atomic<std::size_t> next { 0 };
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t done = 0;

    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    const std::size_t threads = std::min(options.threads > 0 ? options.threads : cores, std::max<std::size_t>(paths.size(), 1));
    {
        std::vector<std::jthread> workers;
        for (std::size_t t = 0; t < threads; ++t) {
            workers.emplace_back([&] {
                for (std::size_t i = next++; i < paths.size(); i = next++) {
                    bool stored = false;
                    auto result = summariesOf(paths[i], options, stored);
                    std::lock_guard lock(mutex);
                    slots[i].result = std::move(result);
                    slots[i].stored = stored;
                    ++done;
                    changed.notify_one();
                }
            });
        }
        std::unique_lock lock(mutex);
        std::size_t reported = 0;
        while (reported < paths.size()) {
            changed.wait(lock, [&] { return done > reported; });
            reported = done;
            if (progress) {
                lock.unlock();
                progress(reported, paths.size());
                lock.lock();
            }
        }
    }

    GatheredSummaries out;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        auto& result = *slots[i].result;
        if (result.hasError()) {
            out.failures.push_back(result.error().message);
            continue;
        }
        out.fromStored += slots[i].stored ? 1U : 0U;
        for (auto& summary : result.value()) {
            summary.session = paths[i];
            out.ranks.push_back(std::move(summary));
        }
    }
    return out;
}

} // namespace ridgeline::core
