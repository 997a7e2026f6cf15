// SPDX-License-Identifier: MIT
// A small synthetic Kineto trace (written by hand, labelled as such) with what the real traces in
// tests/data lack: modules from python_function and Module Hierarchy, input shapes and types, a
// two-frame call stack, and an NCCL kernel launched from a thread without operators. Values by
// hand: gemm is launched (correlation 7) by aten::addmm inside aten::linear inside
// nn.Module: Linear_0 inside nn.Module: Net_0; gemm2 (8) by aten::mm of module top.Net.fc2; the
// NCCL kernel (9) from thread 2, which has no operator.
#pragma once

namespace ridgeline::testing {

inline constexpr const char* kSyntheticOperatorTrace = R"({"traceEvents": [
  {"ph":"X","cat":"python_function","name":"nn.Module: Net_0","pid":1,"tid":1,"ts":100,"dur":100},
  {"ph":"X","cat":"python_function","name":"nn.Module: Linear_0","pid":1,"tid":1,"ts":101,"dur":40},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":102,"dur":30,
   "args":{"External id":11,"Input Dims":[[8, 4], [2, 4]],"Input type":["float", "float"],"Call stack":"model.py(3): forward;train.py(9): step"}},
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":103,"dur":20,"args":{"External id":12,"Sequence number":5}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":104,"dur":5,"args":{"correlation":7,"External id":12}},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":150,"dur":30,"args":{"External id":13,"Module Hierarchy":"top.Net.fc2"}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":151,"dur":5,"args":{"correlation":8,"External id":13}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":2,"ts":160,"dur":5,"args":{"correlation":9}},
  {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":110,"dur":10,"args":{"correlation":7,"device":0,"stream":7}},
  {"ph":"X","cat":"kernel","name":"gemm2","pid":0,"tid":7,"ts":160,"dur":20,"args":{"correlation":8,"device":0,"stream":7}},
  {"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":8,"ts":170,"dur":5,"args":{"correlation":9,"device":0,"stream":8}}
]})";

} // namespace ridgeline::testing
