// SPDX-License-Identifier: MIT
// shortKernelName: the function name as Nsight Compute's "Function Name" shows it, on hand-written
// edge cases and on every distinct kernel name of real Nsight Compute CSVs and Kineto traces.
#include "gunzip.h"
#include "ridgeline/core/model/demangle.h"

#include <cctype>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

using ridgeline::core::demangle;
using ridgeline::core::shortKernelName;

namespace {

const std::string kData = RIDGELINE_TEST_DATA_DIR;

bool isIdentifier(const std::string& s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0)
        return false;
    for (char c : s) {
        if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_')
            return false;
    }
    return true;
}

// What a short name of a real kernel must be, checked without the scanner's own logic: a plain
// identifier that the full name holds as a whole word, right before its template arguments or
// parameters, or at its end (a name without either), or as a launch wrapper's argument.
void expectPlausibleShortName(const std::string& full)
{
    const std::string demangled = demangle(full);
    const std::string s = shortKernelName(full);
    ASSERT_TRUE(isIdentifier(s)) << "short: '" << s << "' of " << full;
    if (demangled == full && full.starts_with("_Z")) { // __cxa_demangle rejects it: a source name, <length><name>
        EXPECT_NE(full.find(std::to_string(s.size()) + s), std::string::npos) << s << " in " << full;
        return;
    }
    bool found = false;
    for (auto at = demangled.find(s); at != std::string::npos && !found; at = demangled.find(s, at + 1)) {
        const bool wordStart = at == 0
            || !(std::isalnum(static_cast<unsigned char>(demangled[at - 1])) != 0 || demangled[at - 1] == '_');
        const auto end = at + s.size();
        const bool wordEnd = end == demangled.size() || demangled[end] == '<' || demangled[end] == '('
            || demangled[end] == '>' || demangled[end] == ',';
        found = wordStart && wordEnd;
    }
    EXPECT_TRUE(found) << "'" << s << "' is not a word of " << demangled;
}

std::vector<std::string> lines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::set<std::string> kinetoKernelNames(const std::string& path)
{
    const auto doc = nlohmann::json::parse(ridgeline::testing::gunzipFile(path));
    std::set<std::string> names;
    for (const auto& e : doc["traceEvents"]) {
        if (e.value("ph", "") == "X" && e.value("cat", "") == "kernel")
            names.insert(e.value("name", ""));
    }
    return names;
}

} // namespace

TEST(ShortKernelName, DropsReturnTypeScopeTemplateArgumentsAndParameters)
{
    // From the leleucas dropout CSV (an A100 Nsight Compute export); the brief's own example.
    EXPECT_EQ(shortKernelName("void at::native::(anonymous namespace)::fused_dropout_kernel_vec<double, double, "
                              "unsigned int, 1, 4>(at::cuda::detail::TensorInfo<double, unsigned int>, "
                              "at::cuda::detail::TensorInfo<double, unsigned int>, unsigned int, double, "
                              "at::PhiloxCudaState)"),
        "fused_dropout_kernel_vec");
    EXPECT_EQ(shortKernelName("ampere_sgemm_128x64_tn"), "ampere_sgemm_128x64_tn");
    EXPECT_EQ(shortKernelName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
        "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t");
    EXPECT_EQ(
        shortKernelName("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>(float*, "
                        "float const*, int, int, int)"),
        "softmax_warp_forward");
    // EDG's spelling, as Nsight Compute writes it: <unnamed>, (int)5, "T2 *".
    EXPECT_EQ(
        shortKernelName("void <unnamed>::softmax_warp_forward<float, float, float, (int)5, (bool)0, (bool)0>(T2 *, "
                        "const T1 *, int, int, int, const bool *, int, bool)"),
        "softmax_warp_forward");
    // A return type that is itself a template with a parenthesised argument.
    EXPECT_EQ(shortKernelName("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, "
                              "float, float, false, true, true, false, 7, cublasGemvParams<float> >(cublasGemvParams<"
                              "float>)"),
        "kernel");
    EXPECT_EQ(shortKernelName("unsigned int ns::count<int>(int)"), "count");
    EXPECT_EQ(shortKernelName("void f[abi:cxx11]<int>(int)"), "f");
    EXPECT_EQ(shortKernelName("void ns::f(int) [clone .isra.0]"), "f");
    EXPECT_EQ(shortKernelName("triton_poi_fused_add_cos_sin_0"), "triton_poi_fused_add_cos_sin_0");
}

TEST(ShortKernelName, DemanglesFirst)
{
    EXPECT_EQ(shortKernelName("_Z9vectorAddPKfS0_Pfi"), "vectorAdd");
    // void at::native::(anonymous namespace)::fused_kernel<float>(float) (c++filt).
    EXPECT_EQ(shortKernelName("_ZN2at6native12_GLOBAL__N_112fused_kernelIfEEvT_"), "fused_kernel");
    // A mangled name cut short, which __cxa_demangle rejects: its source names still give the name.
    EXPECT_EQ(demangle("_ZN2at6native12_GLOBAL__N_112fused_kernelIf"), "_ZN2at6native12_GLOBAL__N_112fused_kernelIf");
    EXPECT_EQ(shortKernelName("_ZN2at6native12_GLOBAL__N_112fused_kernelIf"), "fused_kernel");
    EXPECT_EQ(shortKernelName("_ZN2at6native12_GLOBAL__N_112fused_ker"), "fused_ker");
    EXPECT_EQ(shortKernelName("_ZN7cutlass6KernelI49cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_al"),
        "cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_al");
    // main::{lambda()#1}::operator()() const
    EXPECT_EQ(shortKernelName("_ZZ4mainENKUlvE_clEv"), "main::lambda#1::operator()");
    EXPECT_EQ(shortKernelName("_Z"), "_Z");
}

TEST(ShortKernelName, LambdasAndOperatorsKeepTheirClassOrFunction)
{
    EXPECT_EQ(shortKernelName("void ns::Functor<int>::operator()<float>(float) const"), "Functor::operator()");
    EXPECT_EQ(
        shortKernelName("std::vector<int, std::allocator<int> >::operator[](unsigned long)"), "vector::operator[]");
    EXPECT_EQ(shortKernelName("foo(int)::{lambda(int)#1}::operator()(int) const"), "foo::lambda#1::operator()");
    EXPECT_EQ(shortKernelName("foo()::'lambda'(int)::operator()(int) const"), "foo::lambda::operator()");
    // EDG: "operator ()" with a space, lambdas as [lambda(...) (instance N)].
    EXPECT_EQ(shortKernelName("at::native::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::["
                              "lambda(float, float) (instance 1)]"),
        "sum_functor::operator()::lambda#1");
    EXPECT_EQ(shortKernelName("bool ns::Key::operator<(ns::Key const&) const"), "Key::operator<");
    EXPECT_EQ(shortKernelName("ns::Stream& ns::operator<< <int>(ns::Stream&, int)"), "ns::operator<<");
}

TEST(ShortKernelName, TemplateArgumentsThatLookLikeBrackets)
{
    // '<' and '>' of operators, comparisons and function types inside the template arguments.
    EXPECT_EQ(shortKernelName("void sortk<&ns::Key::operator<, 3>(int)"), "sortk");
    EXPECT_EQ(shortKernelName("void shiftk<&ns::operator>><int>, 1>(int)"), "shiftk");
    EXPECT_EQ(shortKernelName("void cmpk<std::less<int>, (3>2)>(int)"), "cmpk");
    EXPECT_EQ(shortKernelName("void applyk<void (*)(int), 4>(int)"), "applyk");
    EXPECT_EQ(shortKernelName("void applyk<void (ns::A::*)(int) const, &ns::f>(int)"), "applyk");
    EXPECT_EQ(shortKernelName("void k<(a)>(int) const"), "k");
    // Lambdas inside the template arguments (Kineto, GCC spelling).
    EXPECT_EQ(
        shortKernelName("void at::native::_scatter_gather_elementwise_kernel<128, 4, "
                        "at::native::_cuda_scatter_gather_internal_kernel<true, float>::operator()<at::native::"
                        "ReduceAdd>(at::TensorIterator&, long, long, long, at::native::ReduceAdd const&)::{lambda("
                        "int)#1}>(int, at::native::ReduceAdd)"),
        "_scatter_gather_elementwise_kernel");
}

TEST(ShortKernelName, NamesCutShortKeepWhatTheyHave)
{
    // Cut inside the template arguments, inside the parameters, and inside a nested template.
    EXPECT_EQ(
        shortKernelName("void at::native::elementwise_kernel<(int)128, (int)2, void at::native::gpu_kernel_impl<"),
        "elementwise_kernel");
    EXPECT_EQ(shortKernelName("void at::native::reduce_kernel<512, 1>(at::native::ReduceOp<float, at::native::Mean"),
        "reduce_kernel");
    EXPECT_EQ(shortKernelName("void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<float, (int)4, "
                              "void at::native::templates::cuda::uniform_and_transform<float, float, (unsigned long)4, "
                              "at::CUDAGeneratorImpl *, void at::native::templates::cuda::uniform_kernel<at::CUDAGen"),
        "distribution_elementwise_grid_stride_kernel");
    EXPECT_EQ(shortKernelName("void at::native::"), "native");
}

TEST(ShortKernelName, CutlassLaunchWrappersAreNamedByTheirOperator)
{
    EXPECT_EQ(shortKernelName("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_align4>("
                              "cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_align4::Params)"),
        "cutlass_80_tensorop_s1688gemm_128x128_32x5_nn_align4");
    EXPECT_EQ(
        shortKernelName("void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, "
                        "int, int>, void> >(cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, "
                        "void>::Params)"),
        "GemmUniversal");
    // A wrapper around a built-in type says nothing more: it stays "Kernel".
    EXPECT_EQ(shortKernelName("void cutlass::Kernel<int>(int*)"), "Kernel");
    EXPECT_EQ(shortKernelName("_ZN7cutlass6KernelIiEEvPi"), "Kernel");
}

TEST(ShortKernelName, TextThatIsNoCppNameComesBackUnchanged)
{
    EXPECT_EQ(shortKernelName("Memcpy HtoD (Pinned -> Device)"), "Memcpy HtoD (Pinned -> Device)");
    EXPECT_EQ(shortKernelName("broken>(name"), "broken>(name");
    EXPECT_EQ(shortKernelName("(int)5"), "(int)5");
    EXPECT_EQ(shortKernelName("<unnamed kernel>"), "<unnamed kernel>");
    EXPECT_EQ(shortKernelName(""), "");
}

// Every distinct "Kernel Name" of the three leleucas Nsight Compute CSVs (A100, PyTorch operators;
// tests/data/names/README.md): 12 + 1 + 25 names, all with a plain identifier as short name.
TEST(ShortKernelName, EveryKernelOfRealNsightComputeCsvs)
{
    const auto names = lines(kData + "/names/ncu-leleucas-kernel-names.txt");
    ASSERT_EQ(names.size(), 38u);
    for (const auto& name : names)
        expectPlausibleShortName(name);
    // Spot checks, read off the names by hand.
    auto shortOf = [&](std::size_t line) { return shortKernelName(names.at(line - 1)); };
    EXPECT_EQ(shortOf(4), "softmax_warp_forward"); // void <unnamed>::softmax_warp_forward<float, ...
    EXPECT_EQ(shortOf(6), "elementwise_kernel"); // void at::native::elementwise_kernel<(int)128, ... [lambda(int) ...
    EXPECT_EQ(shortOf(8), "reduce_kernel"); // ...::operator ()(at::TensorIterator &)::[lambda(float, float) ...
    EXPECT_EQ(shortOf(13), "fused_dropout_kernel_vec");
    EXPECT_EQ(shortOf(23), "unrolled_elementwise_kernel"); // ...{lambda()#3}::operator()() const...
    EXPECT_EQ(shortOf(25), "gemmSN_TN_kernel_64addr");
    EXPECT_EQ(shortOf(38), "splitKreduce_kernel");
}

// Every distinct kernel name of two real Kineto traces (tests/data/kineto, README there): the
// short name is a plain identifier, a word of the full name.
TEST(ShortKernelName, EveryKernelOfRealKinetoTraces)
{
    for (const char* file :
        { "/kineto/trace_filter/sampled_rank-0.json.gz", "/kineto/nccl_parser_config/nccl_data.json.gz" }) {
        const auto names = kinetoKernelNames(kData + file);
        ASSERT_GT(names.size(), 60u) << file; // 194 and 70 distinct names (a plain JSON reader, python3 -c)
        std::size_t plain = 0;
        std::set<std::string> shortNames;
        for (const auto& name : names) {
            expectPlausibleShortName(name);
            const auto s = shortKernelName(name);
            plain += !s.empty() && s.find_first_of("<(") == std::string::npos;
            shortNames.insert(s);
        }
        EXPECT_EQ(plain, names.size()) << file;
        // Short names group the template instances of one kernel: fewer of them than full names.
        EXPECT_LT(shortNames.size(), names.size()) << file;
    }
}

TEST(ShortKernelName, KinetoSpotChecks)
{
    const auto names = kinetoKernelNames(kData + "/kineto/nccl_parser_config/nccl_data.json.gz");
    std::set<std::string> shortNames;
    for (const auto& name : names)
        shortNames.insert(shortKernelName(name));
    // _ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolution... (mangled in the trace)
    EXPECT_TRUE(shortNames.contains("ImplicitGemmConvolution"));
    // void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_tn_align4>(...::Params)
    EXPECT_TRUE(shortNames.contains("cutlass_80_tensorop_s1688gemm_256x64_16x4_tn_align4"));
    EXPECT_TRUE(shortNames.contains("ncclKernel_AllReduce_RING_LL_Sum_float"));
    EXPECT_FALSE(shortNames.contains("Kernel"));
}
