// SPDX-License-Identifier: MIT
#include "aboutdialog.h"

#include "ridgeline/core/version.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <QIcon>
#include <QMessageBox>
#include <algorithm>
#include <vector>

namespace ridgeline::ui {

namespace {

QString aboutTr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::AboutDialog", text);
}

QString escaped(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString sessionProvenance(const SessionDocument& document)
{
    const auto& meta = document.report.meta;
    const auto value = [&meta](const char* key) {
        const auto it = meta.find(key);
        return it == meta.end() ? std::string() : it->second;
    };
    QString rows;
    const auto row = [&rows](const QString& label, const QString& html) {
        if (!html.isEmpty())
            rows += QStringLiteral("<tr><td style=\"white-space:nowrap\"><b>%1</b></td><td>%2</td></tr>")
                        .arg(label, html);
    };
    row(aboutTr("File"), QFileInfo(document.path).fileName().toHtmlEscaped());
    row(aboutTr("Source"), escaped(value("source")));
    row(aboutTr("Origin"), escaped(value("origin")));
    // "origin.*" keys: the usual ones in reading order, then any others.
    const std::vector<std::string> known { "origin.project", "origin.files", "origin.commit", "origin.licence",
        "origin.note" };
    std::vector<std::string> keys;
    for (const auto& key : known) {
        if (meta.count(key))
            keys.push_back(key);
    }
    for (const auto& [key, text] : meta) {
        if (key.starts_with("origin.") && std::find(known.begin(), known.end(), key) == known.end())
            keys.push_back(key);
    }
    for (const auto& key : keys) {
        QString label = QString::fromStdString(key.substr(7));
        label[0] = label[0].toUpper();
        row(label.toHtmlEscaped(), escaped(meta.at(key)));
    }
    row(aboutTr("Status"), escaped(value("status")));
    row(aboutTr("Created"), escaped(value("created_at")));
    row(aboutTr("Written by"),
        value("tool_version").empty() ? QString() : aboutTr("Ridgeline ") + escaped(value("tool_version")));
    for (const auto& w : document.warnings) {
        QString examples;
        for (const auto& e : w.examples)
            examples += QStringLiteral("<br>e.g. ") + escaped(e);
        row(aboutTr("Warning"), QStringLiteral("%1: %2%3").arg(escaped(w.what)).arg(w.count).arg(examples));
    }
    if (value("source") == "fixture")
        row(aboutTr("Note"), aboutTr("Synthetic data written by the test suite, not a measurement."));
    return QStringLiteral("<h4>%1</h4><table cellspacing=\"4\">%2</table>").arg(aboutTr("This session"), rows);
}

} // namespace

QString aboutText(const SessionDocument* document)
{
    QString text = QStringLiteral("<h3>Ridgeline %1</h3><p>%2</p><p>%3</p>")
                       .arg(QString::fromLatin1(core::kVersion),
                           aboutTr("GPU kernel profiler and roofline analyser: which kernels cost the time, what bounds "
                              "each one, and how far it is from the roof."),
                           aboutTr("Qt %1 (built with %2). MIT licence.")
                               .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)));
    if (document)
        text += sessionProvenance(*document);
    else
        text += aboutTr("<p>No session is open. File ▸ Open Example opens the bundled examples: real A100 kernels "
                   "from Nsight Compute on the roofline (<i>a100-linear-ncu</i>) and a real two-rank PyTorch trace "
                   "on the timeline (<i>pytorch-two-ranks</i>). Each states its origin in its metadata; open one "
                   "to see it here.</p>");
    return text;
}

void showAboutDialog(QWidget* parent, const SessionDocumentPtr& document)
{
    auto* box = new QMessageBox(
        QMessageBox::NoIcon, aboutTr("About Ridgeline"), aboutText(document.get()), QMessageBox::Ok, parent);
    box->setTextFormat(Qt::RichText);
    if (!QGuiApplication::windowIcon().isNull())
        box->setIconPixmap(QGuiApplication::windowIcon().pixmap(64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace ridgeline::ui
