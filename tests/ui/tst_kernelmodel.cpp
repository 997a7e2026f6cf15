// SPDX-License-Identifier: MIT
#include "common/verdictcolors.h"
#include "fixtures.h"
#include "kernels/kernelmodel.h"
#include "kernels/kernelpage.h"
#include "qtwarnings.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"
#include "uitest.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace ridgeline;

class TestKernelModel : public testing::QtWarningTest {
    Q_OBJECT
private:
    std::vector<core::KernelSummary> fixtureRows()
    {
        const auto path = m_dir.file("small.ridge");
        if (!std::filesystem::exists(path) && testing::writeSmallFixture(path).hasError())
            return {};
        auto reader = core::SessionReader::open(path);
        if (reader.hasError())
            return {};
        auto rows = core::summarizeKernels(reader.value());
        return rows.ok() ? std::move(rows).value() : std::vector<core::KernelSummary> {};
    }
    testing::TempDir m_dir;

private Q_SLOTS:
    void modelPassesTheTester()
    {
        ui::KernelModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(fixtureRows());
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(ui::KernelModel::ColumnCount));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
        model.setRows(fixtureRows());
        QCOMPARE(model.rowCount(), 5);
    }

    void showsTheShortNameAndTheFullNameAsTooltip()
    {
        ui::KernelModel model;
        model.setRows(fixtureRows());
        int cutlass = -1;
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.index(row, ui::KernelModel::NameColumn).data(Qt::ToolTipRole).toString()
                == QStringLiteral("void cutlass::Kernel<int>(int*)"))
                cutlass = row;
        }
        QVERIFY(cutlass >= 0);
        // Shown as ncu's "Function Name": no namespace, template arguments or parameters.
        QCOMPARE(model.index(cutlass, ui::KernelModel::NameColumn).data().toString(), QStringLiteral("Kernel"));
        // Sorting by name goes by what is shown.
        QVERIFY(model.index(cutlass, ui::KernelModel::NameColumn)
                    .data(ui::KernelModel::SortRole)
                    .toString()
                    .startsWith(QStringLiteral("Kernel\n")));
        // A plain C name is the same both ways.
        QCOMPARE(model.index(0, ui::KernelModel::NameColumn).data(Qt::ToolTipRole).toString(),
            model.index(0, ui::KernelModel::NameColumn).data().toString());
    }

    void showsCoreFigures()
    {
        ui::KernelModel model;
        model.setRows(fixtureRows());
        const auto name = model.index(0, ui::KernelModel::NameColumn);
        QCOMPARE(name.data().toString(), QStringLiteral("ampere_sgemm_128x64_nn"));
        QCOMPARE(model.index(0, ui::KernelModel::LaunchesColumn).data().toString(), QStringLiteral("2"));
        QCOMPARE(model.index(0, ui::KernelModel::TotalColumn).data().toString(), QStringLiteral("24.000 µs"));
        QCOMPARE(model.index(0, ui::KernelModel::TimeShareColumn).data().toString(), QStringLiteral("64.86 %"));
        QCOMPARE(model.index(0, ui::KernelModel::TotalColumn).data(ui::KernelModel::SortRole).toLongLong(), 24000);
        QCOMPARE(model.headerData(ui::KernelModel::NameColumn, Qt::Horizontal).toString(), QStringLiteral("Kernel"));
        // vectorAdd on device 0 has counters: 2 MiB of DRAM traffic in 1 µs = 63 % of 3.35 TB/s.
        const auto vectorAdd = model.index(1, ui::KernelModel::VerdictColumn);
        QCOMPARE(vectorAdd.data().toString(), QStringLiteral("memory-bound"));
        QCOMPARE(model.index(1, ui::KernelModel::BoundByColumn).data().toString(), QStringLiteral("DRAM"));
        QCOMPARE(model.index(1, ui::KernelModel::RoofColumn).data().toString(), QStringLiteral("63 %"));
        QCOMPARE(vectorAdd.data(Qt::BackgroundRole).value<QColor>(), ui::verdictColor(u"memory-bound"));
        QVERIFY(
            vectorAdd.data(ui::KernelModel::ReasonRole).toString().startsWith(QStringLiteral("memory-bound (DRAM)")));
        QCOMPARE(model.index(0, ui::KernelModel::VerdictColumn).data().toString(), QStringLiteral("unknown"));
        // Unknown verdicts are grey text, not a grey block.
        QVERIFY(!model.index(0, ui::KernelModel::VerdictColumn).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.index(0, ui::KernelModel::VerdictColumn).data(Qt::ForegroundRole).value<QColor>(),
            ui::verdictColor(u"unknown"));
        QCOMPARE(model.index(0, ui::KernelModel::RoofColumn).data().toString(), QString());
    }

    void pageSortsNumericallyAndFilters()
    {
        ui::KernelPage page;
        QAbstractItemModelTester tester(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.setRows(fixtureRows());
        auto* proxy = page.proxy();
        // Launches, ascending: numeric (1 < 2 < 3), not text order.
        proxy->sort(ui::KernelModel::LaunchesColumn, Qt::AscendingOrder);
        QCOMPARE(proxy->index(0, ui::KernelModel::LaunchesColumn).data().toString(), QStringLiteral("1"));
        QCOMPARE(proxy->index(4, ui::KernelModel::LaunchesColumn).data().toString(), QStringLiteral("3"));
        proxy->setFilterFixedString(QStringLiteral("VECTORADD"));
        QCOMPARE(proxy->rowCount(), 2);
        proxy->setFilterFixedString(QString());
        QCOMPARE(proxy->rowCount(), 5);
    }
};

RIDGELINE_UI_TEST(tst_kernelmodel, TestKernelModel)
#include "tst_kernelmodel.moc"
