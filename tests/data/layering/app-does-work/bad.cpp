// Deliberate layering violation: app only wires; it includes no private header of another layer
// and no header that does work.
#include "store/schema.h"
#include <regex>
