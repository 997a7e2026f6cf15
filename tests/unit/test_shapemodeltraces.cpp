// SPDX-License-Identifier: MIT
// The shape models on every operator call of the real Kineto traces in tests/data/kineto (issue
// 33): each call with recorded shapes gets a finite, non-negative model or a reason, a communication
// operator says so (commnames.h), and any other name without a model gets exactly "no model for <name>".
#include "gunzip.h"
#include "ridgeline/core/analysis/shapemodel.h"
#include "ridgeline/core/model/commnames.h"
#include "testutil.h"

#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

using namespace ridgeline::core;

TEST(ShapeModelTraces, EveryRecordedCallGetsAModelOrAReason)
{
    namespace fs = std::filesystem;
    std::size_t calls = 0;
    std::size_t modelled = 0;
    std::size_t communication = 0;
    for (const auto& entry : fs::recursive_directory_iterator(ridgeline::testing::testDataPath("kineto"))) {
        const auto path = entry.path().string();
        if (!entry.is_regular_file() || path.size() < 8 || path.substr(path.size() - 8) != ".json.gz")
            continue;
        SCOPED_TRACE(path);
        const auto doc = nlohmann::json::parse(ridgeline::testing::gunzipFile(path), nullptr, false);
        if (doc.is_discarded() || !doc.is_object() || !doc.contains("traceEvents"))
            continue;
        for (const auto& ev : doc["traceEvents"]) {
            if (!ev.is_object() || ev.value("cat", "") != "cpu_op" || !ev.contains("args")
                || !ev["args"].contains("Input Dims"))
                continue;
            const auto& args = ev["args"];
            const std::string name = ev.value("name", "");
            const std::string dims = args["Input Dims"].dump();
            const std::string types = args.contains("Input type") ? args["Input type"].dump() : "";
            const std::string concrete = args.contains("Concrete Inputs") ? args["Concrete Inputs"].dump() : "";
            const auto m = modelOperator(OperatorCall { name, dims, types, concrete });
            ++calls;
            if (m.work) {
                ++modelled;
                EXPECT_TRUE(std::isfinite(m.work->flops) && m.work->flops >= 0) << name << " " << dims;
                EXPECT_TRUE(std::isfinite(m.work->bytes) && m.work->bytes >= 0) << name << " " << dims;
                EXPECT_FALSE(m.work->formula.empty());
            } else if (!hasShapeModel(name) && communicationOperator(name)) {
                // c10d::allreduce_, record_param_comms, symm_mem::multimem_all_reduce_ (vllm-b200)
                EXPECT_EQ(m.reason.rfind(name + " is communication (", 0), 0u) << m.reason;
                ++communication;
            } else if (!hasShapeModel(name)) {
                EXPECT_EQ(m.reason, "no model for " + name);
            } else {
                EXPECT_EQ(m.reason.rfind(name + ": ", 0), 0u) << m.reason;
            }
        }
    }
    // The traces hold thousands of recorded calls, hundreds of them GEMMs, copies and elementwise.
    EXPECT_GT(calls, 10000u);
    EXPECT_GT(modelled, 1000u);
    EXPECT_GT(communication, 70u); // the vLLM trace's 73 symm_mem calls among them
}
