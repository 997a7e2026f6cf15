// SPDX-License-Identifier: MIT
// readSessionDocument (the worker's one function) and SessionOpener: progress and cancel.
#include "fixtures.h"
#include "qtwarnings.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/store/sessionreader.h"
#include "session/documentreader.h"
#include "session/sessionopener.h"
#include "tempdir.h"
#include "uitest.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <sqlite3.h>
#include <utility>

using namespace ridgeline;

class TestSessionLoading : public testing::QtWarningTest {
    Q_OBJECT
private:
    testing::TempDir m_dir;

private Q_SLOTS:
    void fillsTheDocumentAsTheReportDoes()
    {
        const auto path = m_dir.file("small.ridge");
        QVERIFY(testing::writeSmallFixture(path).ok());
        QList<int> steps;
        ui::ReadHooks hooks;
        hooks.progress = [&steps](int permille, const QString& what) {
            QVERIFY(!what.isEmpty());
            steps.append(permille);
        };
        auto doc = ui::readSessionDocument(QString::fromStdString(path), hooks);
        QVERIFY(doc.ok());
        QVERIFY(std::is_sorted(steps.begin(), steps.end()));
        QCOMPARE(steps.last(), 1000);
        // The same figures as core::buildKernelReport (what `ridgeline report` prints).
        auto reader = core::SessionReader::open(path);
        QVERIFY(reader.ok());
        auto report = core::buildKernelReport(reader.value());
        QVERIFY(report.ok());
        const auto& d = doc.value();
        QCOMPARE(d.path, QString::fromStdString(path));
        QCOMPARE(d.report.meta, report.value().meta);
        QCOMPARE(d.report.devices, report.value().devices);
        QCOMPARE(d.report.kernels.size(), report.value().kernels.size());
        for (std::size_t i = 0; i < d.report.kernels.size(); ++i) {
            QCOMPARE(d.report.kernels[i].name, report.value().kernels[i].name);
            QCOMPARE(d.report.kernels[i].totalNs, report.value().kernels[i].totalNs);
            QCOMPARE(d.report.kernels[i].analysis.verdict, report.value().kernels[i].analysis.verdict);
        }
        QCOMPARE(d.report.timeline.size(), report.value().timeline.size());
        QCOMPARE(d.report.timeline.front().busyNs, report.value().timeline.front().busyNs);
        QCOMPARE(d.ceilings.size(), std::size_t(2));
    }

    void cancelStopsAtTheNextStage()
    {
        const auto path = m_dir.file("small.ridge");
        int polls = 0;
        ui::ReadHooks hooks;
        hooks.cancelled = [&polls] { return ++polls >= 3; };
        auto doc = ui::readSessionDocument(QString::fromStdString(path), hooks);
        QVERIFY(doc.hasError());
        QCOMPARE(polls, 3);
    }

    // The stages the progress names are those the session has: linking PyTorch operators only for
    // a session with operators (the two-rank PyTorch example), not for an Nsight Compute report.
    void progressNamesOnlyTheStagesTheSessionHas()
    {
        const QString linking = QStringLiteral("Linking kernels to their PyTorch operators");
        for (const auto& [example, hasOperators] :
            { std::pair { "pytorch-two-ranks.ridge", true }, std::pair { "a100-linear-ncu.ridge", false } }) {
            QStringList stages;
            ui::ReadHooks hooks;
            hooks.progress = [&stages](int, const QString& what) { stages << what; };
            auto doc
                = ui::readSessionDocument(QStringLiteral(RIDGELINE_EXAMPLES_DIR "/") + QLatin1String(example), hooks);
            QVERIFY2(doc.ok(), example);
            QVERIFY2(stages.contains(QStringLiteral("Analysing the timeline")), example);
            QCOMPARE(stages.contains(linking), hasOperators);
            QCOMPARE(doc.value().operators != nullptr, hasOperators);
        }
    }

    void badFileIsAnErrorNotACrash()
    {
        auto doc = ui::readSessionDocument(QString::fromStdString(m_dir.file("missing.ridge")));
        QVERIFY(doc.hasError());
        QVERIFY(!doc.error().message.empty());
    }

    void loaderDeliversOrCancels()
    {
        const auto path = m_dir.file("big.ridge");
        testing::SyntheticSpec spec;
        spec.kernels = 300'000;
        QVERIFY(testing::writeSyntheticSession(path, spec).ok());
        ui::SessionOpener loader;
        QSignalSpy loaded(&loader, &ui::SessionOpener::loaded);
        QSignalSpy cancelled(&loader, &ui::SessionOpener::cancelled);
        QSignalSpy progress(&loader, &ui::SessionOpener::progressChanged);
        loader.load(QString::fromStdString(path));
        QVERIFY(loader.isLoading());
        loader.cancel(); // long before the 300 k kernels are summarised
        QVERIFY(cancelled.wait(20000));
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(cancelled.first().first().toString(), QString::fromStdString(path));

        loader.load(QString::fromStdString(path));
        QVERIFY(loaded.wait(60000));
        const auto doc = loaded.first().first().value<ui::SessionDocumentPtr>();
        QVERIFY(doc);
        std::int64_t launches = 0;
        for (const auto& k : doc->report.kernels)
            launches += k.launches;
        QCOMPARE(launches, spec.kernels);
        QVERIFY(progress.count() > 0);
    }

    // The views get the document before the value checks (minutes for 100 M GPU ops) and its
    // warnings after them.
    void loaderDeliversTheDocumentBeforeItsValueChecks()
    {
        const auto path = m_dir.file("zero-grid.ridge");
        QVERIFY(testing::writeSmallFixture(path).ok());
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        const int updated = sqlite3_exec(db, "UPDATE kernels SET grid_x = 0", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QCOMPARE(updated, SQLITE_OK);
        ui::SessionOpener loader;
        QSignalSpy loaded(&loader, &ui::SessionOpener::loaded);
        QSignalSpy checked(&loader, &ui::SessionOpener::valuesChecked);
        loader.load(QString::fromStdString(path));
        QVERIFY(checked.wait(60000));
        QCOMPARE(loaded.count(), 1);
        const auto first = loaded.first().first().value<ui::SessionDocumentPtr>();
        QVERIFY(!first->valuesChecked);
        QVERIFY(first->warnings.empty());
        QVERIFY(first->timeline);
        const auto last = checked.first().first().value<ui::SessionDocumentPtr>();
        QVERIFY(last->valuesChecked);
        QCOMPARE(last->warnings.size(), std::size_t(1));
        QCOMPARE(last->warnings.front().kind, std::string("zero_sized_grid"));
        QCOMPARE(last->report.kernels.size(), first->report.kernels.size());

        // Readers without the hook get the checked document at once.
        auto doc = ui::readSessionDocument(QString::fromStdString(path));
        QVERIFY(doc.ok());
        QVERIFY(doc.value().valuesChecked);
        QCOMPARE(doc.value().warnings.size(), std::size_t(1));
    }

    void newerLoadReplacesARunningOne()
    {
        const auto big = m_dir.file("big.ridge");
        const auto small = m_dir.file("small.ridge");
        ui::SessionOpener loader;
        QSignalSpy loaded(&loader, &ui::SessionOpener::loaded);
        loader.load(QString::fromStdString(big));
        loader.load(QString::fromStdString(small));
        QVERIFY(loaded.wait(60000));
        QTest::qWait(50);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.first().first().value<ui::SessionDocumentPtr>()->path, QString::fromStdString(small));
    }
};

RIDGELINE_UI_TEST_GUILESS(tst_sessionloading, TestSessionLoading)
#include "tst_sessionloading.moc"
