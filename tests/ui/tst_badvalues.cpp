// SPDX-License-Identifier: MIT
// Opening a session whose values no writer produces (SQL UPDATEs on a valid fixture): the app
// loads it without crashing or hanging and, once the value checks have run (after the views show
// the session), names the first warning in the status bar and every warning in About.
#include "fixtures.h"
#include "qtwarnings.h"
#include "tempdir.h"
#include "uitest.h"
#include "window/aboutdialog.h"
#include "window/mainwindow.h"

#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <sqlite3.h>

using namespace ridgeline;

class TestBadValues : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    int m_count = 0;

    QString damagedFixture(const char* sql)
    {
        const auto path = m_dir.file("bad" + std::to_string(++m_count) + ".ridge");
        if (!testing::writeSmallFixture(path).ok())
            return {};
        sqlite3* db = nullptr;
        sqlite3_open(path.c_str(), &db);
        const bool ok = sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK && sqlite3_changes(db) > 0;
        sqlite3_close(db);
        return ok ? QString::fromStdString(path) : QString();
    }

    // Opens `path`; empty once it opened, else why not. A session the app refuses fails the case at
    // once with the app's message, instead of waiting out the time limit (which, over several
    // cases, ctest reports as a time-out of the whole test and not as the refusal).
    // Waits for the value checks too; the status bar said that they were running when the session
    // opened.
    static QString openedOrWhyNot(ui::MainWindow& window, const QString& path)
    {
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        QSignalSpy checked(&window, &ui::MainWindow::valuesChecked);
        QSignalSpy failed(&window, &ui::MainWindow::sessionFailed);
        QString statusWhenOpened;
        const auto connection = QObject::connect(&window, &ui::MainWindow::sessionOpened, &window,
            [&] { statusWhenOpened = window.statusBar()->currentMessage(); });
        window.openSession(path);
        const bool done = QTest::qWaitFor([&] { return !checked.isEmpty() || !failed.isEmpty(); }, 20000);
        QObject::disconnect(connection);
        if (!done)
            return QStringLiteral("neither opened and checked nor refused within 20 s");
        if (!failed.isEmpty())
            return QStringLiteral("refused: ") + failed.first().at(1).toString();
        if (opened.count() != 1 || !statusWhenOpened.contains(QStringLiteral("checking values")))
            return QStringLiteral("opened without saying that its values were being checked: ") + statusWhenOpened;
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        testing::installQtWarningRecorder();
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void opensAndWarns_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("what");
        QTest::newRow("text time") << "UPDATE kernels SET start_ns = 'abc' WHERE id = 2"
                                   << "not an integer";
        QTest::newRow("negative time") << "UPDATE kernels SET end_ns = -5 WHERE id = 2"
                                       << "negative time";
        QTest::newRow("end before start") << "UPDATE kernels SET end_ns = start_ns - 1000"
                                          << "end before they start";
        QTest::newRow("int64 extremes")
            << "UPDATE kernels SET start_ns = -9223372036854775808, end_ns = 9223372036854775807 WHERE id = 1"
            << "negative time";
        QTest::newRow("dangling name") << "UPDATE kernels SET name_id = 999"
                                       << "point at nothing";
        QTest::newRow("infinite metric")
            << "UPDATE metric_values SET data = CAST(X'01000000000000F07F' || substr(data, 10) AS BLOB)"
            << "NaN or infinite";
        QTest::newRow("damaged metrics") << "UPDATE metric_values SET count = count + 1"
                                         << "cannot be decoded";
        QTest::newRow("zero grid") << "UPDATE kernels SET grid_x = 0"
                                   << "zero-sized grid";
        QTest::newRow("short longest op") << "UPDATE meta SET value = '1' WHERE key = 'max_duration_ns.kernels'"
                                          << "windowed reads miss ops";
    }

    void opensAndWarns()
    {
        QFETCH(QString, sql);
        QFETCH(QString, what);
        const QString path = damagedFixture(sql.toUtf8().constData());
        QVERIFY(!path.isEmpty());
        ui::MainWindow window;
        const QString refused = openedOrWhyNot(window, path);
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        const QString status = window.statusBar()->currentMessage();
        QVERIFY2(status.contains(QStringLiteral("warning")) && status.contains(what), qPrintable(status));
        const QString about = ui::aboutText(window.document().get());
        QVERIFY2(about.contains(QStringLiteral("Warning")) && about.contains(what), qPrintable(about));
    }

    void aValidSessionHasNoWarning()
    {
        const auto path = m_dir.file("good.ridge");
        QVERIFY(testing::writeSmallFixture(path).ok());
        ui::MainWindow window;
        const QString refused = openedOrWhyNot(window, QString::fromStdString(path));
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        QVERIFY(!window.statusBar()->currentMessage().contains(QStringLiteral("warning")));
        QVERIFY(!ui::aboutText(window.document().get()).contains(QStringLiteral("Warning")));
    }
};

RIDGELINE_UI_TEST(tst_badvalues, TestBadValues)
#include "tst_badvalues.moc"
