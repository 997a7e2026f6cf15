// SPDX-License-Identifier: MIT
// `ridgeline import rank-*.json.gz -o DIR/`: each file into a session of its own, several at once.
#include "ridgeline/collectors/importers/importer.h"
#include "ridgeline/core/model/importformats.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <thread>

namespace ridgeline::collectors {

namespace fs = std::filesystem;

core::Result<std::vector<EachImport>> importEach(const EachImportRequest& request)
{
    std::error_code ec;
    fs::create_directories(request.directory, ec);
    if (ec || !fs::is_directory(request.directory, ec))
        return core::makeError(core::ErrorCode::Io,
            fmt::format("{}: cannot be created as the folder of the sessions ({})", request.directory,
                ec ? ec.message() : "not a folder"));
    // Every output is known before anything is written: two inputs must not write one session.
    std::vector<EachImport> out(request.inputs.size());
    std::map<std::string, std::string> taken;
    for (std::size_t i = 0; i < request.inputs.size(); ++i) {
        out[i].input = request.inputs[i];
        out[i].output
            = (fs::path(request.directory) / core::sessionNameFor(fs::path(request.inputs[i]).filename().string()))
                  .string();
        auto [it, added] = taken.emplace(out[i].output, request.inputs[i]);
        if (!added)
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("{} and {} would both be imported into {}", it->second, request.inputs[i], out[i].output));
        if (!request.overwrite && fs::exists(out[i].output, ec))
            return core::makeError(core::ErrorCode::InvalidArgument,
                fmt::format("{} already exists (choose another folder, or overwrite it)", out[i].output));
    }

    std::atomic<std::size_t> next { 0 };
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t done = 0;
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    const std::size_t threads
        = std::min(request.threads > 0 ? request.threads : cores, std::max<std::size_t>(out.size(), 1));
    {
        std::vector<std::jthread> workers;
        for (std::size_t t = 0; t < threads; ++t) {
            workers.emplace_back([&] {
                for (std::size_t i = next++; i < out.size(); i = next++) {
                    ImportRequest one;
                    one.inputs = { out[i].input };
                    one.output = out[i].output;
                    one.overwrite = request.overwrite;
                    one.gpuName = request.gpuName;
                    one.job = request.job;
                    one.rankFromJob = out.size() == 1;
                    auto imported = importFiles(one);
                    std::lock_guard lock(mutex);
                    if (imported.hasError())
                        out[i].error = imported.error().message;
                    else
                        out[i].result = std::move(imported).value();
                    ++done;
                    changed.notify_one();
                }
            });
        }
        std::unique_lock lock(mutex);
        std::size_t reported = 0;
        while (reported < out.size()) {
            changed.wait(lock, [&] { return done > reported; });
            for (; reported < done; ++reported) {
                if (request.progress) {
                    lock.unlock();
                    request.progress(reported + 1, out.size());
                    lock.lock();
                }
            }
        }
    }
    return out;
}

} // namespace ridgeline::collectors
