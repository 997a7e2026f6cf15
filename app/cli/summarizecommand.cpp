// SPDX-License-Identifier: MIT
// `ridgeline summarize S...`: the map step of a report over many ranks. Each session gets its
// ranks' summaries (cluster/ranksummary.h) stored in it, so that `report --by rank` reads a few
// hundred bytes per rank instead of every launch, and its timeline analysis (storedtimeline.h),
// which `report` of the session reads instead of every GPU op. On a cluster, each task its own session:
// `srun ridgeline summarize runs/run-%q{SLURM_PROCID}.ridge` (namepatterns.h).
#include "commands.h"
#include "exitcodes.h"
#include "namedsessions.h"
#include "namepatterns.h"
#include "ridgeline/core/analysis/storedtimeline.h"
#include "ridgeline/core/cluster/ranksummary.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <memory>

namespace ridgeline::cli {

namespace {

struct SummarizeOptions {
    std::vector<std::string> paths;
    std::size_t threads = 0;
};

int runSummarize(SummarizeOptions& options)
{
    if (auto bad = expandNamePatterns(options.paths, ""))
        return *bad;
    // Not from stored summaries: summarize again, the sessions may be newer than their summaries.
    auto gathered = gatherNamedSessions(options.paths, options.threads, false);
    if (!gathered)
        return fail(ExitUsage, "no session to summarize (the folders given hold no .ridge files)");
    std::map<std::string, std::vector<core::RankSummary>> bySession;
    for (auto& s : gathered->ranks)
        bySession[s.session].push_back(std::move(s));
    int status = ExitSuccess;
    for (const auto& failure : gathered->failures)
        status = fail(ExitBadInput, failure);
    for (const auto& [path, summaries] : bySession) {
        if (auto stored = core::storeRankSummaries(path, summaries); stored.hasError()) {
            status = fail(exitCodeFor(stored.error()), stored.error().message);
            continue;
        }
        if (auto stored = core::storeTimelineSummaries(path); stored.hasError()) {
            status = fail(exitCodeFor(stored.error()), stored.error().message);
            continue;
        }
        std::string ranks;
        for (const auto& s : summaries)
            ranks += (ranks.empty() ? "" : ", ") + (s.rank < 0 ? std::string("no rank") : std::to_string(s.rank));
        std::cout << fmt::format("{}: {} summarised ({})\n", path,
            summaries.size() == 1 ? std::string("1 rank") : fmt::format("{} ranks", summaries.size()), ranks);
    }
    const int written = finishOutput();
    return status != ExitSuccess ? status : written;
}

} // namespace

Runner addSummarizeCommand(CLI::App& app)
{
    auto options = std::make_shared<SummarizeOptions>();
    auto* cmd = app.add_subcommand("summarize",
        "Store each session's per-rank summary and timeline analysis in it, for reports over many ranks "
        "(report --by rank) and of long runs");
    cmd->add_option("FILE", options->paths,
           "Session files (.ridge), or folders holding them; capture's -o patterns (%h, %p, %q{VAR}, %%) are expanded")
        ->required();
    cmd->add_option("-j,--threads", options->threads, "Sessions read at once (0: one per core)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->footer("The session is brought to the current schema first (as every open does in memory). On a cluster,\n"
                "summarize where the sessions lie (srun -N 64 ridgeline summarize run-%q{SLURM_PROCID}.ridge),\n"
                "then report over all of them from one node: ridgeline report runs/ --by rank.");
    return [options] { return runSummarize(*options); };
}

} // namespace ridgeline::cli
