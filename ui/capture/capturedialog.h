// SPDX-License-Identifier: MIT
#pragma once

#include "capturerunner.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace ridgeline::ui {

// New Capture: what to run and what to collect, then the launcher's live output and progress.
// Emits sessionCaptured(path) when a session was written (also a partial one after Stop).
class CaptureDialog final : public QDialog {
    Q_OBJECT
public:
    explicit CaptureDialog(QWidget* parent = nullptr);

    CaptureJob job() const;
    void setJob(const CaptureJob& job);
    CaptureRunner* runner() const { return m_runner; }
    // The error shown to the user (the launcher's words); empty when none.
    QString errorText() const;
    QString log() const;

    // Validates the form and starts the capture; false (with the reason shown) when invalid.
    bool startCapture();
    void stopCapture();

Q_SIGNALS:
    void sessionCaptured(const QString& path);

protected:
    void reject() override;

private:
    QWidget* createForm();
    void showProgress(const core::progress::Event& event);
    void showFinished(const CaptureOutcome& outcome);
    void showError(const QString& message);
    void setRunning(bool running);
    void saveSettings() const;
    void loadSettings();

    CaptureRunner* m_runner;
    QLineEdit* m_program;
    QLineEdit* m_arguments;
    QLineEdit* m_workingDirectory;
    QPlainTextEdit* m_environment;
    QComboBox* m_metrics;
    QLineEdit* m_customMetrics;
    QLineEdit* m_kernelRegex;
    QSpinBox* m_launchSkip;
    QSpinBox* m_launchCount;
    QLineEdit* m_nvtxRange;
    QLineEdit* m_output;
    QWidget* m_form;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_error;
    QPlainTextEdit* m_log;
    QPushButton* m_start;
    QPushButton* m_stop;
    QDialogButtonBox* m_buttons;
};

} // namespace ridgeline::ui
