// SPDX-License-Identifier: MIT
// The capture dialog against a fake `ridgeline` (data/fake-ridgeline.sh) that prints the
// launcher's progress lines: success, an error event, a silent failure, stop (SIGINT) and kill.
#include "capture/capturedialog.h"
#include "fixtures.h"
#include "qtwarnings.h"
#include "tempdir.h"
#include "uitest.h"
#include "window/mainwindow.h"

#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace ridgeline;

namespace {
const QString kFake = QStringLiteral(RIDGELINE_UI_TEST_DATA "/fake-ridgeline.sh");
}

class TestCaptureDialog : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    QString m_session;

    ui::CaptureJob options(const QString& mode, const QString& output)
    {
        ui::CaptureJob o;
        o.program = QStringLiteral("/bin/true");
        o.arguments = { QStringLiteral("--epochs"), QStringLiteral("two words") };
        o.workingDirectory = QString::fromStdString(m_dir.path());
        o.environment = { QStringLiteral("FAKE_MODE=") + mode, QStringLiteral("FAKE_SESSION=") + m_session };
        o.output = output;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        testing::installQtWarningRecorder();
        m_session = QString::fromStdString(m_dir.file("fixture.ridge"));
        QVERIFY(testing::writeSmallFixture(m_session.toStdString()).ok());
        QVERIFY(QFileInfo(kFake).isExecutable());
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void successOpensTheSession()
    {
        ui::CaptureDialog dialog;
        dialog.runner()->setLauncher(kFake);
        const QString out = QString::fromStdString(m_dir.file("ok.ridge"));
        dialog.setJob(options(QStringLiteral("success"), out));
        QSignalSpy captured(&dialog, &ui::CaptureDialog::sessionCaptured);
        QSignalSpy events(dialog.runner(), &ui::CaptureRunner::progress);
        QVERIFY(dialog.startCapture());
        QVERIFY(captured.wait(10000));
        QCOMPARE(captured.first().first().toString(), out);
        QVERIFY(QFileInfo::exists(out));
        QCOMPARE(events.count(), 4); // started, running, merging, finished
        QVERIFY(dialog.errorText().isEmpty());
        // The dialog passed program, arguments, working directory and environment through.
        QVERIFY2(
            dialog.log().contains(QStringLiteral("program: /bin/true --epochs two words")), qPrintable(dialog.log()));
        QVERIFY(dialog.log().contains(QStringLiteral("cwd: ") + QString::fromStdString(m_dir.path())));
        QVERIFY(dialog.log().contains(QStringLiteral("target says hello")));
        QVERIFY(!dialog.log().contains(QStringLiteral("ridgeline-progress")));
    }

    void errorEventIsShownInTheCliWords()
    {
        ui::CaptureDialog dialog;
        dialog.runner()->setLauncher(kFake);
        dialog.setJob(options(QStringLiteral("error"), QString::fromStdString(m_dir.file("err.ridge"))));
        QSignalSpy finished(dialog.runner(), &ui::CaptureRunner::finished);
        QSignalSpy captured(&dialog, &ui::CaptureDialog::sessionCaptured);
        QVERIFY(dialog.startCapture());
        QVERIFY(finished.wait(10000));
        QCOMPARE(captured.count(), 0);
        QCOMPARE(dialog.errorText(),
            QStringLiteral(
                "No NVIDIA driver: libcuda.so.1 cannot be loaded, so nothing can be captured on this machine."));
        QVERIFY(!finished.first().first().value<ui::CaptureOutcome>().ok);
    }

    void failureWithoutEventShowsStderr()
    {
        ui::CaptureDialog dialog;
        dialog.runner()->setLauncher(kFake);
        dialog.setJob(options(QStringLiteral("silent-failure"), QString::fromStdString(m_dir.file("no.ridge"))));
        QSignalSpy finished(dialog.runner(), &ui::CaptureRunner::finished);
        QVERIFY(dialog.startCapture());
        QVERIFY(finished.wait(10000));
        QCOMPARE(dialog.errorText(),
            QStringLiteral("ridgeline: cannot create /nonexistent/out.ridge.parts: Permission denied"));
    }

    void stopKeepsWhatWasCaptured()
    {
        ui::CaptureDialog dialog;
        dialog.runner()->setLauncher(kFake);
        const QString out = QString::fromStdString(m_dir.file("stopped.ridge"));
        dialog.setJob(options(QStringLiteral("until-interrupted"), out));
        QSignalSpy events(dialog.runner(), &ui::CaptureRunner::progress);
        QSignalSpy captured(&dialog, &ui::CaptureDialog::sessionCaptured);
        QVERIFY(dialog.startCapture());
        QTRY_VERIFY_WITH_TIMEOUT(events.count() >= 3, 10000); // started + running lines
        dialog.stopCapture();
        QVERIFY(captured.wait(10000));
        QCOMPARE(captured.first().first().toString(), out);
        QVERIFY(QFileInfo::exists(out));
        QVERIFY(!dialog.runner()->isRunning());
    }

    void launcherThatIgnoresStopIsKilled()
    {
        ui::CaptureDialog dialog;
        dialog.runner()->setLauncher(kFake);
        dialog.runner()->setStopGraceMs(300);
        dialog.setJob(options(QStringLiteral("deaf"), QString::fromStdString(m_dir.file("deaf.ridge"))));
        QSignalSpy events(dialog.runner(), &ui::CaptureRunner::progress);
        QSignalSpy finished(dialog.runner(), &ui::CaptureRunner::finished);
        QVERIFY(dialog.startCapture());
        QVERIFY(events.wait(10000)); // started
        dialog.stopCapture();
        QVERIFY(finished.wait(10000));
        QVERIFY(!finished.first().first().value<ui::CaptureOutcome>().ok);
        QVERIFY(!dialog.errorText().isEmpty());
    }

    void invalidFormIsRefusedWithAReason()
    {
        ui::CaptureDialog dialog;
        dialog.runner()->setLauncher(kFake);
        auto o = options(QStringLiteral("success"), QString::fromStdString(m_dir.file("x.ridge")));
        o.environment = { QStringLiteral("NOT AN ASSIGNMENT") };
        dialog.setJob(o);
        QVERIFY(!dialog.startCapture());
        QVERIFY(dialog.errorText().contains(QStringLiteral("NOT AN ASSIGNMENT")));
        o = options(QStringLiteral("success"), QString::fromStdString(m_dir.file("x.ridge")));
        o.program.clear();
        dialog.setJob(o);
        QVERIFY(!dialog.startCapture());
        QVERIFY(!dialog.runner()->isRunning());
        // A launcher that does not exist: the reason, no hang.
        dialog.runner()->setLauncher(QString::fromStdString(m_dir.file("no-such-ridgeline")));
        dialog.setJob(options(QStringLiteral("success"), QString::fromStdString(m_dir.file("x.ridge"))));
        QSignalSpy finished(dialog.runner(), &ui::CaptureRunner::finished);
        QVERIFY(dialog.startCapture());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY(dialog.errorText().contains(QStringLiteral("no-such-ridgeline")));
    }

    void theWindowOpensTheCapturedSession()
    {
        ui::MainWindow window;
        window.showCaptureDialog();
        window.showCaptureDialog();
        QCOMPARE(window.findChildren<ui::CaptureDialog*>().size(), 1); // one dialog per window
        auto* dialog = window.findChild<ui::CaptureDialog*>(QStringLiteral("captureDialog"));
        QVERIFY(dialog);
        dialog->runner()->setLauncher(kFake);
        const QString out = QString::fromStdString(m_dir.file("window.ridge"));
        dialog->setJob(options(QStringLiteral("success"), out));
        QSignalSpy opened(&window, &ui::MainWindow::sessionOpened);
        QVERIFY(dialog->startCapture());
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.first().first().toString(), out);
        QVERIFY(window.document());
    }

    void optionsRoundTripThroughTheForm()
    {
        ui::CaptureDialog dialog;
        auto o = options(QStringLiteral("success"), QStringLiteral("/tmp/a.ridge"));
        o.metrics = QStringLiteral("dram__bytes.sum,sm__cycles_elapsed.avg");
        o.kernelRegex = QStringLiteral("^gemm");
        o.launchSkip = 3;
        o.launchCount = 7;
        o.nvtxRange = QStringLiteral("step 2");
        dialog.setJob(o);
        const auto back = dialog.job();
        QCOMPARE(back.program, o.program);
        QCOMPARE(back.arguments, o.arguments);
        QCOMPARE(back.workingDirectory, o.workingDirectory);
        QCOMPARE(back.environment, o.environment);
        QCOMPARE(back.metrics, o.metrics);
        QCOMPARE(back.kernelRegex, o.kernelRegex);
        QCOMPARE(back.launchSkip, 3);
        QCOMPARE(back.launchCount, 7);
        QCOMPARE(back.nvtxRange, o.nvtxRange);
        QCOMPARE(back.output, o.output);
        o.metrics = QStringLiteral("none");
        dialog.setJob(o);
        QCOMPARE(dialog.job().metrics, QStringLiteral("none"));
    }

    // The Arguments field splits as a POSIX shell does (QProcess::splitCommand knows no single
    // quotes: -c 'echo hi; exit 3' reached the program as 'echo, hi;, exit, 3').
    void argumentsSplitLikeAShellAndSurviveTheSettings()
    {
        const QStringList tricky { QStringLiteral("-c"), QStringLiteral("echo hi; exit 3"), QStringLiteral("it's"),
            QString(), QStringLiteral("say \"hi\""), QStringLiteral("$HOME") };
        {
            ui::CaptureDialog dialog;
            QLineEdit* arguments = nullptr;
            for (auto* edit : dialog.findChildren<QLineEdit*>())
                if (edit->placeholderText().contains(QStringLiteral("quoted as in a shell")))
                    arguments = edit;
            QVERIFY(arguments);
            arguments->setText(QStringLiteral("-c 'echo hi; exit 3'"));
            QCOMPARE(dialog.job().arguments, (QStringList { QStringLiteral("-c"), QStringLiteral("echo hi; exit 3") }));
            auto o = options(QStringLiteral("success"), QString::fromStdString(m_dir.file("q.ridge")));
            dialog.setJob(o);
            arguments->setText(QStringLiteral("-c 'echo hi"));
            QVERIFY(!dialog.startCapture());
            QVERIFY2(dialog.errorText().contains(QStringLiteral("not closed")), qPrintable(dialog.errorText()));

            // Through the form and, once a capture starts, through QSettings into a new dialog.
            o.arguments = tricky;
            dialog.setJob(o);
            QCOMPARE(dialog.job().arguments, tricky);
            dialog.runner()->setLauncher(kFake);
            QSignalSpy captured(&dialog, &ui::CaptureDialog::sessionCaptured);
            QVERIFY(dialog.startCapture());
            QVERIFY(captured.wait(10000));
        }
        ui::CaptureDialog reopened;
        QCOMPARE(reopened.job().arguments, tricky);
    }
};

RIDGELINE_UI_TEST(tst_capturedialog, TestCaptureDialog)
#include "tst_capturedialog.moc"
