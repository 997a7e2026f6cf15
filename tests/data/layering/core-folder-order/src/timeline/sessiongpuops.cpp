// Deliberate layering violation: timeline includes a private header of analysis, a folder above it
// (model, below it, is allowed).
#include "analysis/sessionanalysis.h"
#include "ridgeline/core/model/model.h"
