// SPDX-License-Identifier: MIT
// Any Qt warning during a UI test is a failure (as in Orbit's AssertNoQtLogWarnings).
#pragma once

#include <QObject>
#include <QStringList>
#include <QTest>
#include <QtGlobal>
#include <utility>

namespace ridgeline::testing {

inline QStringList& qtWarnings()
{
    static QStringList warnings;
    return warnings;
}

inline void recordQtWarnings(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    // The offscreen platform plugin says these of every dialog it shows and raises: limits of the
    // test platform, not of our code.
    if (message == QLatin1String("This plugin does not support propagateSizeHints()")
        || message == QLatin1String("This plugin does not support raise()"))
        return;
    if (type != QtDebugMsg && type != QtInfoMsg)
        qtWarnings().append(message);
}

inline void installQtWarningRecorder()
{
    qInstallMessageHandler(recordQtWarnings);
}

} // namespace ridgeline::testing

// In each test's cleanup(): fails the test that logged a Qt warning.
#define RIDGELINE_VERIFY_NO_QT_WARNINGS()                                                                              \
    do {                                                                                                               \
        const QStringList logged = std::exchange(ridgeline::testing::qtWarnings(), {});                                \
        QVERIFY2(logged.isEmpty(), qPrintable(logged.join(QLatin1Char('\n'))));                                        \
    } while (false)

namespace ridgeline::testing {

// The base of a test class whose tests all fail on a Qt warning: records them from the start and
// checks after each test. A class with an initTestCase() or cleanup() of its own does this itself.
class QtWarningTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { installQtWarningRecorder(); }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }
};

} // namespace ridgeline::testing
