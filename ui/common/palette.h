// SPDX-License-Identifier: MIT
// Light and dark palettes. By default the app follows the system's palette (Qt 6.4 has no
// QStyleHints::colorScheme, so "dark" is read from the window colour's lightness); the user may
// force the built-in light or dark palette (View ▸ Theme).
#pragma once

#include <QColor>
#include <QObject>
#include <QPalette>

namespace ridgeline::ui {

enum class ThemeChoice { System, Light, Dark };

bool isDark(const QPalette& palette);
// Black or white, whichever reads better on `background`.
QColor textColorOn(const QColor& background);
QPalette lightPalette();
QPalette darkPalette();

// Applies the chosen palette to the application and reports when the effective scheme changes
// (the user's choice or the system's theme).
class ThemeController final : public QObject {
    Q_OBJECT
public:
    explicit ThemeController(QObject* parent = nullptr);

    ThemeChoice choice() const { return m_choice; }
    void setChoice(ThemeChoice choice);
    bool dark() const { return m_dark; }

Q_SIGNALS:
    void schemeChanged(bool dark);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void update();

    ThemeChoice m_choice = ThemeChoice::System;
    QPalette m_systemPalette;
    bool m_dark = false;
    bool m_applying = false;
};

} // namespace ridgeline::ui
