// SPDX-License-Identifier: MIT
// Light and dark palettes, and verdict colours readable on both.
#include "common/palette.h"
#include "common/verdictcolors.h"
#include "qtwarnings.h"
#include "uitest.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>

using namespace ridgeline;

namespace {

double luminance(const QColor& c)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

// WCAG 2 contrast ratio.
double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

const char* const kVerdicts[]
    = { "compute-bound", "memory-bound", "communication-bound", "latency-bound", "unknown", "something else" };

} // namespace

class TestPalette : public testing::QtWarningTest {
    Q_OBJECT
private Q_SLOTS:
    void verdictCellsAreReadable()
    {
        QSet<QRgb> distinct;
        for (const char* verdict : kVerdicts) {
            const QColor background = ui::verdictColor(QString::fromLatin1(verdict));
            distinct.insert(background.rgb());
            // The cell's text colour is picked against its own background (AA for large text).
            QVERIFY2(contrast(background, ui::textColorOn(background)) >= 4.5, verdict);
            // The colour stands out from both palettes' table background.
            QVERIFY2(contrast(background, ui::lightPalette().color(QPalette::Base)) >= 1.5, verdict);
            QVERIFY2(contrast(background, ui::darkPalette().color(QPalette::Base)) >= 3.0, verdict);
        }
        QCOMPARE(distinct.size(), 5); // one hue per verdict, grey for the rest
        QCOMPARE(ui::verdictCellData(u"memory-bound", Qt::BackgroundRole).value<QColor>(),
            ui::verdictColor(u"memory-bound"));
        QVERIFY(!ui::verdictCellData(u"unknown", Qt::BackgroundRole).isValid());
        // Grey text without a fill still reads on both palettes' table background.
        for (const auto& p : { ui::lightPalette(), ui::darkPalette() })
            QVERIFY(
                contrast(ui::verdictCellData(u"unknown", Qt::ForegroundRole).value<QColor>(), p.color(QPalette::Base))
                >= 2.5);
    }

    void palettesAreWhatTheySay()
    {
        QVERIFY(!ui::isDark(ui::lightPalette()));
        QVERIFY(ui::isDark(ui::darkPalette()));
        for (const auto& p : { ui::lightPalette(), ui::darkPalette() })
            QVERIFY(contrast(p.color(QPalette::Text), p.color(QPalette::Base)) >= 7.0);
    }

    void controllerAppliesTheChoiceAndFollowsTheSystem()
    {
        const QPalette system = QApplication::palette();
        ui::ThemeController theme;
        QSignalSpy changed(&theme, &ui::ThemeController::schemeChanged);
        theme.setChoice(ui::ThemeChoice::Dark);
        QVERIFY(ui::isDark(QApplication::palette()));
        QVERIFY(theme.dark());
        theme.setChoice(ui::ThemeChoice::Light);
        QVERIFY(!ui::isDark(QApplication::palette()));
        theme.setChoice(ui::ThemeChoice::System);
        QCOMPARE(QApplication::palette(), system);
        // The system switches to a dark theme while the app follows it.
        const auto before = changed.count();
        QApplication::setPalette(ui::darkPalette());
        QVERIFY(theme.dark());
        QCOMPARE(changed.count(), before + 1);
        QApplication::setPalette(system);
        QVERIFY(!theme.dark() || ui::isDark(system));
    }
};

RIDGELINE_UI_TEST(tst_palette, TestPalette)
#include "tst_palette.moc"
