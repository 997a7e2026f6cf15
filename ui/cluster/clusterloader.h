// SPDX-License-Identifier: MIT
// Reads the rank summaries of many sessions off the GUI thread (core::gatherRankSummaries: stored
// summaries where the sessions have them, else each session read in turn and dropped) and reduces
// them into the cluster report. No launch is kept: a thousand ranks cost their summaries only.
#pragma once

#include "ridgeline/core/cluster/clusterreport.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <memory>

namespace ridgeline::ui {

struct ClusterDocument {
    QStringList inputs; // as given: files and folders
    core::ClusterReport report;
    std::size_t sessions = 0; // the .ridge files found
    std::size_t fromStored = 0; // sessions whose stored summaries were used
};
using ClusterDocumentPtr = std::shared_ptr<const ClusterDocument>;

class ClusterLoader final : public QObject {
    Q_OBJECT
public:
    explicit ClusterLoader(QObject* parent = nullptr);
    ~ClusterLoader() override;

    // Starts reading `inputs` (.ridge files and folders of them); a load still running finishes
    // first and its result is dropped.
    void load(const QStringList& inputs);
    bool isLoading() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void progressChanged(int permille, const QString& what);
    void loaded(const ridgeline::ui::ClusterDocumentPtr& document);
    void failed(const QString& message);

private:
    struct Outcome {
        ClusterDocumentPtr document;
        QString error;
    };
    QFutureWatcher<Outcome> m_watcher;
    int m_generation = 0;
};

} // namespace ridgeline::ui
