// SPDX-License-Identifier: MIT
// The details pane for kernels and launches of fixture sessions with counters: the figures, the
// ceilings and their source, the verdict sentence, the advice, the launch configuration and the
// raw counters, loaded off the GUI thread.
#include "details/detailspane.h"
#include "documents.h"
#include "qtwarnings.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "ridgeline/core/analysis/advice.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/store/sessionreader.h"
#include "session/documentreader.h"
#include "uitest.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>
#include <algorithm>

using namespace ridgeline;
using ui::DetailsPane;

class TestDetailsPane : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    ui::SessionDocumentPtr m_small;
    ui::SessionDocumentPtr m_nersc;

    static QString shown(const DetailsPane& pane) { return pane.browser()->toPlainText(); }
    static QString q(const std::string& s) { return QString::fromStdString(s); }
    static bool selectAndWait(ui::SelectionModel& selection, DetailsPane& pane, const ui::KernelSelection& s)
    {
        QSignalSpy loaded(&pane, &DetailsPane::detailsLoaded);
        selection.select(s, nullptr);
        return loaded.count() > 0 || loaded.wait(10000);
    }
    const core::KernelSummary& vectorAdd() const
    {
        return m_small->report.kernels[static_cast<std::size_t>(
            testing::kernelIndex(*m_small, "vectorAdd(float const*, float const*, float*, int)"))];
    }

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        m_small = testing::smallFixtureDocument(m_dir);
        m_nersc = testing::ncuDocument(m_dir, "raw-nersc.csv");
        QVERIFY(m_small && m_nersc);
        QVERIFY(testing::kernelIndex(*m_small, "vectorAdd(float const*, float const*, float*, int)") >= 0);
    }
    void cleanup() { RIDGELINE_VERIFY_NO_QT_WARNINGS(); }

    void nothingSelectedSaysHowToSelect()
    {
        ui::SelectionModel selection;
        DetailsPane pane(&selection);
        pane.setDocument(m_small);
        QVERIFY(shown(pane).contains(QStringLiteral("Select a kernel")));
        QVERIFY(!pane.isLoading());
    }

    void kernelFiguresCeilingsVerdictAndAdvice()
    {
        ui::SelectionModel selection;
        DetailsPane pane(&selection);
        pane.setDocument(m_small);
        const auto& k = vectorAdd();
        QVERIFY(selectAndWait(selection, pane, { k.nameId, k.deviceId, -1 }));
        const QString text = shown(pane);
        // The fixture's counted launch: 262144 FADD (1 FLOP each) and 2 MiB of DRAM traffic in 1 µs,
        // against DRAM 3.35 TB/s and FP32 67 TFLOP/s (datasheet).
        const double flops = 262144.0, bytes = 2097152.0, seconds = 1e-6;
        QVERIFY2(text.contains(q(core::formatRate(flops / seconds, "FLOP/s"))), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("%1 FLOP/B").arg(flops / bytes, 0, 'g', 4)));
        const double ofRoof = flops / seconds / (3.35e12 * flops / bytes);
        QVERIFY(text.contains(QStringLiteral("%1 %").arg(ofRoof * 100, 0, 'f', 0)));
        QVERIFY(text.contains(QStringLiteral("3.35 TB/s (datasheet)")));
        QVERIFY(text.contains(QStringLiteral("67 TFLOP/s (datasheet)")));
        QVERIFY(text.contains(QStringLiteral("used at %1 %").arg(bytes / seconds / 3.35e12 * 100, 0, 'f', 0)));
        QVERIFY(text.contains(q(k.analysis.reason)));
        QVERIFY(text.contains(QStringLiteral("bound by DRAM at 63 %")));
        for (const auto& advice : core::adviceFor(k.analysis))
            QVERIFY2(text.contains(q(advice)), advice.c_str());
        QVERIFY(text.contains(QStringLiteral("Reuse each byte more"))); // DRAM advice, not generic
        // Launch configuration and the raw counters of the counted launch.
        QVERIFY(text.contains(QStringLiteral("1024 × 1 × 1")));
        QVERIFY(text.contains(QStringLiteral("256 × 1 × 1")));
        QVERIFY(text.contains(q(core::formatBytes(4096))));
        QVERIFY(text.contains(QStringLiteral("dram__bytes.sum")));
        QVERIFY(text.contains(q(core::formatBytes(bytes))));
        QVERIFY(text.contains(QStringLiteral("sm__sass_thread_inst_executed_op_fadd_pred_on.sum")));
        QVERIFY(text.contains(QStringLiteral("262,144")));
        QVERIFY(text.contains(QStringLiteral("the longest launch with counters")));
        QVERIFY(text.contains(QRegularExpression(QStringLiteral("Launches\\s+3\\s"))));
    }

    void oneLaunchIsAnalysedOnItsOwn()
    {
        auto reader = core::SessionReader::open(m_small->path.toStdString());
        QVERIFY(reader.ok());
        const auto& k = vectorAdd();
        auto launches = reader.value().kernelsOfName(k.nameId, k.deviceId);
        QVERIFY(launches.ok() && launches.value().size() == 3);
        ui::SelectionModel selection;
        DetailsPane pane(&selection);
        pane.setDocument(m_small);
        const auto counted = launches.value()[0], plain = launches.value()[1];
        QVERIFY(selectAndWait(selection, pane, { k.nameId, k.deviceId, counted.id }));
        QVERIFY(shown(pane).contains(QStringLiteral("#%1 of 3 launches").arg(counted.id)));
        QVERIFY(shown(pane).contains(QStringLiteral("dram__bytes.sum")));
        QVERIFY(shown(pane).contains(QStringLiteral("memory-bound")));
        QVERIFY(selectAndWait(selection, pane, { k.nameId, k.deviceId, plain.id }));
        const QString text = shown(pane);
        QVERIFY(text.contains(QStringLiteral("No hardware counters were recorded for this launch")));
        QVERIFY(text.contains(QStringLiteral("unknown: no counters for this kernel"))); // its own verdict
        QVERIFY(text.contains(QStringLiteral("Collect hardware counters")));
        // The launch at 3000 ns came from the cudaLaunchKernel call at 900–915 ns.
        QVERIFY2(text.contains(QStringLiteral("Launched by cudaLaunchKernel (runtime) on thread 4242, a call of 15 ns; "
                                              "the kernel started 2.100 µs after the call began")),
            qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("Launch delay"))); // the kernel's statistics are not a launch's
    }

    void hierarchicalKernelShowsEveryLevelAndPrecision()
    {
        ui::SelectionModel selection;
        DetailsPane pane(&selection);
        pane.setDocument(m_nersc);
        const int index = testing::kernelIndex(*m_nersc, "volta_h884gemm_128x128_ldg8_nn");
        QVERIFY(index >= 0);
        const auto& k = m_nersc->report.kernels[static_cast<std::size_t>(index)];
        QVERIFY(selectAndWait(selection, pane, { k.nameId, k.deviceId, -1 }));
        const QString text = shown(pane);
        for (const auto& [level, intensity] : k.analysis.intensity)
            QVERIFY2(text.contains(QStringLiteral("%1 FLOP/B").arg(intensity, 0, 'g', 4)), core::toString(level));
        QVERIFY(text.contains(QStringLiteral("FP16_tensor")));
        QVERIFY(text.contains(QStringLiteral("l1tex__t_bytes.sum")));
        QVERIFY(text.contains(q(k.analysis.reason)));
        QVERIFY(text.contains(QStringLiteral("16 × 16 × 1")));
    }

    void latestSelectionWinsAndBadFilesSayWhy()
    {
        ui::SelectionModel selection;
        DetailsPane pane(&selection);
        pane.setDocument(m_small);
        const auto& first = m_small->report.kernels[0];
        const auto& k = vectorAdd();
        QSignalSpy loaded(&pane, &DetailsPane::detailsLoaded);
        selection.select({ first.nameId, first.deviceId, -1 }, nullptr);
        selection.select({ k.nameId, k.deviceId, -1 }, nullptr);
        QVERIFY(loaded.wait(10000));
        QTest::qWait(50); // a late answer for the first selection would arrive now
        QCOMPARE(loaded.count(), 1);
        QVERIFY(shown(pane).contains(QStringLiteral("dram__bytes.sum")));
        QVERIFY(shown(pane).startsWith(q(core::shortKernelName(k.name)))); // the heading; the full name ends the pane
        QVERIFY(shown(pane).contains(QStringLiteral("Full name\n") + q(k.name)));
        // Host side: the fixture's vectorAdd launches at 1000 and 3000 ns were launched by calls starting at
        // 800 and 900 ns (delays 200 ns and 2.1 µs, calls of 20 and 15 ns: 17.5 ns shown as 18 ns); its third launch
        // has no call.
        QVERIFY2(
            shown(pane).contains(QStringLiteral("avg 1.150 µs · min 200 ns · max 2.100 µs")), qPrintable(shown(pane)));
        QVERIFY(shown(pane).contains(QStringLiteral("avg 18 ns of CPU time per launch")));
        QVERIFY(shown(pane).contains(QStringLiteral("2 of 3 have their launching call in the session")));

        auto moved = std::make_shared<ui::SessionDocument>(*m_small);
        moved->path = QString::fromStdString(m_dir.file("gone.ridge"));
        pane.setDocument(moved);
        QVERIFY(loaded.wait(10000));
        QVERIFY2(shown(pane).contains(QStringLiteral("Cannot read the launches")), qPrintable(shown(pane)));
        QVERIFY(shown(pane).contains(q(k.analysis.reason))); // the summary is still there
        selection.clear(nullptr);
        QVERIFY(shown(pane).contains(QStringLiteral("Select a kernel")));
    }

    // A real Nsight Compute report (tests/data/ncu/nersc-gpp/output0.ncu-rep), loaded as the app
    // loads it: the reduction kernel's AchievedOccupancy rule result (OPT, a local speedup of
    // 1 - 16.54 % / 100 % achieved of theoretical occupancy, from the report's own metric) and its
    // message, its link markup shown as its text; the other kernel's TheoreticalOccupancy.
    void ncuEstimatesOfARealReport()
    {
        const auto path = m_dir.file("output0.ridge");
        QVERIFY(collectors::importNcuRep(
            { std::string(RIDGELINE_TEST_DATA_DIR) + "/ncu/nersc-gpp/output0.ncu-rep" }, path, true)
                    .ok());
        auto read = ui::readSessionDocument(QString::fromStdString(path));
        QVERIFY(read.ok());
        auto doc = std::make_shared<ui::SessionDocument>(std::move(read).value());
        auto reader = core::SessionReader::open(path);
        QVERIFY(reader.ok());
        const auto kernels = reader.value().kernels().value();
        QCOMPARE(kernels.size(), std::size_t(2));
        double achieved = 0;
        for (const auto& m : reader.value().metrics(kernels[1].id).value())
            if (m.name == "sm__warps_active.avg.pct_of_peak_sustained_active")
                achieved = m.value;
        QVERIFY(achieved > 0);

        ui::SelectionModel selection;
        DetailsPane pane(&selection);
        pane.setDocument(doc);
        const auto red = std::find_if(doc->report.kernels.begin(), doc->report.kernels.end(),
            [](const core::KernelSummary& k) { return k.mangledName == "sigma_gpp_gpu_34_gpu__red"; });
        QVERIFY(red != doc->report.kernels.end());
        QVERIFY(selectAndWait(selection, pane, { red->nameId, red->deviceId, -1 }));
        QString text = shown(pane);
        QVERIFY2(text.contains(QStringLiteral("ncu estimates")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Achieved Occupancy")));
        QVERIFY(text.contains(QStringLiteral("OPT")));
        QVERIFY2(text.contains(QStringLiteral("%1 % (local)").arg(100 - achieved, 0, 'f', 1)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("See the CUDA Best Practices Guide for more details")));
        QVERIFY(!text.contains(QStringLiteral("@url:")));
        QVERIFY(!text.contains(QStringLiteral("Theoretical Occupancy"))); // the other kernel's rule
        // The verdict comes first, ncu's estimates next to it.
        QVERIFY(text.indexOf(QStringLiteral("Verdict")) < text.indexOf(QStringLiteral("ncu estimates")));

        // One launch: its own rule results, read off the GUI thread.
        const auto main = std::find_if(doc->report.kernels.begin(), doc->report.kernels.end(),
            [](const core::KernelSummary& k) { return k.mangledName == "sigma_gpp_gpu_34_gpu"; });
        QVERIFY(main != doc->report.kernels.end());
        QVERIFY(selectAndWait(selection, pane, { main->nameId, main->deviceId, kernels[0].id }));
        text = shown(pane);
        QVERIFY(text.contains(QStringLiteral("this launch")));
        QVERIFY(text.contains(QStringLiteral("Theoretical Occupancy")));
        QVERIFY2(text.contains(QStringLiteral("66.7 % (local)")), qPrintable(text)); // 1 - 4 / 12 warps
        QVERIFY(text.contains(QStringLiteral("The 4.00 theoretical warps per scheduler")));

        // A session without rule results shows no section.
        pane.setDocument(m_small);
        const auto& k = vectorAdd();
        QVERIFY(selectAndWait(selection, pane, { k.nameId, k.deviceId, -1 }));
        QVERIFY(!shown(pane).contains(QStringLiteral("ncu estimates")));
    }

    void pictureIsNotEmpty()
    {
        ui::SelectionModel selection;
        DetailsPane pane(&selection);
        pane.setDocument(m_small);
        pane.resize(700, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const auto& k = vectorAdd();
        QVERIFY(selectAndWait(selection, pane, { k.nameId, k.deviceId, -1 }));
        QVERIFY(testing::savePicture(pane.grab(), QStringLiteral("details-small")));
    }
};

RIDGELINE_UI_TEST(tst_detailspane, TestDetailsPane)
#include "tst_detailspane.moc"
