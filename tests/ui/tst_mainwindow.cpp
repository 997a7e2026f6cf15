// SPDX-License-Identifier: MIT
#include "fixtures.h"
#include "kernels/kernelpage.h"
#include "qtwarnings.h"
#include "testutil.h"
#include "uitest.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAbstractItemModel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace ridgeline;

class TestMainWindow : public testing::QtWarningTest {
    Q_OBJECT
private Q_SLOTS:
    void opensASessionOffTheGuiThread()
    {
        testing::TempDir dir;
        const auto path = QString::fromStdString(dir.file("small.ridge"));
        QVERIFY(testing::writeSmallFixture(path.toStdString()).ok());
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(path);
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.first().first().toString(), path);
        QCOMPARE(testing::kernelPageOf(window)->view()->model()->rowCount(), 5);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("small.ridge")));
    }

    void badFilesShowAnErrorAndKeepTheAppAlive()
    {
        testing::TempDir dir;
        const auto empty = dir.file("empty.ridge");
        testing::writeBytes(empty, "");
        const auto random = dir.file("random.ridge");
        testing::writeBytes(random, std::string(4096, '\x5a'));
        ui::MainWindow window;
        QSignalSpy failed(&window, &ui::MainWindow::sessionFailed);
        for (const auto& file : { empty, random, dir.file("missing.ridge") }) {
            window.openSession(QString::fromStdString(file));
            QVERIFY(failed.wait(10000));
            QVERIFY(!failed.last().at(1).toString().isEmpty());
        }
        QCOMPARE(failed.count(), 3);
        QVERIFY(window.findChild<QMessageBox*>() != nullptr);
        // Still usable: a good session opens after the failures.
        const auto good = dir.file("good.ridge");
        QVERIFY(testing::writeSmallFixture(good).ok());
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        window.openSession(QString::fromStdString(good));
        QVERIFY(opened.wait(10000));
        QCOMPARE(testing::kernelPageOf(window)->view()->model()->rowCount(), 5);
    }
};

RIDGELINE_UI_TEST(tst_mainwindow, TestMainWindow)
#include "tst_mainwindow.moc"
