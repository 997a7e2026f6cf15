// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace ridgeline::core {

// The demangled C++ name, or the input unchanged when it is not a mangled name.
std::string demangle(std::string_view mangled);

// The name a person scans in a table, as Nsight Compute's "Function Name" shows it: the function's
// own name without scope, template arguments, parameters and return type. Mangled names (_Z...)
// are demangled first.
//   "void at::native::(anonymous namespace)::fused_dropout_kernel_vec<double, 1, 4>(TensorInfo<double>, ...)"
//     -> "fused_dropout_kernel_vec";  "ampere_sgemm_128x64_tn" stays as it is.
// A name cut short inside its template arguments or parameters keeps what it has. Two choices go
// beyond Nsight Compute, so that rows stay apart: a lambda or operator is named with its class or
// function ("sum_functor::operator()", "gpu_kernel_impl::lambda#1"), and CUTLASS's launch wrappers
// (Kernel<Op>, Kernel2<Op>, device_kernel<Op>) by the operator they launch. Text that is not a C++
// name ("Memcpy HtoD (Pinned -> Device)") comes back unchanged.
std::string shortKernelName(std::string_view name);

} // namespace ridgeline::core
