// Deliberate layering violation: core and collectors include no Qt header
// (tests/layering: layering.fails.no_qt_in_core_or_collectors expects the check to reject this file).
#include <QString>
