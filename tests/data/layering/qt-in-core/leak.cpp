// Deliberate layering violation: tests/check_no_qt.cmake must reject this file
// (the test layering.check_detects_qt_include expects it to fail).
#include <QString>
