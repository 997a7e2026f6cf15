// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace ridgeline::ui {

// Status-bar progress of the one long task running (opening, importing): what it does, how far,
// and a button to cancel it.
class TaskProgress final : public QWidget {
    Q_OBJECT
public:
    explicit TaskProgress(QWidget* parent = nullptr);

    void begin(const QString& title);
    void setProgress(int permille, const QString& what);
    void end();
    QString text() const; // whole: the label's tooltip (the label may elide it)

Q_SIGNALS:
    void cancelRequested();

private:
    void showText(const QString& text);

    QLabel* m_label;
    QProgressBar* m_bar;
    QToolButton* m_cancel;
    QString m_title;
};

} // namespace ridgeline::ui
