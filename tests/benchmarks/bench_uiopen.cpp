// SPDX-License-Identifier: MIT
// Desktop app: session open to first paint with 1 M kernels (issue 6 target: under 1 s), the
// whole open, its stages, the per-launch table over 1 M launches, and the resident memory of the open app per
// GPU op (target: under 100 bytes). Synthetic data (tests/support/fixtures.h, meta source
// "fixture"). Runs offscreen. Results and commands: docs/PERFORMANCE.md, "Desktop app".
#include "fixtures.h"
#include "kernels/kernelfilterbar.h"
#include "kernels/kernelfilterproxy.h"
#include "kernels/kernelpage.h"
#include "kernels/launchmodel.h"
#include "kernels/launchrows.h"
#include "qtbench.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timeline.h"
#include "session/documentreader.h"
#include "tempdir.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QEventLoop>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTimer>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace ridgeline;

constexpr std::int64_t kKernels = 1'000'000;

// RIDGELINE_BENCH_SESSION=FILE measures an existing session instead (e.g. the 1 M, 10 M and 100 M-op
// sessions of `make_fixture gpuops`, docs/PERFORMANCE.md "Sessions of 100 million GPU operations");
// the per-op figures then count its GPU ops (kernels, copies, memsets, collectives).
const char* givenSession()
{
    const char* given = std::getenv("RIDGELINE_BENCH_SESSION");
    return given && *given ? given : nullptr;
}

// Written by a child process, so that the writer's heap does not count as the app's memory.
const std::string& sessionPath()
{
    static testing::TempDir dir;
    static const std::string path = [] {
        if (givenSession())
            return std::string(givenSession());
        const std::string p = dir.file("ui-1m.ridge");
        const pid_t child = fork();
        if (child == 0) {
            testing::SyntheticSpec spec;
            spec.kernels = kKernels;
            spec.devices = 2;
            spec.kernelNames = 200;
            _exit(testing::writeSyntheticSession(p, spec).ok() ? 0 : 1);
        }
        int status = 0;
        if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            std::abort();
        return p;
    }();
    return path;
}

// The GPU ops of the session measured: kKernels, or those of RIDGELINE_BENCH_SESSION.
double gpuOps()
{
    static const double ops = [] {
        if (!givenSession())
            return static_cast<double>(kKernels);
        auto reader = core::SessionReader::open(sessionPath());
        if (reader.hasError())
            std::abort();
        auto counts = reader.value().counts();
        if (counts.hasError())
            std::abort();
        const auto& c = counts.value();
        return static_cast<double>(c.kernels + c.memcpys + c.memsets + c.commOps);
    }();
    return ops;
}

double residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

// Runs the event loop until `signal` of `object` fires (or 30 minutes pass: a 100 M-op session).
template <typename Object, typename Signal> void waitFor(Object* object, Signal signal)
{
    QEventLoop loop;
    QObject::connect(object, signal, &loop, &QEventLoop::quit);
    QTimer::singleShot(1'800'000, &loop, &QEventLoop::quit);
    loop.exec();
}

// Open to first paint: the worker reads the summaries, the table is filled, the window paints
// (the timeline analysis goes on in the worker: `complete` waits for it too).
void BM_OpenToFirstPaint(benchmark::State& state)
{
    const bool complete = state.range(0) != 0;
    const QString path = QString::fromStdString(sessionPath());
    for (auto _ : state) {
        state.PauseTiming();
        auto window = std::make_unique<ui::MainWindow>();
        window->show();
        QApplication::processEvents();
        state.ResumeTiming();
        window->openSession(path);
        if (complete)
            waitFor(window.get(), &ui::MainWindow::sessionOpened);
        else
            waitFor(window.get(), &ui::MainWindow::tableReady);
        window->repaint(); // synchronous paint of the whole window, table included
        state.PauseTiming();
        if (window->findChild<ui::KernelPage*>(QStringLiteral("kernelPage"))->view()->model()->rowCount() == 0)
            state.SkipWithError("the table is empty");
        window.reset(); // waits for the worker when only the table stage was awaited
        state.ResumeTiming();
    }
    state.counters["gpu_ops"] = gpuOps();
}
BENCHMARK(BM_OpenToFirstPaint)
    ->ArgName("complete")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(givenSession() ? 1 : 5); // a given session may hold 100 M ops: once, and --benchmark_repetitions

// The stages of readSessionDocument, each on its own: the open of the reader, then `stage`.
template <typename Stage> void timeStage(benchmark::State& state, Stage stage)
{
    for (auto _ : state) {
        auto reader = core::SessionReader::open(sessionPath());
        auto result = stage(reader.value());
        benchmark::DoNotOptimize(result);
    }
}

void BM_Stage_SummarizeKernels(benchmark::State& state)
{
    timeStage(state, [](core::SessionReader& reader) { return core::summarizeKernels(reader); });
}
BENCHMARK(BM_Stage_SummarizeKernels)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

void BM_Stage_AnalyzeTimeline(benchmark::State& state)
{
    timeStage(state, [](core::SessionReader& reader) { return core::analyzeSessionTimeline(reader); });
}
BENCHMARK(BM_Stage_AnalyzeTimeline)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// The per-launch rows listed from the document's timeline (the worker's part of the table).
void BM_LaunchRowsFromTimeline(benchmark::State& state)
{
    auto doc = ui::readSessionDocument(QString::fromStdString(sessionPath()));
    auto document = std::make_shared<const ui::SessionDocument>(std::move(doc).value());
    for (auto _ : state) {
        auto rows = ui::launchRows(*document->timeline, document->report.kernels);
        if (!rows.ok() || rows.value().size() != static_cast<std::size_t>(kKernels))
            state.SkipWithError("not every launch is listed");
        benchmark::DoNotOptimize(rows);
    }
}
BENCHMARK(BM_LaunchRowsFromTimeline)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// Per-launch table: list the 1 M launches from the timeline, fill the model, show and paint it.
void BM_LaunchTableToFirstPaint(benchmark::State& state)
{
    auto doc = ui::readSessionDocument(QString::fromStdString(sessionPath()));
    auto document = std::make_shared<const ui::SessionDocument>(std::move(doc).value());
    for (auto _ : state) {
        state.PauseTiming();
        auto page = std::make_unique<ui::KernelPage>();
        page->resize(1200, 700);
        page->setDocument(document);
        page->show();
        QApplication::processEvents();
        state.ResumeTiming();
        page->setGrouping(ui::KernelGrouping::PerLaunch);
        waitFor(page.get(), &ui::KernelPage::launchesLoaded);
        page->repaint();
        state.PauseTiming();
        if (page->view()->model()->rowCount() != kKernels)
            state.SkipWithError("not every launch is listed");
        page.reset();
        state.ResumeTiming();
    }
}
BENCHMARK(BM_LaunchTableToFirstPaint)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// Filter and sort 1 M launches (the filter bar's text box, a header click).
void BM_LaunchTableFilterAndSort(benchmark::State& state)
{
    auto doc = ui::readSessionDocument(QString::fromStdString(sessionPath()));
    auto document = std::make_shared<const ui::SessionDocument>(std::move(doc).value());
    auto rows = ui::launchRows(*document->timeline, document->report.kernels);
    ui::LaunchModel model;
    model.setLaunches(document, std::move(rows).value());
    ui::KernelFilterProxy proxy;
    proxy.setSortInSource(true);
    proxy.setSourceModel(&model);
    int round = 0;
    for (auto _ : state) {
        proxy.setTextFilter(round % 2 ? QStringLiteral("kernel_1") : QString());
        proxy.sort(round % 3 == 0 ? ui::LaunchModel::DurationColumn
                : round % 3 == 1  ? ui::LaunchModel::NameColumn
                                  : ui::LaunchModel::StartColumn,
            Qt::DescendingOrder);
        benchmark::DoNotOptimize(proxy.rowCount());
        ++round;
    }
}
BENCHMARK(BM_LaunchTableFilterAndSort)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(6);

// Resident memory of the open app per GPU op: one open of the 1 M-kernel session in a fresh
// process (run alone with --benchmark_filter=Memory: earlier runs leave freed heap behind).
void BM_MemoryOfOpenApp(benchmark::State& state)
{
    const QString path = QString::fromStdString(sessionPath());
    double before = 0, opened = 0, launches = 0, timelineBytes = 0;
    for (auto _ : state) {
        auto window = std::make_unique<ui::MainWindow>();
        window->show();
        QApplication::processEvents();
        before = residentBytes();
        window->openSession(path);
        waitFor(window.get(), &ui::MainWindow::sessionOpened);
        window->repaint();
        QApplication::processEvents();
        opened = residentBytes();
        timelineBytes = static_cast<double>(window->document()->timeline->memoryBytes());
        auto* kernels = window->findChild<ui::KernelPage*>(QStringLiteral("kernelPage"));
        kernels->setGrouping(ui::KernelGrouping::PerLaunch);
        waitFor(kernels, &ui::KernelPage::launchesLoaded);
        window->repaint();
        launches = residentBytes();
        kernels->setGrouping(ui::KernelGrouping::ByName);
    }
    const double ops = gpuOps();
    state.counters["rss_before_MB"] = before / 1e6;
    state.counters["rss_open_MB"] = opened / 1e6;
    state.counters["open_B_per_op"] = (opened - before) / ops;
    state.counters["timeline_B_per_op"] = timelineBytes / ops; // of open_B_per_op
    state.counters["launch_table_B_per_op"] = (launches - opened) / ops;
    state.counters["with_launch_table_B_per_op"] = (launches - before) / ops;
    state.counters["whole_process_B_per_op"] = launches / ops;
}
BENCHMARK(BM_MemoryOfOpenApp)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

} // namespace

int main(int argc, char** argv)
{
    if (!givenSession())
        std::fprintf(stderr, "bench_uiopen: writing the synthetic 1 M-kernel session…\n");
    (void)sessionPath(); // before any thread exists: it forks
    return ridgeline::testing::runQtBenchmarks(argc, argv);
}
