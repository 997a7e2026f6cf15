// SPDX-License-Identifier: MIT
// The shape models against TraceLens's own reference reports (issue 33): for every row of
// tests/data/tracelens-h100/<trace>_reference/unified_perf_summary.csv (AMD-AGI/TraceLens at
// 171dd74, MIT; see tests/data/README.md) that TraceLens models, our FLOPs per call are within 1 %
// of its GFLOPS and our bytes within 10 % of its `Data Moved (MB)` (MiB); the rows it leaves
// unmodelled in a family the issue lists get a model from us.
#include "ridgeline/core/analysis/shapemodel.h"
#include "testutil.h"
#include "tracelensrows.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ridgeline::core;
using ridgeline::testing::pythonTupleToJson;
using ridgeline::testing::traceLensRows;

namespace {

void checkAgainstTraceLens(const std::string& trace, std::size_t expectedRows, std::size_t expectedModelled)
{
    const auto rows = traceLensRows(trace);
    ASSERT_EQ(rows.size(), expectedRows);
    std::size_t modelled = 0;
    for (const auto& row : rows) {
        SCOPED_TRACE(row.name + " " + row.dims);
        const auto m = modelOperator(OperatorCall { row.name, row.dims, row.types, row.concrete });
        if (row.modelled) {
            ++modelled;
            ASSERT_TRUE(m.work.has_value()) << m.reason;
            const double flops = row.gflops * 1e9;
            const double bytes = row.mib * 1048576.0;
            EXPECT_LE(std::fabs(m.work->flops - flops), 0.01 * flops)
                << "ours " << m.work->flops << ", TraceLens " << flops;
            EXPECT_LE(std::fabs(m.work->bytes - bytes), 0.10 * bytes)
                << "ours " << m.work->bytes << ", TraceLens " << bytes;
        } else if (row.name == "aten::cat") {
            // A TensorList's element type is not in the trace: a reason, and a model once it is given.
            EXPECT_FALSE(m.work.has_value());
            EXPECT_NE(m.reason.find("TensorList"), std::string::npos) << m.reason;
            std::string types = row.types;
            types.replace(types.find("\"TensorList\""), 12, "\"c10::BFloat16\"");
            EXPECT_TRUE(modelOperator(OperatorCall { row.name, row.dims, types, row.concrete }).work.has_value());
        } else {
            // gelu, tanh, all, index_select, eq, _local_scalar_dense: families the issue lists.
            EXPECT_TRUE(m.work.has_value()) << m.reason;
        }
    }
    EXPECT_EQ(modelled, expectedModelled);
}

} // namespace

TEST(ShapeModelTraceLens, PythonTuplesBecomeTheTracesJson)
{
    EXPECT_EQ(pythonTupleToJson("((768,), (788, 768), (768, 768), (), ())"), "[[768], [788, 768], [768, 768], [], []]");
    EXPECT_EQ(pythonTupleToJson("(((4, 1, 768), (4, 196, 768)), ())"), "[[[4, 1, 768], [4, 196, 768]], []]");
    EXPECT_EQ(pythonTupleToJson("('c10::BFloat16', 'Scalar')"), R"(["c10::BFloat16", "Scalar"])");
    EXPECT_EQ(pythonTupleToJson("('', '[16, 16]', 'False', '(1,)')"), R"x(["", "[16, 16]", "False", "(1,)"])x");
    EXPECT_EQ(pythonTupleToJson("((4, 768),)"), "[[4, 768]]");
}

TEST(ShapeModelTraceLens, BertSmallRowsAgree)
{
    // 16 rows; TraceLens models 8 (addmm ×4, SDPA, layer_norm, add, add_); not gelu ×2, all,
    // index_select ×3, _local_scalar_dense, eq.
    checkAgainstTraceLens("gaunernst_bert-small-uncased__1016001", 16, 8);
}

TEST(ShapeModelTraceLens, VitRowsAgree)
{
    // 12 rows; TraceLens models 9 (addmm ×4, convolution, SDPA, layer_norm, add ×2); not gelu, cat, tanh.
    checkAgainstTraceLens("Falconsai_nsfw_image_detection__1016002", 12, 9);
}
