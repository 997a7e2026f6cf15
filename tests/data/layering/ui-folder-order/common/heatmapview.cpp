// Layering fixture: the shared heat map (common, the ground floor) taking the timeline's ticks.
// tests/layering must reject it.
#include "timeline/timeticks.h"
