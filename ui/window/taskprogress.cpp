// SPDX-License-Identifier: MIT
#include "taskprogress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace ridgeline::ui {

TaskProgress::TaskProgress(QWidget* parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    m_label->setObjectName(QStringLiteral("taskProgressLabel"));
    // Beside the status bar's own message: a long title (a path, a cluster's many inputs) is
    // elided in the middle, never pushed into that message; the whole text is its tooltip.
    m_label->setMaximumWidth(m_label->fontMetrics().averageCharWidth() * 60);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(false);
    m_bar->setMaximumWidth(160);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Cancel (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &TaskProgress::cancelRequested);
    hide();
}

void TaskProgress::begin(const QString& title)
{
    m_title = title;
    showText(title);
    m_bar->setValue(0);
    show();
}

void TaskProgress::setProgress(int permille, const QString& what)
{
    m_bar->setValue(permille);
    showText(what.isEmpty() ? m_title : QStringLiteral("%1: %2").arg(m_title, what));
}

void TaskProgress::end()
{
    hide();
}

QString TaskProgress::text() const
{
    return m_label->toolTip();
}

void TaskProgress::showText(const QString& text)
{
    m_label->setToolTip(text);
    m_label->setText(m_label->fontMetrics().elidedText(text, Qt::ElideMiddle, m_label->maximumWidth()));
}

} // namespace ridgeline::ui

#include "moc_taskprogress.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
