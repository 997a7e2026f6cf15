// SPDX-License-Identifier: MIT
// Splits the JSON text of a Kineto trace, as it streams in, into pieces simdjson parses one at a
// time: each top-level member except the event list, and batches of whole events. Only the
// structure is followed here (strings, escapes, nesting); values are parsed by simdjson, which
// also rejects anything malformed inside a piece. Memory: one window of text (grown only for an
// event bigger than the window), never the whole file.
#pragma once

#include "common/inputsource.h"
#include "ridgeline/core/base/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace ridgeline::collectors::kineto {

struct SplitHandlers {
    // A top-level member other than "traceEvents", as the one-member object text `{"key":value}`.
    // `capacity` >= text.size() + simdjson's padding.
    std::function<core::Status(std::string_view text, std::size_t capacity)> member;
    // Whole events as the array text `[e1,e2,...]`; `offset` is the byte offset in the trace of the
    // `[`'s position (the first event starts one byte later). `capacity` as above.
    std::function<core::Status(std::string_view text, std::size_t capacity, std::uint64_t offset)> events;
    // After each batch: the fraction of the input read.
    std::function<void(double)> progress;
};

struct SplitOptions {
    std::size_t windowBytes = std::size_t { 8 } << 20; // text held at most (grown for a bigger event)
    std::size_t batchBytes = std::size_t { 1 } << 20; // events handed to simdjson at a time
    // Text read at a time: a read small enough to stay in the cache until the splitter has looked at
    // it (the window is a bound, not the amount read).
    std::size_t readBytes = std::size_t { 256 } << 10;
    // The window grows (doubling) for one value up to this size; a bigger event or top-level member
    // is refused (BadFile), so that a hostile file cannot make the import hold it in memory. Real
    // Kineto events are a few KB.
    std::size_t maxValueBytes = std::size_t { 32 } << 20;
};

// Errors: BadFile naming the source and the byte offset (empty file, truncated or malformed JSON,
// text after the trace, a value nested deeper than 1024 levels or larger than maxValueBytes); the handlers' and the
// source's errors as they are.
core::Status splitTrace(InputSource& source, const SplitHandlers& handlers, const SplitOptions& options = {});

} // namespace ridgeline::collectors::kineto
