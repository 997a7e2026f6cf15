// Layering fixture: an importer including the capture launcher, a folder above importers.
#include "ridgeline/collectors/launch/launcher.h"
