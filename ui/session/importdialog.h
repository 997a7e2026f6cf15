// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QStringList>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;

namespace ridgeline::ui {

// The second step of File ▸ Import Trace… (and of traces opened or dropped): where to save the
// session, and which GPU the traces ran on where they do not say (Nsight Compute CSVs often do
// not): the field is `ridgeline import --gpu`, matched as loosely ("A100-PCIE-40GB",
// "NVIDIA A100-SXM4-80GB"). Left empty, devices are named as the files name them.
class ImportDialog final : public QDialog {
    Q_OBJECT
public:
    // `knownGpus`: the catalogue's names, offered in the GPU field (the app wires them in).
    ImportDialog(const QStringList& inputs, const QStringList& knownGpus, QWidget* parent = nullptr);

    QString output() const;
    void setOutput(const QString& path);
    QString gpuName() const; // trimmed; empty: as the files name it
    void setGpuName(const QString& name);

    // "run.json.gz" -> "run.ridge" beside it.
    static QString suggestedOutput(const QString& firstInput);

    void accept() override;

private:
    void browse();

    QLineEdit* m_output;
    QComboBox* m_gpu;
    QDialogButtonBox* m_buttons;
};

} // namespace ridgeline::ui
