// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace ridgeline::cli {

// `ridgeline ceilings --measure [--device N]`: runs ridgeline-microbench on GPU N (every GPU
// when empty), caches the result per GPU UUID and prints it.
int runCeilingsMeasure(const std::string& device, const std::string& format);

} // namespace ridgeline::cli
