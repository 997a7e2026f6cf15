// SPDX-License-Identifier: MIT
// A real PyTorch (Kineto) trace of tests/data imported into a session of its own temporary folder,
// open for reading: what the end-to-end tests of the operator analyses start from.
#pragma once

#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <memory>
#include <optional>
#include <string>

namespace ridgeline::testing {

struct ImportedTrace {
    TempDir dir;
    std::optional<core::SessionReader> reader; // empty when the import or the open failed (a test failure says why)
};

// `relative`: a path under tests/data.
std::unique_ptr<ImportedTrace> importKinetoTrace(const std::string& relative);

} // namespace ridgeline::testing
