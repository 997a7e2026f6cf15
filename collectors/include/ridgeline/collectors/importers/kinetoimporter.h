// SPDX-License-Identifier: MIT
// Imports PyTorch profiler (Kineto) Chrome-trace JSON, plain or gzipped, one file per rank
// (../shared/reference/trace-formats.md §2). Several files become one multi-rank session.
//
// What is imported (`ph:"X"` events, categories compared case-insensitively):
//   kernel -> kernels (NCCL kernels also -> comm_ops), gpu_memcpy / gpu_memset -> memops,
//   cuda_runtime / cuda_driver / runtime / driver -> api_calls (with the correlation id that links
//   them to GPU ops), user_annotation / gpu_user_annotation -> nvtx_ranges (domain = category),
//   deviceProperties -> devices (+ datasheet ceilings), distributedInfo -> the process's rank,
//   cpu_op / python_function -> operators (nested by time on their thread; input shapes and types,
//   module hierarchy, call stack, sequence number, External id), the External id of runtime calls.
// Timestamps (µs, possibly with ns decimals) become int64 ns exactly (rounded, not truncated).
#pragma once

#include "ridgeline/collectors/importers/importwarning.h"
#include "ridgeline/core/base/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {
class SessionWriter;
}

namespace ridgeline::collectors {

struct KinetoImportSummary {
    std::int64_t kernels = 0;
    std::int64_t memcpys = 0;
    std::int64_t memsets = 0;
    std::int64_t commOps = 0; // NCCL kernels
    std::int64_t apiCalls = 0;
    std::int64_t ranges = 0; // user annotations
    std::int64_t operators = 0; // cpu_op and python_function events
    std::vector<int> ranks; // per file, -1 when the file has no distributedInfo rank
    ImportWarnings warnings; // one sentence each: no GPU activity, missing distributedInfo, ...
};

using ImportProgress = std::function<void(double fraction, std::string_view what)>;

// Errors: unreadable, truncated or malformed files are BadFile, one line naming the file and the
// byte offset (of the uncompressed JSON) or the gzip/JSON error; an existing output without
// `overwrite` is InvalidArgument.
core::Result<KinetoImportSummary> importKineto(const std::vector<std::string>& tracePaths,
    const std::string& sessionPath, bool overwrite, const ImportProgress& progress = {});

// Parses a trace held in memory (gzip or plain JSON) without writing a session: the entry point of
// the fuzz target. `name` is used in messages.
core::Result<KinetoImportSummary> parseKinetoBytes(std::string_view name, std::string_view bytes);

// Imports a trace held in memory (gzip or plain JSON) into `writer`'s session as importKineto
// imports a file, on the calling thread; the caller finishes the session (an in-memory one, for
// the fuzz target). `windowBytes`: the text read at a time (0: the import's 16 MB).
core::Result<KinetoImportSummary> importKinetoBytes(
    core::SessionWriter& writer, std::string_view name, std::string_view bytes, std::size_t windowBytes = 0);

} // namespace ridgeline::collectors
