// SPDX-License-Identifier: MIT
// Shared by the end-to-end capture tests (test_capture_e2e*.cpp): the kernels the test program
// (target.cpp) runs, and the checks of a merged session against the stand-in CUPTI's ledger,
// record by record.
#pragma once

#include "e2e.h"
#include "ridgeline/core/model/model.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

namespace ridgeline::e2e {

constexpr const char* kTriad = "_Z12stream_triadPfPKfS1_f";
constexpr const char* kSgemm = "_Z5sgemmiiiPKfS0_Pf";
constexpr const char* kHgemm = "_Z5hgemmiiiPK6__halfS1_Pf";
constexpr const char* kDgemm = "_Z5dgemmiiiPKdS0_Pd";
constexpr const char* kSmall = "_Z5smalli";
constexpr const char* kChild = "_Z11child_worki";

void expectKernels(const Run& run, const std::set<std::int64_t>& pids);
void expectMemops(const Run& run);
void expectApiCalls(const Run& run);
void expectNvtx(const Run& run);
std::size_t expectCounters(const Run& run);
const core::Ceiling* ceiling(const Session& s, const std::string& resource, core::CeilingSource source);
const core::Verdict* verdictOf(const Session& s, const char* kernel);

} // namespace ridgeline::e2e
