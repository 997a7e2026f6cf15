// SPDX-License-Identifier: MIT
// NVTX ranges still open (started, not yet ended) when a buffer was written, kept in the part file
// (meta `capture.open_nvtx`) so that the crash path can close them: when a process dies, the end
// of a range started earlier comes from its crash file, which the launcher translates with a
// translator of its own (crashrecover.cpp). Pure; tested in tests/capture-translate.
#pragma once

#include "ridgeline/core/model/model.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline::inject {

inline constexpr const char* kOpenNvtxMeta = "capture.open_nvtx";

using OpenRanges = std::vector<std::pair<std::uint32_t, core::NvtxRange>>; // CUPTI marker id, range

// JSON; "" when there are none.
std::string encodeOpenRanges(const OpenRanges& ranges);
// Whatever is malformed is left out (the text comes from a part file of a process that died).
OpenRanges decodeOpenRanges(const std::string& text);

} // namespace ridgeline::inject
