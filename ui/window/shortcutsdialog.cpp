// SPDX-License-Identifier: MIT
#include "shortcutsdialog.h"

#include "timeline/timelineview.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

QString plain(QString text)
{
    return text.remove(u'&').remove(QStringLiteral("…"));
}

void collect(const QMenu* menu, const QString& path, QList<QPair<QString, QString>>& out)
{
    for (const QAction* action : menu->actions()) {
        if (action->menu()) {
            collect(action->menu(), path + QStringLiteral(" ▸ ") + plain(action->text()), out);
            continue;
        }
        for (const auto& key : action->shortcuts()) {
            out.append(
                { path + QStringLiteral(" ▸ ") + plain(action->text()), key.toString(QKeySequence::NativeText) });
        }
    }
}

QList<QPair<QString, QString>> shortcuts(const QMenuBar* menuBar)
{
    QList<QPair<QString, QString>> out;
    for (const QAction* action : menuBar->actions()) {
        if (action->menu())
            collect(action->menu(), plain(action->text()), out);
    }
    // Keys of the timeline view itself (not menu actions).
    const QString timeline = QCoreApplication::translate("ridgeline::ui::ShortcutsDialog", "Timeline");
    for (const auto& [what, keys] : TimelineView::keyBindings())
        out.append({ timeline + QStringLiteral(" ▸ ") + what, keys });
    return out;
}

} // namespace

QStringList shortcutLines(const QMenuBar* menuBar)
{
    QStringList lines;
    for (const auto& [what, keys] : shortcuts(menuBar))
        lines.append(what + u'\t' + keys);
    return lines;
}

void showShortcutsDialog(QWidget* parent, const QMenuBar* menuBar)
{
    const auto list = shortcuts(menuBar);
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QCoreApplication::translate("ridgeline::ui::ShortcutsDialog", "Keyboard Shortcuts"));
    auto* table = new QTableWidget(static_cast<int>(list.size()), 2, dialog);
    table->setHorizontalHeaderLabels({ QCoreApplication::translate("ridgeline::ui::ShortcutsDialog", "Action"),
        QCoreApplication::translate("ridgeline::ui::ShortcutsDialog", "Shortcut") });
    for (int row = 0; row < list.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(list[row].first));
        table->setItem(row, 1, new QTableWidgetItem(list[row].second));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->resizeColumnToContents(1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(520, 480);
    dialog->open();
}

} // namespace ridgeline::ui
