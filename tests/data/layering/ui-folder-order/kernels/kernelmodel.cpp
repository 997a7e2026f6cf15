// Layering fixture: the kernel table reaching up into the window for its palette.
#include "window/palette.h"
