// SPDX-License-Identifier: MIT
#include "palette.h"

#include <QApplication>
#include <QEvent>

namespace ridgeline::ui {

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor textColorOn(const QColor& background)
{
    // Relative luminance (ITU-R BT.709), threshold where black and white contrast equally.
    const double luminance = 0.2126 * double(background.redF()) + 0.7152 * double(background.greenF())
        + 0.0722 * double(background.blueF());
    return luminance > 0.45 ? QColor(Qt::black) : QColor(Qt::white);
}

QPalette lightPalette()
{
    QPalette p(QColor(0xef, 0xef, 0xef));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf5, 0xf5, 0xf5));
    p.setColor(QPalette::Text, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::WindowText, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    return p;
}

QPalette darkPalette()
{
    QPalette p(QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::Window, QColor(0x2d, 0x2d, 0x30));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x27, 0x2a));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3d));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3d));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x7d, 0xc0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xee));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

ThemeController::ThemeController(QObject* parent)
    : QObject(parent)
    , m_systemPalette(QApplication::palette())
    , m_dark(isDark(m_systemPalette))
{
    qApp->installEventFilter(this);
}

void ThemeController::setChoice(ThemeChoice choice)
{
    if (choice == m_choice)
        return;
    m_choice = choice;
    update();
}

bool ThemeController::eventFilter(QObject* watched, QEvent* event)
{
    // The system changed its theme: remember its palette (unless it is ours being applied).
    if (watched == qApp && !m_applying
        && (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::ThemeChange)) {
        if (m_choice == ThemeChoice::System)
            m_systemPalette = QApplication::palette();
        update();
    }
    return QObject::eventFilter(watched, event);
}

void ThemeController::update()
{
    const QPalette wanted = m_choice == ThemeChoice::Light ? lightPalette()
        : m_choice == ThemeChoice::Dark                    ? darkPalette()
                                                           : m_systemPalette;
    if (QApplication::palette() != wanted) {
        m_applying = true;
        QApplication::setPalette(wanted);
        m_applying = false;
    }
    const bool dark = isDark(wanted);
    if (dark != m_dark) {
        m_dark = dark;
        Q_EMIT schemeChanged(dark);
    }
}

} // namespace ridgeline::ui

#include "moc_palette.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
