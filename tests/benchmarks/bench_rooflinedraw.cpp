// SPDX-License-Identifier: MIT
// Roofline view redraw with 100 k kernel points (the target: under 100 ms), offscreen,
// into a QImage. The points are synthetic (made here, not measured). For comparison, the same
// number of points in a plain Qt Charts QScatterSeries, the way the view does not draw them.
// Results and command: docs/PERFORMANCE.md, "Roofline view".
#include "common/selectionmodel.h"
#include "qtbench.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/analysis/rooflinechart.h"
#include "roofline/rooflineview.h"

#include <QChart>
#include <QChartView>
#include <QImage>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <benchmark/benchmark.h>
#include <cmath>
#include <memory>

namespace {

using namespace ridgeline;

constexpr int kPoints = 100'000;
constexpr int kWidth = 1200, kHeight = 800;

// 100 k synthetic kernels on one H100-like device: intensities 0.01..1000 FLOP/B, rates below the
// roof, verdicts cycling, time shares adding up to 1 (a few large, most tiny).
ui::SessionDocumentPtr syntheticDocument()
{
    auto doc = std::make_shared<ui::SessionDocument>();
    doc->path = QStringLiteral("synthetic");
    doc->report.meta["source"] = "synthetic benchmark data; not measured";
    doc->ceilings = {
        { 0, "DRAM", 3.35e12, "B/s", core::CeilingSource::Datasheet, "synthetic" },
        { 0, "L2", 12e12, "B/s", core::CeilingSource::Datasheet, "synthetic" },
        { 0, "FP32", 67e12, "FLOP/s", core::CeilingSource::Datasheet, "synthetic" },
        { 0, "FP64", 34e12, "FLOP/s", core::CeilingSource::Datasheet, "synthetic" },
        { 0, "FP16_tensor", 990e12, "FLOP/s", core::CeilingSource::Datasheet, "synthetic" },
    };
    const core::VerdictClass verdicts[] = { core::VerdictClass::ComputeBound, core::VerdictClass::MemoryBound, core::VerdictClass::LatencyBound,
        core::VerdictClass::Unknown };
    std::uint64_t state = 12345;
    auto random = [&] { // 0..1, a fixed LCG so every run draws the same points
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
    };
    double shares = 0;
    auto& rows = doc->report.kernels;
    rows.resize(kPoints);
    for (int i = 0; i < kPoints; ++i) {
        auto& r = rows[static_cast<std::size_t>(i)];
        r.nameId = i;
        r.name = "synthetic_kernel_" + std::to_string(i);
        r.deviceName = "synthetic GPU";
        r.launches = 1;
        r.shareOfKernelTime = i < 10 ? 0.05 : std::pow(random(), 4);
        shares += r.shareOfKernelTime;
        const double intensity = std::pow(10.0, -2 + 5 * random());
        const double roof = std::min(67e12, 3.35e12 * intensity);
        auto& a = r.analysis;
        a.hasCounters = true;
        a.verdict = verdicts[i % 4];
        a.reason = "synthetic point";
        a.flops = 1e9;
        a.flopsByPrecision[core::Resource::FP32] = 1e9;
        a.achievedFlopsPerS = roof * (0.02 + 0.95 * random());
        a.intensity[core::Resource::DRAM] = intensity;
        a.bytesByLevel[core::Resource::DRAM] = 1e9 / intensity;
    }
    for (auto& r : rows)
        r.shareOfKernelTime /= shares;
    return doc;
}

const ui::SessionDocumentPtr& document()
{
    static const ui::SessionDocumentPtr doc = syntheticDocument();
    return doc;
}

void render(QWidget& view, QImage& image)
{
    image.fill(Qt::white);
    QPainter painter(&image);
    view.render(&painter);
}

std::unique_ptr<ui::RooflineView> shownView()
{
    auto view = std::make_unique<ui::RooflineView>(nullptr);
    view->resize(kWidth, kHeight);
    view->show();
    QApplication::processEvents();
    return view;
}

// Core's view-model alone (ceilings, ridges, 100 k points, axes): the part of setDocument without Qt.
void BM_RooflineViewModel(benchmark::State& state)
{
    const auto& doc = *document();
    std::size_t points = 0;
    for (auto _ : state) {
        const auto chart = core::buildRooflineChart(doc.ceilings, doc.report.kernels);
        points = chart.points.size();
        benchmark::DoNotOptimize(chart.axes);
    }
    state.counters["points"] = static_cast<double>(points);
}
BENCHMARK(BM_RooflineViewModel)->Unit(benchmark::kMillisecond)->UseRealTime();

// Setting the document (view-model, markers) and rendering the whole chart.
void BM_RooflineSetAndRender(benchmark::State& state)
{
    auto view = shownView();
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        view->setDocument(nullptr);
        view->setDocument(document());
        render(*view, image);
    }
    state.counters["points"] = static_cast<double>(view->chartModel().points.size());
}
BENCHMARK(BM_RooflineSetAndRender)->Unit(benchmark::kMillisecond)->UseRealTime();

// A redraw of the chart with its 100 k points (what a repaint, hover highlight or resize costs).
void BM_RooflineRedraw(benchmark::State& state)
{
    auto view = shownView();
    view->setDocument(document());
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state)
        render(*view, image);
    state.counters["points"] = static_cast<double>(view->chartModel().points.size());
}
BENCHMARK(BM_RooflineRedraw)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same points in one Qt Charts QScatterSeries (one QGraphicsItem per point), replace()d at
// once, OpenGL off: why the view draws its points in its own item. Argument: number of points.
void BM_QtScatterSeriesSetAndRender(benchmark::State& state)
{
    const auto n = static_cast<std::size_t>(state.range(0));
    QList<QPointF> points;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& r = document()->report.kernels[i];
        points.append({ r.analysis.intensity.at(core::Resource::DRAM), *r.analysis.achievedFlopsPerS });
    }
    QChartView view;
    auto *x = new QLogValueAxis, *y = new QLogValueAxis;
    view.chart()->addAxis(x, Qt::AlignBottom);
    view.chart()->addAxis(y, Qt::AlignLeft);
    x->setRange(1e-2, 1e3);
    y->setRange(1e9, 1e15);
    auto* series = new QScatterSeries;
    series->setUseOpenGL(false);
    series->setMarkerSize(8);
    view.chart()->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    view.resize(kWidth, kHeight);
    view.show();
    QApplication::processEvents();
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        series->clear();
        series->replace(points);
        render(view, image);
    }
}
BENCHMARK(BM_QtScatterSeriesSetAndRender)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Iterations(1) // about a minute at 100 k points
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

int main(int argc, char** argv)
{
    return ridgeline::testing::runQtBenchmarks(argc, argv);
}
