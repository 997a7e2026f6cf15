// Deliberate layering violation: ui includes nothing of collectors (here CUPTI's record translation
// and the injection library's counter collector).
#include "activitytranslate.h"
#include "countercollector.h"
