// Deliberate layering violation: analysis includes output, a folder above it.
#pragma once

#include "ridgeline/core/model/model.h"
#include "ridgeline/core/output/collectivereport.h"
