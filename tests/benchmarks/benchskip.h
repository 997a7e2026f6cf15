// SPDX-License-Identifier: MIT
// Benchmarks skip, with the error's message, where a step they time or set up fails.
#pragma once

#include <benchmark/benchmark.h>

namespace ridgeline::bench {

// True, with the benchmark skipped and the error's message given, where `result` (a core::Result
// or core::Status) holds an error.
template <typename R> bool skippedOnError(benchmark::State& state, const R& result)
{
    if (!result.hasError())
        return false;
    state.SkipWithError(result.error().message.c_str());
    return true;
}

} // namespace ridgeline::bench
