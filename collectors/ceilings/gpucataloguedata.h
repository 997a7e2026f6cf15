// SPDX-License-Identifier: MIT
// The catalogue's entries (gpucataloguedata.cpp), kept apart from the lookup code.
#pragma once

#include "ridgeline/collectors/ceilings/gpucatalogue.h"

#include <vector>

namespace ridgeline::collectors::detail {

std::vector<GpuSpec> makeGpuCatalogue();

} // namespace ridgeline::collectors::detail
