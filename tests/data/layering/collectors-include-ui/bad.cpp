// Deliberate layering violation: collectors include nothing of ui or app.
#include "window/mainwindow.h"
