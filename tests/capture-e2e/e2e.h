// SPDX-License-Identifier: MIT
// Shared by the end-to-end capture tests: run the real `ridgeline capture` on capture_e2e_target
// with the stand-in libcuda.so.1 and libcupti.so.13 found first, and read back both the merged
// session and the ledger the stand-in CUPTI wrote of everything it handed to the collector.
#pragma once

#include "clirun.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::e2e {

// One ledger line split at tabs; field 0 is its type, field 1 the process id.
struct Line {
    std::vector<std::string> f;
    const std::string& type() const { return f.at(0); }
    std::int64_t pid() const { return num(1); }
    std::int64_t num(std::size_t i) const;
    const std::string& text(std::size_t i) const { return f.at(i); }
};

struct Ledger {
    std::vector<Line> lines;
    std::vector<const Line*> of(const std::string& type) const;
    std::size_t count(const std::string& type) const { return of(type).size(); }
};

Ledger readLedger(const std::string& path);

// A counter range of the ledger: metric name -> value.
std::map<std::string, double> rangeValues(const Line& range);

struct Session {
    std::map<std::string, std::string> meta;
    std::vector<core::Device> devices;
    std::vector<core::Ceiling> ceilings;
    std::vector<core::Process> processes;
    std::vector<core::Thread> threads;
    std::vector<core::Kernel> kernels;
    std::map<std::int64_t, std::string> names; // name id -> raw name
    std::vector<core::MemOp> memops;
    std::vector<core::ApiCall> apiCalls;
    std::vector<core::NvtxRange> nvtx;
    std::vector<core::CommOp> commOps;
    std::map<std::int64_t, core::Verdict> verdicts; // by kernel id
    std::map<std::int64_t, std::map<std::string, double>> metrics; // by kernel id (SessionReader::forEachMetric)
    std::string error; // the session could not be read

    std::int64_t pidOf(std::int64_t processId) const;
    int ordinalOf(std::int64_t deviceId) const;
    const std::string& nameOf(const core::Kernel& k) const { return names.at(k.nameId); }
    std::vector<const core::Kernel*> kernelsNamed(const std::string& raw) const;
    std::string warnings() const;
    std::string value(const std::string& metaKey) const; // "" when the key is absent
};

Session readSession(const std::string& path);

struct Run {
    testing::RunResult result;
    Ledger ledger;
    Session session;
    std::string output;
};

struct Options {
    std::vector<std::string> env; // KEY=VALUE, also the stand-ins' cues
    std::vector<std::string> flags; // capture options
    int timeoutSeconds = 60;
};

// `ridgeline capture -o DIR/s.ridge FLAGS -- capture_e2e_target ARGS`, with the stand-ins.
Run capture(const testing::TempDir& dir, const std::vector<std::string>& args, const Options& options = {});

} // namespace ridgeline::e2e
