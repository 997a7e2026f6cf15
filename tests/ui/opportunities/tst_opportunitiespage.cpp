// SPDX-License-Identifier: MIT
// The Opportunities page (issue 34), offscreen: on the bundled A100 example (Nsight Compute counters)
// and on a real H100 PyTorch trace (ViT, figures from operator shapes) its rows, their order and the
// first row's cells are those of core::findOpportunities on a reader of the test's own; choosing a
// row selects its kernel in the kernel table and shows its advice in Details; a kernel selected
// elsewhere chooses the row that holds it; an empty page and a session with no figures say so.
#include "../roofline/documents.h"
#include "common/selectionmodel.h"
#include "details/detailspane.h"
#include "kernels/kernelmodel.h"
#include "kernels/kernelpage.h"
#include "opportunities/opportunitiespage.h"
#include "opportunities/opportunitymodel.h"
#include "opportunities/unrankedmodel.h"
#include "qtwarnings.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/opportunities.h"
#include "ridgeline/core/base/units.h"
#include "ridgeline/core/store/sessionreader.h"
#include "session/documentreader.h"
#include "tempdir.h"
#include "uitest.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <algorithm>

using namespace ridgeline;

namespace {

const std::string kOppPageA100 = RIDGELINE_EXAMPLES_DIR "/a100-linear-ncu.ridge";
const std::string kOppPageVitTrace
    = RIDGELINE_TEST_DATA_DIR "/tracelens-h100/Falconsai_nsfw_image_detection__1016002.json.gz";

// What core ranks, on a reader of the test's own (not the document's).
core::Opportunities oppPageExpected(const std::string& session)
{
    auto reader = core::SessionReader::open(session);
    if (reader.hasError())
        qFatal("%s", reader.error().message.c_str());
    auto found = core::findOpportunities(reader.value());
    if (found.hasError())
        qFatal("%s", found.error().message.c_str());
    return std::move(found).value();
}

// The document as the app opens it (ui::readSessionDocument: its opportunities included).
ui::SessionDocumentPtr oppPageOpen(const std::string& session)
{
    auto doc = ui::readSessionDocument(QString::fromStdString(session));
    if (doc.hasError())
        qFatal("%s", doc.error().message.c_str());
    return std::make_shared<const ui::SessionDocument>(std::move(doc).value());
}

QString oppPageDuration(std::int64_t ns)
{
    return QString::fromStdString(core::formatDuration(static_cast<double>(ns)));
}

QString oppPageCell(const ui::OpportunitiesPage& page, int viewRow, int column, int role = Qt::DisplayRole)
{
    return page.view()->model()->index(viewRow, column).data(role).toString();
}

} // namespace

class TestOpportunitiesPage : public QObject {
    Q_OBJECT
private:
    testing::TempDir m_dir;
    ui::SessionDocumentPtr m_a100;
    ui::SessionDocumentPtr m_vit;
    std::string m_vitSession;

    // The page shows `expected`'s rows in its order, the first with its values, and the whole line.
    static void checkRanked(const ui::OpportunitiesPage& page, const core::Opportunities& expected)
    {
        QVERIFY(!expected.rows.empty());
        QCOMPARE(page.model()->rowCount(), static_cast<int>(expected.rows.size()));
        QCOMPARE(page.unrankedModel()->rowCount(), static_cast<int>(expected.unranked.size()));
        for (int i = 0; i < page.model()->rowCount(); ++i) {
            const auto& want = expected.rows[static_cast<std::size_t>(i)];
            QCOMPARE(page.view()->model()->index(i, 0).data(ui::OpportunityModel::RowRole).toInt(), i);
            QCOMPARE(oppPageCell(page, i, ui::OpportunityModel::RankColumn), QString::number(i + 1));
            QCOMPARE(page.view()
                         ->model()
                         ->index(i, ui::OpportunityModel::RecoverableColumn)
                         .data(ui::OpportunityModel::SortRole)
                         .toLongLong(),
                want.recoverableNs);
            if (i > 0)
                QVERIFY(want.recoverableNs <= expected.rows[static_cast<std::size_t>(i) - 1].recoverableNs);
        }
        const auto& first = expected.rows.front();
        const QString name = QString::fromStdString(first.name);
        QCOMPARE(oppPageCell(page, 0, ui::OpportunityModel::NameColumn),
            first.inputDims.empty() ? name : name + QStringLiteral("  ") + QString::fromStdString(first.inputDims));
        QCOMPARE(oppPageCell(page, 0, ui::OpportunityModel::RecoverableColumn), oppPageDuration(first.recoverableNs));
        QCOMPARE(oppPageCell(page, 0, ui::OpportunityModel::GpuTimeColumn), oppPageDuration(first.gpuTimeNs));
        QCOMPARE(oppPageCell(page, 0, ui::OpportunityModel::AtRoofColumn), oppPageDuration(first.timeAtRoofNs));
        QCOMPARE(oppPageCell(page, 0, ui::OpportunityModel::CallsColumn),
            QString::fromStdString(core::formatCount(first.calls)));
        QCOMPARE(
            oppPageCell(page, 0, ui::OpportunityModel::KindColumn), QString::fromLatin1(core::toString(first.kind)));
        QCOMPARE(oppPageCell(page, 0, ui::OpportunityModel::LimitedByColumn), QString::fromStdString(first.limitedBy));
        QCOMPARE(page.view()
                     ->model()
                     ->index(0, ui::OpportunityModel::RecoverableColumn)
                     .data(ui::OpportunityModel::BarRole)
                     .toDouble(),
            1.0); // the largest row's bar is full
        const QString summary = page.summary()->text();
        const QString line
            = QStringLiteral("At its roofs the GPU would do this work in %1; it took %2: %3 recoverable "
                             "(%4 % of GPU time).")
                  .arg(oppPageDuration(expected.timeAtRoofNs), oppPageDuration(expected.rankedTimeNs),
                      oppPageDuration(expected.recoverableNs))
                  .arg(100.0 * static_cast<double>(expected.recoverableNs) / static_cast<double>(expected.gpuTimeNs), 0,
                      'f', 1);
        QVERIFY2(summary.contains(line), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("cover %1 %").arg(100.0 * expected.coverage(), 0, 'f', 1)),
            qPrintable(summary));
    }

private Q_SLOTS:
    void initTestCase()
    {
        testing::installQtWarningRecorder();
        m_a100 = oppPageOpen(kOppPageA100);
        QVERIFY(m_a100 && m_a100->opportunities);
        m_vitSession = m_dir.file("vit.ridge");
        QVERIFY(!collectors::importKineto({ kOppPageVitTrace }, m_vitSession, false).hasError());
        m_vit = oppPageOpen(m_vitSession);
        QVERIFY(m_vit && m_vit->opportunities);
    }

    void a100ExampleRowsAreCoresInItsOrder()
    {
        ui::SelectionModel selection;
        ui::OpportunitiesPage page(&selection);
        page.setDocument(m_a100);
        const auto expected = oppPageExpected(kOppPageA100);
        checkRanked(page, expected);
        QCOMPARE(expected.rows.front().kind, core::OpportunityKind::Kernel); // ncu: kernels, no operators
    }

    void vitTraceRowsAreCoresInItsOrder()
    {
        ui::SelectionModel selection;
        ui::OpportunitiesPage page(&selection);
        page.setDocument(m_vit);
        const auto expected = oppPageExpected(m_vitSession);
        checkRanked(page, expected);
        QCOMPARE(expected.rows.front().kind, core::OpportunityKind::Operator); // figures from shapes
        QVERIFY(!expected.rows.front().inputDims.empty());
    }

    // A click on a row selects its kernel (the one with the most time) in the shared selection and
    // the kernel table; Details shows every item of the row's advice and its reason.
    void clickingARowSelectsItsKernelAndShowsItsAdvice()
    {
        ui::SelectionModel selection;
        ui::KernelPage kernels;
        kernels.setSelectionModel(&selection);
        kernels.setDocument(m_a100);
        ui::DetailsPane details(&selection);
        details.setDocument(m_a100);
        ui::OpportunitiesPage page(&selection);
        QObject::connect(&page, &ui::OpportunitiesPage::opportunityChosen, &details, &ui::DetailsPane::setOpportunity);
        page.setDocument(m_a100);
        page.resize(1200, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));

        const auto& row = m_a100->opportunities->rows.front();
        QVERIFY(!row.kernels.empty());
        QSignalSpy loaded(&details, &ui::DetailsPane::detailsLoaded);
        const QRect rect = page.view()->visualRect(page.view()->model()->index(0, ui::OpportunityModel::NameColumn));
        QTest::mouseClick(page.view()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(page.chosenRow(), 0);
        const ui::KernelSelection want { row.kernels.front().nameId, row.kernels.front().deviceId, -1 };
        QCOMPARE(selection.current(), want);
        const auto picked = kernels.kernelView()->selectionModel()->selectedRows();
        QCOMPARE(picked.size(), 1);
        QCOMPARE(picked.front().data(ui::KernelModel::NameIdRole).toLongLong(), want.nameId);
        QCOMPARE(picked.front().data(ui::KernelModel::DeviceIdRole).toLongLong(), want.deviceId);
        QVERIFY2(
            page.status()->text().startsWith(QStringLiteral("Selected kernel")), qPrintable(page.status()->text()));

        const QString text = details.browser()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Opportunity #1 of %1").arg(m_a100->opportunities->rows.size())),
            qPrintable(text));
        QVERIFY(!row.advice.empty());
        for (const auto& advice : row.advice)
            QVERIFY2(text.contains(QString::fromStdString(advice)), advice.c_str());
        QVERIFY2(text.contains(QString::fromStdString(row.analysis.reason)), qPrintable(text)); // the verdict's
        QVERIFY(testing::savePicture(page.grab(), QStringLiteral("opportunities-a100")));
        QVERIFY(loaded.count() > 0 || loaded.wait(10000)); // the pane's reads end before it does
    }

    // An operator row stands for several kernels; a selection holds one: the one with the most
    // time, and the status line says so.
    void operatorRowSelectsItsLongestKernelAndSaysSo()
    {
        const auto& rows = m_vit->opportunities->rows;
        const auto several = std::find_if(rows.begin(), rows.end(), [](const core::Opportunity& r) {
            return r.kind == core::OpportunityKind::Operator && r.kernels.size() > 1;
        });
        if (several == rows.end())
            QSKIP("no operator row of the ViT trace stands for several kernels");
        ui::SelectionModel selection;
        ui::DetailsPane details(&selection);
        details.setDocument(m_vit);
        ui::OpportunitiesPage page(&selection);
        QObject::connect(&page, &ui::OpportunitiesPage::opportunityChosen, &details, &ui::DetailsPane::setOpportunity);
        page.setDocument(m_vit);
        QSignalSpy loaded(&details, &ui::DetailsPane::detailsLoaded);
        const int index = static_cast<int>(several - rows.begin());
        page.chooseRow(index);
        QCOMPARE(page.chosenRow(), index);
        QCOMPARE(selection.current(),
            (ui::KernelSelection { several->kernels.front().nameId, several->kernels.front().deviceId, -1 }));
        QVERIFY2(page.status()->text().contains(QStringLiteral("stands for %1 kernels").arg(several->kernels.size())),
            qPrintable(page.status()->text()));
        // Details: the operator row (not the kernel's own row), its reason and all its advice.
        const QString text = details.browser()->toPlainText();
        QVERIFY2(
            text.contains(QStringLiteral("Opportunity #%1 of %2").arg(index + 1).arg(rows.size())), qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(several->analysis.reason)), qPrintable(text));
        for (const auto& advice : several->advice)
            QVERIFY2(text.contains(QString::fromStdString(advice)), advice.c_str());
        QVERIFY(loaded.count() > 0 || loaded.wait(10000));
    }

    // A kernel selected elsewhere chooses the first (most recoverable) row that holds it.
    void aKernelSelectedElsewhereChoosesItsRow()
    {
        ui::SelectionModel selection;
        ui::OpportunitiesPage page(&selection);
        page.setDocument(m_vit);
        const auto& rows = m_vit->opportunities->rows;
        const auto& last = rows.back();
        QVERIFY(!last.kernels.empty());
        const auto& kernel = last.kernels.front();
        int first = -1;
        for (std::size_t i = 0; i < rows.size() && first < 0; ++i) {
            for (const auto& k : rows[i].kernels) {
                if (k.nameId == kernel.nameId && k.deviceId == kernel.deviceId)
                    first = static_cast<int>(i);
            }
        }
        QSignalSpy chosen(&page, &ui::OpportunitiesPage::opportunityChosen);
        selection.select({ kernel.nameId, kernel.deviceId, -1 }, nullptr);
        QCOMPARE(page.chosenRow(), first);
        QCOMPARE(chosen.last().first().toInt(), first);
        QCOMPARE(selection.current().nameId, kernel.nameId); // following selects nothing back
    }

    void emptyPageAndSessionWithoutFigures()
    {
        ui::OpportunitiesPage page(nullptr);
        QCOMPARE(page.summary()->text(), QStringLiteral("No session open."));
        QCOMPARE(page.model()->rowCount(), 0);

        // The bundled two-rank PyTorch trace has no counters and no shapes: every row is unranked.
        auto fixture = oppPageOpen(RIDGELINE_EXAMPLE_SESSION);
        QVERIFY(fixture && fixture->opportunities);
        QVERIFY(fixture->opportunities->rows.empty());
        QVERIFY(!fixture->opportunities->unranked.empty());
        page.setDocument(fixture);
        QCOMPARE(page.model()->rowCount(), 0);
        QCOMPARE(page.unrankedModel()->rowCount(), static_cast<int>(fixture->opportunities->unranked.size()));
        QVERIFY2(page.summary()->text().contains(QStringLiteral("nothing can be ranked")),
            qPrintable(page.summary()->text()));
        const auto& top = fixture->opportunities->unranked.front();
        QCOMPARE(page.unrankedView()->model()->index(0, ui::UnrankedModel::ReasonColumn).data().toString(),
            QString::fromStdString(top.reason));
    }
};

RIDGELINE_UI_TEST(tst_opportunitiespage, TestOpportunitiesPage)
#include "tst_opportunitiespage.moc"
