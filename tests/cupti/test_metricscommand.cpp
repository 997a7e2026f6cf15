// SPDX-License-Identifier: MIT
// `ridgeline metrics` on GA100, GH100, AD102 and GB100, checked against the metric sets and
// against pass counts computed here with the CUPTI host API (hostobject.h, not the collector's
// CounterConfig that the command uses). Host API only: no GPU, no libcuda.
#include "clirun.h"
#include "hostobject.h"
#include "ridgeline/collectors/metrics/metricroles.h"
#include "ridgeline/collectors/metrics/metricsets.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ridgeline::collectors;
using namespace ridgeline::testing;
using json = nlohmann::json;

namespace {

std::size_t passesOf(const std::string& chip, const std::vector<std::string>& metrics)
{
    HostObject host(chip);
    EXPECT_EQ(host.initResult(), CUPTI_SUCCESS) << chip;
    EXPECT_EQ(host.addMetrics(metrics), CUPTI_SUCCESS) << chip;
    std::size_t n = 0;
    EXPECT_EQ(host.passes(n), CUPTI_SUCCESS) << chip;
    return n;
}

json metricsJson(const std::vector<std::string>& args, RunResult& r)
{
    std::vector<std::string> all { "metrics", "--format", "json" };
    all.insert(all.end(), args.begin(), args.end());
    r = runCli(all);
    return json::parse(r.out, nullptr, false);
}

class MetricsCommand : public ::testing::TestWithParam<std::string> { };

} // namespace

TEST_P(MetricsCommand, ListsTheSetWithTheHostApisPassCounts)
{
    const std::string chip = GetParam();
    for (const std::string setName : { "roofline", "full" }) {
        RunResult r;
        const auto doc = metricsJson({ "--chip", chip, "--set", setName }, r);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        ASSERT_FALSE(doc.is_discarded()) << r.out;
        const auto set = metricSet(chip, setName);
        ASSERT_TRUE(set);
        const auto groups = configGroups(*set);
        EXPECT_EQ(doc["chip"], chip);
        EXPECT_EQ(doc["family"], set->family);
        ASSERT_EQ(doc["config_images"].size(), groups.size());
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const auto& image = doc["config_images"][g];
            std::vector<std::string> names;
            for (const auto& m : image["metrics"]) {
                names.push_back(m["name"]);
                EXPECT_EQ(m["feeds"], metricFeeds(m["name"].get<std::string>()));
            }
            EXPECT_EQ(names, groups[g]);
            EXPECT_EQ(image["counters"], isSystemUnitMetric(groups[g].front()) ? "system" : "gpu");
            EXPECT_EQ(image["passes"].get<std::size_t>(), passesOf(chip, groups[g])) << chip << ' ' << setName;
        }
    }
}

TEST_P(MetricsCommand, AListOfNamesIsPricedAndABadNameIsNamed)
{
    const std::string chip = GetParam();
    RunResult r;
    const auto doc = metricsJson({ "--chip", chip, "--set", "dram__bytes.sum,gpu__time_duration.sum" }, r);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    ASSERT_EQ(doc["config_images"].size(), 1u);
    EXPECT_EQ(doc["config_images"][0]["passes"].get<std::size_t>(),
        passesOf(chip, { "dram__bytes.sum", "gpu__time_duration.sum" }));
    const auto bad = runCli({ "metrics", "--chip", chip, "--set", "dram__bytes.sum,no__such_counter.sum" });
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("ridgeline: the " + chip + " chip has no metric no__such_counter.sum"), std::string::npos)
        << bad.err;
    const auto none = metricsJson({ "--chip", chip, "--set", "none" }, r);
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_TRUE(none["config_images"].empty());
}

INSTANTIATE_TEST_SUITE_P(Chips, MetricsCommand, ::testing::Values("GA100", "GH100", "AD102", "GB100"));

TEST(MetricsCommandFeeds, EachTensorTypeFeedsItsOwnResource)
{
    // GH100 counts FP16 sources as "fp16"; GB100 FP8 only with FP4/FP6 (metricnames.h).
    EXPECT_EQ(metricFeeds("sm__ops_path_tensor_src_fp16.sum"), "FP16 tensor operations (counted)");
    EXPECT_EQ(metricFeeds("sm__ops_path_tensor_src_bf16_dst_fp32.sum"), "BF16 tensor operations (counted)");
    EXPECT_EQ(metricFeeds("sm__ops_path_tensor_src_tf32_dst_fp32.sum"), "TF32 tensor operations (counted)");
    EXPECT_EQ(metricFeeds("sm__ops_path_tensor_src_fp4_fp6_fp8_dst_fp32.sum"), "FP8 tensor operations (counted)");
    EXPECT_EQ(metricFeeds("sm__ops_path_tensor_src_int8.sum"), "INT8 tensor operations (counted)");
    EXPECT_EQ(metricFeeds("sm__ops_path_tensor_src_fp64.sum.peak_sustained"),
        "FP64 tensor counter ceiling (operations per cycle)");
    EXPECT_NE(metricFeeds("sm__inst_executed_pipe_tensor.sum").find("estimated"), std::string::npos);
    EXPECT_EQ(metricFeeds("sm__sass_thread_inst_executed_op_hfma_pred_on.sum"), "FP16 FLOPs (4 per HFMA2)");
    EXPECT_EQ(metricFeeds("lts__t_bytes.sum.peak_sustained"), "L2 counter ceiling (bytes per L2 cycle)");
    EXPECT_EQ(
        metricFeeds("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "detail only (not read by the roofline)");
}

TEST(MetricsCommandErrors, UnknownChipAndNoLocalGpu)
{
    const auto unknown = runCli({ "metrics", "--chip", "XY123" });
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_NE(unknown.err.find("--chip XY123: not a chip Ridgeline has metric sets for (GV100,"), std::string::npos)
        << unknown.err;
    RunOptions options;
    options.env.push_back("RIDGELINE_LIBCUDA=/nonexistent/libcuda.so.1");
    const auto local = runCli({ "metrics" }, options);
    EXPECT_EQ(local.exitCode, 5);
    EXPECT_NE(
        local.err.find("ridgeline: no local GPU to describe: the NVIDIA driver is not installed"), std::string::npos)
        << local.err;
    EXPECT_TRUE(local.out.empty());
}
