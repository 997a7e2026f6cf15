// SPDX-License-Identifier: MIT
// Writes the test fixture sessions: `make_fixture small OUT`, `make_fixture synthetic OUT N` or
// `make_fixture gpuops OUT N [RANKS]` (N GPU ops: kernels, copies and memsets, gpuopsfixture.h).
#include "fixtures.h"
#include "gpuopsfixture.h"

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::cerr << "usage: make_fixture small OUT | synthetic OUT KERNELS [DEVICES] | gpuops OUT OPS [RANKS]\n";
        return 1;
    }
    const std::string kind = argv[1];
    const std::string out = argv[2];
    ridgeline::core::Status status;
    if (kind == "small") {
        status = ridgeline::testing::writeSmallFixture(out);
    } else if (kind == "synthetic" && argc >= 4) {
        ridgeline::testing::SyntheticSpec spec;
        spec.kernels = std::atoll(argv[3]);
        if (argc >= 5)
            spec.devices = std::atoi(argv[4]);
        status = ridgeline::testing::writeSyntheticSession(out, spec);
    } else if (kind == "gpuops" && argc >= 4) {
        ridgeline::testing::GpuOpsSpec spec;
        spec.ops = std::atoll(argv[3]);
        if (argc >= 5)
            spec.ranks = std::atoi(argv[4]);
        status = ridgeline::testing::writeSyntheticGpuOps(out, spec);
    } else {
        std::cerr << "unknown fixture kind: " << kind << '\n';
        return 1;
    }
    if (status.hasError()) {
        std::cerr << status.error().message << '\n';
        return 2;
    }
    return 0;
}
