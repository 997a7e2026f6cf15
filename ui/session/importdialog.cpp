// SPDX-License-Identifier: MIT
#include "importdialog.h"

#include "ridgeline/core/model/importformats.h"

#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace ridgeline::ui {

ImportDialog::ImportDialog(const QStringList& inputs, const QStringList& knownGpus, QWidget* parent)
    : QDialog(parent)
    , m_output(new QLineEdit(this))
    , m_gpu(new QComboBox(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Import Traces"));
    QStringList names;
    for (const auto& input : inputs)
        names.append(QFileInfo(input).fileName());
    auto* files = new QLabel(names.join(QStringLiteral(", ")), this);
    files->setWordWrap(true);
    files->setTextInteractionFlags(Qt::TextSelectableByMouse);
    files->setToolTip(inputs.join(QLatin1Char('\n')));

    m_output->setObjectName(QStringLiteral("output"));
    m_output->setText(suggestedOutput(inputs.value(0)));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &ImportDialog::browse);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(browse);

    m_gpu->setObjectName(QStringLiteral("gpu"));
    m_gpu->setEditable(true);
    m_gpu->setInsertPolicy(QComboBox::NoInsert);
    m_gpu->addItem(QString());
    m_gpu->addItems(knownGpus);
    m_gpu->setCurrentIndex(0);
    m_gpu->lineEdit()->setPlaceholderText(tr("As the files name it"));
    m_gpu->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_gpu->completer()->setFilterMode(Qt::MatchContains);
    m_gpu->setToolTip(tr("The GPU the traces ran on, for devices the files leave unnamed (Nsight Compute CSVs "
                         "often do): its datasheet ceilings are added and the verdicts worked out against them. "
                         "Matched loosely (A100-PCIE-40GB, NVIDIA A100-SXM4-80GB), or by compute capability and SM "
                         "count. Same as ridgeline import --gpu."));

    auto* form = new QFormLayout;
    form->addRow(tr("Traces:"), files);
    form->addRow(tr("Save session as:"), outputRow);
    form->addRow(tr("GPU:"), m_gpu);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ImportDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ImportDialog::reject);
    const auto updateOk
        = [this] { m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_output->text().trimmed().isEmpty()); };
    connect(m_output, &QLineEdit::textChanged, this, updateOk);
    updateOk();
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    resize(560, sizeHint().height());
}

QString ImportDialog::output() const
{
    return m_output->text().trimmed();
}

void ImportDialog::setOutput(const QString& path)
{
    m_output->setText(path);
}

QString ImportDialog::gpuName() const
{
    return m_gpu->currentText().trimmed();
}

void ImportDialog::setGpuName(const QString& name)
{
    m_gpu->setEditText(name);
}

QString ImportDialog::suggestedOutput(const QString& firstInput)
{
    if (firstInput.isEmpty())
        return {};
    const QFileInfo info(firstInput);
    return info.dir().filePath(QString::fromStdString(core::sessionNameFor(info.fileName().toStdString())));
}

void ImportDialog::accept()
{
    if (output().isEmpty())
        return;
    if (QFileInfo::exists(output())
        && QMessageBox::question(this, tr("Replace Session?"),
               tr("%1 already exists. Replace it with the imported session?").arg(output()))
            != QMessageBox::Yes)
        return;
    QDialog::accept();
}

void ImportDialog::browse()
{
    // accept() asks before replacing an existing session, so the file dialog does not ask too.
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Save Imported Session As"), output(),
        QStringLiteral("Ridgeline sessions (*.ridge);;All files (*)"), nullptr, QFileDialog::DontConfirmOverwrite);
    if (!chosen.isEmpty())
        m_output->setText(chosen);
}

} // namespace ridgeline::ui

#include "moc_importdialog.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)
