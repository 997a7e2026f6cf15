// SPDX-License-Identifier: MIT
// The progress-line parser the app uses (core's, shared with the launcher) against lines in the
// exact form of capture-contract.md (Launcher), and the launcher command the app builds.
#include "capture/capturerunner.h"
#include "qtwarnings.h"
#include "uitest.h"

#include <QTest>

using namespace ridgeline;
using Kind = core::progress::Event::Kind;

class TestCaptureProgress : public testing::QtWarningTest {
    Q_OBJECT
private Q_SLOTS:
    void parsesEveryEvent()
    {
        auto started = core::progress::parseLine(
            "ridgeline-progress: {\"event\":\"started\",\"pid\":4242,\"output\":\"/tmp/run 1.ridge\"}");
        QVERIFY(started);
        QCOMPARE(started->kind, Kind::Started);
        QCOMPARE(started->pid, 4242);
        QCOMPARE(started->output, std::string("/tmp/run 1.ridge"));

        auto running = core::progress::parseLine(
            "ridgeline-progress: {\"event\": \"running\", \"seconds\": 12.5, \"parts\": 3, \"kernels\": 180000}");
        QVERIFY(running);
        QCOMPARE(running->kind, Kind::Running);
        QCOMPARE(running->seconds, 12.5);
        QCOMPARE(running->parts, 3);
        QCOMPARE(running->kernels, 180000);

        auto merging = core::progress::parseLine("ridgeline-progress: {\"event\":\"merging\",\"parts\":4}");
        QVERIFY(merging);
        QCOMPARE(merging->kind, Kind::Merging);
        QCOMPARE(merging->parts, 4);

        auto finished = core::progress::parseLine(
            "ridgeline-progress: "
            "{\"event\":\"finished\",\"status\":\"partial\",\"output\":\"a.ridge\",\"exit_code\":130,"
            "\"kernels\":9,\"memops\":2}\r");
        QVERIFY(finished);
        QCOMPARE(finished->kind, Kind::Finished);
        QCOMPARE(finished->status, std::string("partial"));
        QCOMPARE(finished->output, std::string("a.ridge"));
        QCOMPARE(finished->exitCode, 130);
        QCOMPARE(finished->kernels, 9);
        QCOMPARE(finished->memops, 2);

        auto error = core::progress::parseLine(
            "ridgeline-progress: {\"event\":\"error\",\"message\":\"No NVIDIA driver: libcuda.so.1 was not found.\"}");
        QVERIFY(error);
        QCOMPARE(error->kind, Kind::Error);
        QCOMPARE(error->message, std::string("No NVIDIA driver: libcuda.so.1 was not found."));
    }

    void ignoresEverythingElse_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("program output") << QStringLiteral("epoch 1: loss 0.25");
        QTest::newRow("launcher message") << QStringLiteral("ridgeline: wrote 12 kernels to a.ridge");
        QTest::newRow("empty") << QString();
        QTest::newRow("prefix, no json") << QStringLiteral("ridgeline-progress: ");
        QTest::newRow("broken json") << QStringLiteral("ridgeline-progress: {\"event\":\"running\"");
        QTest::newRow("json array") << QStringLiteral("ridgeline-progress: [1,2]");
        QTest::newRow("unknown event") << QStringLiteral("ridgeline-progress: {\"event\":\"paused\"}");
        QTest::newRow("no event") << QStringLiteral("ridgeline-progress: {\"pid\":1}");
        QTest::newRow("prefix not at start") << QStringLiteral(" ridgeline-progress: {\"event\":\"merging\"}");
    }
    void ignoresEverythingElse()
    {
        QFETCH(QString, line);
        QVERIFY(!core::progress::parseLine(line.toStdString()));
    }

    void buildsTheLauncherCommand()
    {
        ui::CaptureJob o;
        o.program = QStringLiteral("/usr/bin/python3");
        o.arguments = { QStringLiteral("train.py"), QStringLiteral("--epochs"), QStringLiteral("1") };
        o.output = QStringLiteral("/tmp/out.ridge");
        QCOMPARE(ui::captureArguments(o),
            QStringList({ QStringLiteral("capture"), QStringLiteral("--progress"), QStringLiteral("-o"),
                QStringLiteral("/tmp/out.ridge"), QStringLiteral("--metrics"), QStringLiteral("roofline"),
                QStringLiteral("--"), QStringLiteral("/usr/bin/python3"), QStringLiteral("train.py"),
                QStringLiteral("--epochs"), QStringLiteral("1") }));
        o.metrics = QStringLiteral("dram__bytes.sum,gpu__time_duration.sum");
        o.kernelRegex = QStringLiteral("gemm");
        o.launchSkip = 10;
        o.launchCount = 5;
        o.nvtxRange = QStringLiteral("step");
        const QStringList args = ui::captureArguments(o);
        const QStringList filters = args.mid(4, args.indexOf(QStringLiteral("--")) - 4);
        QCOMPARE(filters,
            QStringList({ QStringLiteral("--metrics"), QStringLiteral("dram__bytes.sum,gpu__time_duration.sum"),
                QStringLiteral("--kernel-regex"), QStringLiteral("gemm"), QStringLiteral("--launch-skip"),
                QStringLiteral("10"), QStringLiteral("--launch-count"), QStringLiteral("5"),
                QStringLiteral("--nvtx-range"), QStringLiteral("step") }));
    }

    void checksEnvironmentEntries()
    {
        QCOMPARE(ui::invalidEnvironmentEntry({ QStringLiteral("A=1"), QStringLiteral("B=") }), QString());
        QCOMPARE(
            ui::invalidEnvironmentEntry({ QStringLiteral("A=1"), QStringLiteral("oops") }), QStringLiteral("oops"));
        QCOMPARE(ui::invalidEnvironmentEntry({ QStringLiteral("=x") }), QStringLiteral("=x"));
    }
};

RIDGELINE_UI_TEST_GUILESS(tst_captureprogress, TestCaptureProgress)
#include "tst_captureprogress.moc"
