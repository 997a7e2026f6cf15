// Layering fixture: the launcher including an importer header is allowed (importers are below it).
#include "ridgeline/collectors/importers/importer.h"
