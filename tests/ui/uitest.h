// SPDX-License-Identifier: MIT
// The UI tests are one program, ridgeline_ui_tests (one link and one moc of the shared parts, not
// one per test class): each tst_*.cpp registers its test class under its file's name, and CTest's
// entry ui.tst_x runs `ridgeline_ui_tests tst_x [Qt Test options]`, one class per process as
// before. RIDGELINE_UI_TEST(tst_x, TestX) replaces QTEST_MAIN(TestX), RIDGELINE_UI_TEST_GUILESS
// QTEST_GUILESS_MAIN: the same application object, attribute and QTest::qExec.
#pragma once

#include <QApplication>
#include <QCoreApplication>
#include <QTest>

namespace ridgeline::testing {

using UiTestRun = int (*)(int argc, char** argv);

// Adds a test class to the program's list; false (and a message at start-up) for a name taken twice.
bool registerUiTest(const char* name, UiTestRun run);

template <class TestObject, class Application> int runUiTest(int argc, char** argv)
{
    Application app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestObject test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace ridgeline::testing

#define RIDGELINE_UI_TEST_WITH(name, TestObject, Application)                                                          \
    namespace {                                                                                                        \
    [[maybe_unused]] const bool registered_##name                                                                      \
        = ridgeline::testing::registerUiTest(#name, &ridgeline::testing::runUiTest<TestObject, Application>);          \
    }

#define RIDGELINE_UI_TEST(name, TestObject) RIDGELINE_UI_TEST_WITH(name, TestObject, QApplication)
#define RIDGELINE_UI_TEST_GUILESS(name, TestObject) RIDGELINE_UI_TEST_WITH(name, TestObject, QCoreApplication)
