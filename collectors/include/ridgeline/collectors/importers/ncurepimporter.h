// SPDX-License-Identifier: MIT
// Imports Nsight Compute report files (.ncu-rep, `ncu -o`) into a session, reading the file
// itself: no NVIDIA tool is needed (format: docs/NCU-REP.md). Every metric of every result is
// stored; devices come from the device__attribute_* metrics, launches from launch__* and the
// result's own grid and block. Reports hold no kernel timestamps: the session gets the same
// synthetic timeline as the CSV import (results in file order, back to back, 1 µs apart).
#pragma once

#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/core/base/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

// Several reports (e.g. one per ncu run) make one session, their results in the order given.
// A malformed or hostile file is BadFile with one sentence naming the file and the byte offset.
core::Result<ImportSummary> importNcuRep(
    const std::vector<std::string>& reportPaths, const std::string& sessionPath, bool overwrite);

} // namespace ridgeline::collectors
