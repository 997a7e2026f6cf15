// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

class QAction;
class QMenuBar;
class QWidget;

namespace ridgeline::ui {

// Help ▸ Keyboard Shortcuts: every menu action that has a shortcut, as "Menu ▸ Action<TAB>Keys"
// lines (for tests) and in a dialog.
QStringList shortcutLines(const QMenuBar* menuBar);
void showShortcutsDialog(QWidget* parent, const QMenuBar* menuBar);

} // namespace ridgeline::ui
