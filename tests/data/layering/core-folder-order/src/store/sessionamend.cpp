// Deliberate layering violation: store includes analysis, a folder above it (its own folder's
// headers, public or private, are allowed).
#include "ridgeline/core/store/sessionamend.h"

#include "ridgeline/core/analysis/roofline.h"
#include "rowloop.h"
