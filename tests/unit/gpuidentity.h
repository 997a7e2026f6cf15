// SPDX-License-Identifier: MIT
// What identifies a GPU that an importer wrote, as one value for one EXPECT_EQ.
#pragma once

#include "ridgeline/core/model/model.h"

#include <tuple>

namespace ridgeline::testing {

// (id, name, compute capability major, minor, SM count).
inline auto gpuIdentity(const core::Device& device)
{
    return std::make_tuple(device.id, device.name, device.ccMajor, device.ccMinor, device.smCount);
}

} // namespace ridgeline::testing
