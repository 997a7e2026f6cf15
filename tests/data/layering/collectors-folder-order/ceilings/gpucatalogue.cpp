// Layering fixture: the datasheet catalogue (ceilings, the ground floor) reaching up into the
// importers. tests/layering must reject it.
#include "ridgeline/collectors/importers/importer.h"
