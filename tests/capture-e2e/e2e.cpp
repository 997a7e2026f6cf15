// SPDX-License-Identifier: MIT
#include "e2e.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

namespace ridgeline::e2e {

std::int64_t Line::num(std::size_t i) const
{
    return std::strtoll(f.at(i).c_str(), nullptr, 10);
}

std::vector<const Line*> Ledger::of(const std::string& type) const
{
    std::vector<const Line*> out;
    for (const auto& l : lines) {
        if (l.type() == type)
            out.push_back(&l);
    }
    return out;
}

Ledger readLedger(const std::string& path)
{
    Ledger ledger;
    std::ifstream in(path);
    std::string text;
    while (std::getline(in, text)) {
        Line line;
        std::size_t start = 0;
        while (start <= text.size()) {
            const auto end = std::min(text.find('\t', start), text.size());
            line.f.push_back(text.substr(start, end - start));
            start = end + 1;
        }
        if (line.f.size() >= 2)
            ledger.lines.push_back(std::move(line));
    }
    return ledger;
}

std::map<std::string, double> rangeValues(const Line& range)
{
    std::map<std::string, double> values;
    const std::string& text = range.text(5);
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find(';', start), text.size());
        const auto item = text.substr(start, end - start);
        if (const auto eq = item.find('='); eq != std::string::npos)
            values[item.substr(0, eq)] = std::strtod(item.c_str() + eq + 1, nullptr);
        start = end + 1;
    }
    return values;
}

std::int64_t Session::pidOf(std::int64_t processId) const
{
    for (const auto& p : processes) {
        if (p.id == processId)
            return p.pid;
    }
    return -1;
}

int Session::ordinalOf(std::int64_t deviceId) const
{
    for (const auto& d : devices) {
        if (d.id == deviceId)
            return d.ordinal;
    }
    return -1;
}

std::vector<const core::Kernel*> Session::kernelsNamed(const std::string& raw) const
{
    std::vector<const core::Kernel*> out;
    for (const auto& k : kernels) {
        if (names.at(k.nameId) == raw)
            out.push_back(&k);
    }
    return out;
}

std::string Session::warnings() const
{
    return value("capture.warning");
}

std::string Session::value(const std::string& metaKey) const
{
    auto it = meta.find(metaKey);
    return it == meta.end() ? std::string() : it->second;
}

Session readSession(const std::string& path)
{
    Session s;
    auto opened = core::SessionReader::open(path);
    if (opened.hasError()) {
        s.error = opened.error().message;
        return s;
    }
    auto& r = opened.value();
    auto fail = [&](const std::string& what) {
        if (s.error.empty())
            s.error = what;
    };
    // A table's rows into `rows`; where it cannot be read and is `required`, its error is the session's.
    auto take = [&](auto result, auto& rows, bool required) {
        if (result.ok())
            rows = std::move(result).value();
        else if (required)
            fail(result.error().message);
    };
    take(r.meta(), s.meta, true);
    take(r.devices(), s.devices, false);
    take(r.ceilings(), s.ceilings, false);
    take(r.processes(), s.processes, false);
    take(r.threads(), s.threads, false);
    take(r.kernels(), s.kernels, true);
    if (auto v = r.kernelNames(); v.ok()) {
        for (const auto& n : v.value())
            s.names[n.id] = n.raw;
    }
    take(r.memOps(), s.memops, false);
    take(r.apiCalls(), s.apiCalls, false);
    take(r.nvtxRanges(), s.nvtx, false);
    take(r.commOps(), s.commOps, false);
    if (auto v = r.verdicts(); v.ok()) {
        for (auto& verdict : v.value())
            s.verdicts[verdict.kernelId] = verdict;
    }
    auto visited = r.forEachMetric(
        [&](std::int64_t kernel, const std::string& name, double value) { s.metrics[kernel][name] = value; });
    if (visited.hasError())
        fail(visited.error().message);
    return s;
}

Run capture(const testing::TempDir& dir, const std::vector<std::string>& args, const Options& options)
{
    Run run;
    run.output = dir.file("s.ridge");
    const std::string ledger = dir.file("ledger.tsv");
    testing::RunOptions ro;
    ro.timeoutSeconds = options.timeoutSeconds;
    // The stand-ins are found first: the launcher's CUPTI search starts at $CUDA_HOME and puts its
    // lib64 first on the target's LD_LIBRARY_PATH (libridgeline-inject.so's RUNPATH comes after
    // it); the probe loads the driver named by $RIDGELINE_LIBCUDA; the target's RUNPATH has it.
    ro.env = { std::string("CUDA_HOME=") + E2E_CUDA_ROOT, std::string("RIDGELINE_LIBCUDA=") + E2E_LIBCUDA,
        "RIDGELINE_FAKE_LEDGER=" + ledger, "XDG_CACHE_HOME=" + dir.file("cache") };
    ro.env.insert(ro.env.end(), options.env.begin(), options.env.end());
    std::vector<std::string> cli { "capture", "-o", run.output };
    cli.insert(cli.end(), options.flags.begin(), options.flags.end());
    cli.push_back("--");
    cli.push_back(E2E_TARGET);
    cli.insert(cli.end(), args.begin(), args.end());
    run.result = ridgeline::testing::runCli(cli, ro);
    run.ledger = readLedger(ledger);
    run.session = readSession(run.output);
    return run;
}

} // namespace ridgeline::e2e
