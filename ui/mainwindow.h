// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

namespace ridgeline::core {
struct KernelReport;
}

namespace ridgeline::ui {

class KernelPage;
class SessionLoader;

// Assembles pages, menus and actions; owns no analysis.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void openSession(const QString& path);
    KernelPage* kernelPage() const { return m_kernelPage; }

Q_SIGNALS:
    void sessionOpened(const QString& path);
    void sessionFailed(const QString& path, const QString& message);

private:
    void chooseSession();
    void showSession(const QString& path, const core::KernelReport& report);
    void showError(const QString& path, const QString& message);

    KernelPage* m_kernelPage;
    SessionLoader* m_loader;
};

} // namespace ridgeline::ui
