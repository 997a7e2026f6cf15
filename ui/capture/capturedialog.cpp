// SPDX-License-Identifier: MIT
#include "capturedialog.h"

#include "ridgeline/core/base/shellwords.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace ridgeline::ui {

namespace {

// POSIX shell words (single and double quotes, backslashes); empty when the line does not split
// (startCapture refuses such a line with the reason).
QStringList splitArguments(const QString& line)
{
    auto words = core::splitShellWords(line.toStdString());
    QStringList out;
    if (words.hasError())
        return out;
    for (const auto& word : words.value())
        out.append(QString::fromStdString(word));
    return out;
}

QString joinArguments(const QStringList& arguments)
{
    std::vector<std::string> words;
    for (const auto& arg : arguments)
        words.push_back(arg.toStdString());
    return QString::fromStdString(core::joinShellWords(words));
}

} // namespace

namespace {

QWidget* withBrowseButton(QLineEdit* edit, QWidget* parent, std::function<void()> browse)
{
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit);
    auto* button = new QToolButton(row);
    button->setText(QStringLiteral("…"));
    button->setToolTip(QCoreApplication::translate("ridgeline::ui::CaptureDialog", "Browse"));
    QObject::connect(button, &QToolButton::clicked, row, std::move(browse));
    layout->addWidget(button);
    return row;
}

QString metricsKey(int index)
{
    static const char* const keys[] = { "roofline", "full", "none" };
    return index >= 0 && index < 3 ? QString::fromLatin1(keys[index]) : QString();
}

} // namespace

CaptureDialog::CaptureDialog(QWidget* parent)
    : QDialog(parent)
    , m_runner(new CaptureRunner(this))
    , m_program(new QLineEdit(this))
    , m_arguments(new QLineEdit(this))
    , m_workingDirectory(new QLineEdit(this))
    , m_environment(new QPlainTextEdit(this))
    , m_metrics(new QComboBox(this))
    , m_customMetrics(new QLineEdit(this))
    , m_kernelRegex(new QLineEdit(this))
    , m_launchSkip(new QSpinBox(this))
    , m_launchCount(new QSpinBox(this))
    , m_nvtxRange(new QLineEdit(this))
    , m_output(new QLineEdit(this))
    , m_form(nullptr)
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_error(new QLabel(this))
    , m_log(new QPlainTextEdit(this))
    , m_start(new QPushButton(tr("&Start Capture"), this))
    , m_stop(new QPushButton(tr("S&top"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Close, this))
{
    setWindowTitle(tr("New Capture"));
    m_form = createForm();
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #d04437; font-weight: bold;"));
    m_error->hide();
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The program's and the launcher's output appear here."));
    m_progress->setRange(0, 0);
    m_progress->hide();
    m_stop->setEnabled(false);
    m_stop->setToolTip(tr("Stops the program cleanly and keeps what was captured"));
    m_buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    m_buttons->addButton(m_stop, QDialogButtonBox::ActionRole);
    connect(m_start, &QPushButton::clicked, this, &CaptureDialog::startCapture);
    connect(m_stop, &QPushButton::clicked, this, &CaptureDialog::stopCapture);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &CaptureDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_form);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_error);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_buttons);
    resize(720, 640);

    connect(m_runner, &CaptureRunner::outputLine, m_log, &QPlainTextEdit::appendPlainText);
    connect(m_runner, &CaptureRunner::progress, this, &CaptureDialog::showProgress);
    connect(m_runner, &CaptureRunner::finished, this, &CaptureDialog::showFinished);
    loadSettings();
}

QWidget* CaptureDialog::createForm()
{
    auto* form = new QWidget(this);
    auto* layout = new QFormLayout(form);
    m_program->setPlaceholderText(tr("Executable to profile"));
    layout->addRow(tr("&Program:"), withBrowseButton(m_program, form, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Program to Capture"), m_program->text());
        if (!file.isEmpty())
            m_program->setText(file);
    }));
    m_arguments->setPlaceholderText(tr("Arguments, quoted as in a shell"));
    layout->addRow(tr("&Arguments:"), m_arguments);
    m_workingDirectory->setPlaceholderText(QDir::currentPath());
    layout->addRow(tr("&Working directory:"), withBrowseButton(m_workingDirectory, form, [this] {
        const QString dir
            = QFileDialog::getExistingDirectory(this, tr("Working Directory"), m_workingDirectory->text());
        if (!dir.isEmpty())
            m_workingDirectory->setText(dir);
    }));
    m_environment->setPlaceholderText(tr("KEY=VALUE, one per line, added to the environment"));
    m_environment->setMaximumHeight(64);
    layout->addRow(tr("&Environment:"), m_environment);

    m_metrics->addItems({ tr("Roofline counters"), tr("Full counter set"), tr("None (trace only)"), tr("Custom…") });
    m_customMetrics->setPlaceholderText(tr("Comma-separated Nsight Compute metric names"));
    m_customMetrics->setEnabled(false);
    connect(m_metrics, &QComboBox::currentIndexChanged, this,
        [this](int index) { m_customMetrics->setEnabled(index == 3); });
    auto* metricsRow = new QWidget(form);
    auto* metricsLayout = new QHBoxLayout(metricsRow);
    metricsLayout->setContentsMargins(0, 0, 0, 0);
    metricsLayout->addWidget(m_metrics);
    metricsLayout->addWidget(m_customMetrics, 1);
    layout->addRow(tr("&Metrics:"), metricsRow);

    m_kernelRegex->setPlaceholderText(tr("Only kernels whose name matches (regular expression)"));
    layout->addRow(tr("&Kernel filter:"), m_kernelRegex);
    m_launchSkip->setRange(0, std::numeric_limits<int>::max());
    m_launchCount->setRange(0, std::numeric_limits<int>::max());
    m_launchCount->setSpecialValueText(tr("all"));
    auto* launchRow = new QWidget(form);
    auto* launchLayout = new QHBoxLayout(launchRow);
    launchLayout->setContentsMargins(0, 0, 0, 0);
    launchLayout->addWidget(new QLabel(tr("skip"), launchRow));
    launchLayout->addWidget(m_launchSkip);
    launchLayout->addWidget(new QLabel(tr("then profile"), launchRow));
    launchLayout->addWidget(m_launchCount);
    launchLayout->addStretch();
    layout->addRow(tr("Launches:"), launchRow);
    m_nvtxRange->setPlaceholderText(tr("Only inside this NVTX range"));
    layout->addRow(tr("&NVTX range:"), m_nvtxRange);
    layout->addRow(tr("&Output:"), withBrowseButton(m_output, form, [this] {
        const QString file = QFileDialog::getSaveFileName(
            this, tr("Save Capture As"), m_output->text(), tr("Ridgeline sessions (*.ridge)"));
        if (!file.isEmpty())
            m_output->setText(file);
    }));
    connect(m_program, &QLineEdit::editingFinished, this, [this] {
        if (m_output->text().isEmpty() && !m_program->text().isEmpty()) {
            const QString dir = m_workingDirectory->text().isEmpty() ? QDir::currentPath() : m_workingDirectory->text();
            m_output->setText(QDir(dir).filePath(QFileInfo(m_program->text()).baseName() + QStringLiteral(".ridge")));
        }
    });
    return form;
}

CaptureJob CaptureDialog::job() const
{
    CaptureJob o;
    o.program = m_program->text().trimmed();
    o.arguments = splitArguments(m_arguments->text());
    o.workingDirectory = m_workingDirectory->text().trimmed();
    for (const auto& line : m_environment->toPlainText().split(u'\n', Qt::SkipEmptyParts)) {
        if (!line.trimmed().isEmpty())
            o.environment.append(line.trimmed());
    }
    o.metrics
        = m_metrics->currentIndex() == 3 ? m_customMetrics->text().remove(u' ') : metricsKey(m_metrics->currentIndex());
    o.kernelRegex = m_kernelRegex->text();
    o.launchSkip = m_launchSkip->value();
    o.launchCount = m_launchCount->value();
    o.nvtxRange = m_nvtxRange->text();
    o.output = m_output->text().trimmed();
    return o;
}

void CaptureDialog::setJob(const CaptureJob& o)
{
    m_program->setText(o.program);
    m_arguments->setText(joinArguments(o.arguments));
    m_workingDirectory->setText(o.workingDirectory);
    m_environment->setPlainText(o.environment.join(u'\n'));
    const int preset = o.metrics == u"roofline" ? 0 : o.metrics == u"full" ? 1 : o.metrics == u"none" ? 2 : 3;
    m_metrics->setCurrentIndex(preset);
    m_customMetrics->setText(preset == 3 ? o.metrics : QString());
    m_kernelRegex->setText(o.kernelRegex);
    m_launchSkip->setValue(static_cast<int>(o.launchSkip));
    m_launchCount->setValue(static_cast<int>(o.launchCount));
    m_nvtxRange->setText(o.nvtxRange);
    m_output->setText(o.output);
}

QString CaptureDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

QString CaptureDialog::log() const
{
    return m_log->toPlainText();
}

bool CaptureDialog::startCapture()
{
    const CaptureJob o = job();
    QString problem;
    if (o.program.isEmpty())
        problem = tr("Choose the program to capture.");
    else if (o.output.isEmpty())
        problem = tr("Choose where to save the session.");
    else if (auto split = core::splitShellWords(m_arguments->text().toStdString()); split.hasError())
        problem = tr("The arguments cannot be split: %1.").arg(QString::fromStdString(split.error().message));
    else if (o.metrics.isEmpty())
        problem = tr("List the metrics to collect, or choose a preset.");
    else if (const QString bad = invalidEnvironmentEntry(o.environment); !bad.isEmpty())
        problem = tr("Environment entries are KEY=VALUE; this one is not: %1").arg(bad);
    else if (!o.workingDirectory.isEmpty() && !QFileInfo(o.workingDirectory).isDir())
        problem = tr("The working directory %1 does not exist.").arg(o.workingDirectory);
    if (!problem.isEmpty()) {
        showError(problem);
        return false;
    }
    m_error->hide();
    m_log->clear();
    saveSettings();
    setRunning(true);
    m_status->setText(tr("Starting %1…").arg(QFileInfo(o.program).fileName()));
    m_runner->start(o);
    return true;
}

void CaptureDialog::stopCapture()
{
    if (!m_runner->isRunning())
        return;
    m_status->setText(tr("Stopping the program; what was captured is kept…"));
    m_stop->setEnabled(false);
    m_runner->stop();
}

void CaptureDialog::reject()
{
    // Closing while capturing stops the capture first (the session is kept and opened).
    if (m_runner->isRunning()) {
        stopCapture();
        return;
    }
    QDialog::reject();
}

void CaptureDialog::showProgress(const core::progress::Event& event)
{
    using Kind = core::progress::Event::Kind;
    switch (event.kind) {
    case Kind::Started:
        m_status->setText(tr("Running (pid %1), writing %2").arg(event.pid).arg(QString::fromStdString(event.output)));
        break;
    case Kind::Running:
        m_status->setText(
            tr("Running for %1 s: %n kernel(s) captured in %2 part file(s)", nullptr, static_cast<int>(event.kernels))
                .arg(event.seconds, 0, 'f', 0)
                .arg(event.parts));
        break;
    case Kind::Merging:
        m_status->setText(tr("Merging %n part file(s) and analysing…", nullptr, static_cast<int>(event.parts)));
        break;
    case Kind::Finished:
        m_status->setText(tr("Finished (%1): %2 kernels, %3 copies and memsets")
                              .arg(QString::fromStdString(event.status))
                              .arg(event.kernels)
                              .arg(event.memops));
        break;
    case Kind::Error:
        showError(QString::fromStdString(event.message));
        break;
    }
}

void CaptureDialog::showFinished(const CaptureOutcome& outcome)
{
    setRunning(false);
    if (!outcome.error.isEmpty())
        showError(outcome.error);
    if (!outcome.ok) {
        m_status->setText(tr("No session was written."));
        return;
    }
    QString text = tr("Captured %1 (%2).").arg(outcome.output, outcome.status);
    if (outcome.exitCode != 0)
        text += u' ' + tr("The program exited with status %1.").arg(outcome.exitCode);
    m_status->setText(text);
    Q_EMIT sessionCaptured(outcome.output);
}

void CaptureDialog::showError(const QString& message)
{
    m_error->setText(message);
    m_error->show();
}

void CaptureDialog::setRunning(bool running)
{
    m_form->setEnabled(!running);
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    m_progress->setVisible(running);
}

void CaptureDialog::saveSettings() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("capture"));
    const CaptureJob o = job();
    settings.setValue(QStringLiteral("program"), o.program);
    settings.setValue(QStringLiteral("arguments"), m_arguments->text());
    settings.setValue(QStringLiteral("workingDirectory"), o.workingDirectory);
    settings.setValue(QStringLiteral("environment"), o.environment);
    settings.setValue(QStringLiteral("metrics"), o.metrics);
}

void CaptureDialog::loadSettings()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("capture"));
    CaptureJob o;
    o.program = settings.value(QStringLiteral("program")).toString();
    o.arguments = splitArguments(settings.value(QStringLiteral("arguments")).toString());
    o.workingDirectory = settings.value(QStringLiteral("workingDirectory")).toString();
    o.environment = settings.value(QStringLiteral("environment")).toStringList();
    o.metrics = settings.value(QStringLiteral("metrics"), QStringLiteral("roofline")).toString();
    setJob(o);
}

} // namespace ridgeline::ui

#include "moc_capturedialog.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
