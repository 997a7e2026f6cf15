// Deliberate layering violation: core includes nothing of collectors, ui or app.
#include "kernels/kernelmodel.h"
#include "ridgeline/collectors/launch/launcher.h"
