// SPDX-License-Identifier: MIT
// The operator shape models (issue 33): FLOPs, bytes, pipe and precision of one call per family,
// every expected number worked out by hand here, and malformed or hostile texts giving a reason.
#include "ridgeline/core/analysis/shapemodel.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ridgeline::core;

namespace {

OperatorModel shapeModel(
    std::string_view name, std::string_view dims, std::string_view types, std::string_view concrete = "")
{
    return modelOperator(OperatorCall { name, dims, types, concrete });
}

// The work of a call that must have a model.
OperatorWork shapeWork(
    std::string_view name, std::string_view dims, std::string_view types, std::string_view concrete = "")
{
    const auto m = shapeModel(name, dims, types, concrete);
    EXPECT_TRUE(m.work.has_value()) << name << ": " << m.reason;
    return m.work.value_or(OperatorWork {});
}

void expectReason(const OperatorModel& m, std::string_view contains)
{
    EXPECT_FALSE(m.work.has_value());
    EXPECT_NE(m.reason.find(contains), std::string::npos) << "reason: " << m.reason;
}

} // namespace

TEST(ShapeModel, AddmmExampleOfTheIssue)
{
    // bias (512) + (141×512)·(512×512), bf16:
    // FLOPs 2·141·512·512 + 141·512 = 73,924,608 + 72,192 = 73,996,800
    // bytes (512 + 141·512 + 512·512 + 141·512)·2 = (512 + 72,192 + 262,144 + 72,192)·2 = 814,080
    const auto w = shapeWork("aten::addmm", "[[512], [141, 512], [512, 512], [], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])", R"(["", "", "", "1", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 73996800);
    EXPECT_DOUBLE_EQ(w.bytes, 814080);
    EXPECT_EQ(w.pipe, Resource::BF16Tensor);
    EXPECT_EQ(w.family, "GEMM");
    EXPECT_EQ(w.precision, "bf16");
    EXPECT_NE(w.formula.find("M=141, N=512, K=512"), std::string::npos) << w.formula;
    EXPECT_NE(w.formula.find("73996800"), std::string::npos) << w.formula;
    EXPECT_NE(w.formula.find("814080"), std::string::npos) << w.formula;
    // The in-place addmm_ has the same model.
    EXPECT_TRUE(hasShapeModel("aten::addmm_"));
}

TEST(ShapeModel, GemmFamily)
{
    // mm fp32 (64×32)·(32×16): 2·64·16·32 = 65,536 FLOPs; (2,048 + 512 + 1,024)·4 = 14,336 bytes.
    auto w = shapeWork("aten::mm", "[[64, 32], [32, 16]]", R"(["float", "float"])");
    EXPECT_DOUBLE_EQ(w.flops, 65536);
    EXPECT_DOUBLE_EQ(w.bytes, 14336);
    EXPECT_EQ(w.pipe, Resource::FP32); // no TF32 by default
    EXPECT_NE(w.formula.find("TF32"), std::string::npos);

    // bmm fp16 (8,16,32)·(8,32,4): 8·2·16·4·32 = 32,768; 8·(512 + 128 + 64)·2 = 11,264 bytes.
    w = shapeWork("aten::bmm", "[[8, 16, 32], [8, 32, 4]]", R"(["c10::Half", "c10::Half"])");
    EXPECT_DOUBLE_EQ(w.flops, 32768);
    EXPECT_DOUBLE_EQ(w.bytes, 11264);
    EXPECT_EQ(w.pipe, Resource::FP16Tensor);

    // baddbmm with a (8,16,4) input: + 8·16·4 = 512 FLOPs, + 512·2 = 1,024 bytes.
    w = shapeWork("aten::baddbmm", "[[8, 16, 4], [8, 16, 32], [8, 32, 4], [], []]",
        R"(["c10::Half", "c10::Half", "c10::Half", "Scalar", "Scalar"])", R"(["", "", "", "1", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 33280);
    EXPECT_DOUBLE_EQ(w.bytes, 12288);

    // matmul (2,1,16,32) @ (3,32,8) fp32: batch (2,3) = 6, M=16, N=8, K=32: 6·2·16·8·32 = 49,152;
    // bytes (1,024 + 768 + 6·16·8 = 768)·4 = 10,240.
    w = shapeWork("aten::matmul", "[[2, 1, 16, 32], [3, 32, 8]]", R"(["float", "float"])");
    EXPECT_DOUBLE_EQ(w.flops, 49152);
    EXPECT_DOUBLE_EQ(w.bytes, 10240);

    // linear (4,10,32)·(64,32)ᵀ + (64) bf16: M=40, N=64, K=32: 163,840 + 2,560 = 166,400 FLOPs;
    // bytes (1,280 + 2,048 + 64 + 2,560)·2 = 11,904.
    w = shapeWork(
        "aten::linear", "[[4, 10, 32], [64, 32], [64]]", R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])");
    EXPECT_DOUBLE_EQ(w.flops, 166400);
    EXPECT_DOUBLE_EQ(w.bytes, 11904);

    // _scaled_mm fp8 (128×64)·(64×256), two float 0-dim scales, out_dtype 15 (bf16):
    // 2·128·256·64 = 4,194,304 FLOPs; bytes 8,192 + 16,384 + 4 + 4 + 128·256·2 = 90,120.
    w = shapeWork("aten::_scaled_mm", "[[128, 64], [64, 256], [], [], [], [], [], []]",
        R"(["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "", "", "Scalar", "Scalar"])",
        R"(["", "", "", "", "", "", "15", "False"])");
    EXPECT_DOUBLE_EQ(w.flops, 4194304);
    EXPECT_DOUBLE_EQ(w.bytes, 90120);
    EXPECT_EQ(w.pipe, Resource::FP8Tensor);
    EXPECT_EQ(w.precision, "fp8");

    // mv (100×50)·(50) fp32: 2·100·50 = 10,000 FLOPs; (5,000 + 50 + 100)·4 = 20,600 bytes; CUDA cores.
    w = shapeWork("aten::mv", "[[100, 50], [50]]", R"(["float", "float"])");
    EXPECT_DOUBLE_EQ(w.flops, 10000);
    EXPECT_DOUBLE_EQ(w.bytes, 20600);
    EXPECT_EQ(w.pipe, Resource::FP32);
    // addmv with a (100) bias: + 100 FLOPs, + 400 bytes.
    w = shapeWork("aten::addmv", "[[100], [100, 50], [50], [], []]",
        R"(["float", "float", "float", "Scalar", "Scalar"])", R"(["", "", "", "1", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 10100);
    EXPECT_DOUBLE_EQ(w.bytes, 21000);

    // An int8 GEMM runs on the INT8 tensor cores.
    w = shapeWork("aten::mm", "[[16, 16], [16, 16]]", R"(["signed char", "signed char"])");
    EXPECT_EQ(w.pipe, Resource::INT8Tensor);

    expectReason(shapeModel("aten::mm", "[[64, 32], [31, 16]]", R"(["float", "float"])"), "inner dimensions");
    expectReason(shapeModel("aten::bmm", "[[8, 16], [8, 32, 4]]", R"(["float", "float"])"), "3-D");
}

TEST(ShapeModel, AttentionForwardCausalAndLayouts)
{
    // SDPA (B=2, H=4, N=128, d=64) bf16: 4·2·4·128·128·64 = 33,554,432 FLOPs, causal half 16,777,216;
    // bytes Q, K, V, O: 4·(2·4·128·64 = 65,536)·2 = 524,288.
    const std::string qkv = "[[2, 4, 128, 64], [2, 4, 128, 64], [2, 4, 128, 64], [], [], [], []]";
    const std::string types
        = R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar", "Scalar", "Scalar"])";
    auto w = shapeWork(
        "aten::_scaled_dot_product_flash_attention", qkv, types, R"(["", "", "", "0.", "False", "False", "0.125"])");
    EXPECT_DOUBLE_EQ(w.flops, 33554432);
    EXPECT_DOUBLE_EQ(w.bytes, 524288);
    EXPECT_EQ(w.pipe, Resource::BF16Tensor);
    EXPECT_EQ(w.family, "attention");
    w = shapeWork(
        "aten::_scaled_dot_product_flash_attention", qkv, types, R"(["", "", "", "0.", "True", "False", "0.125"])");
    EXPECT_DOUBLE_EQ(w.flops, 16777216);
    EXPECT_NE(w.formula.find("causal"), std::string::npos);

    // aten::_flash_attention_forward takes (B, N, H, d): the same call as (2, 128, 4, 64).
    w = shapeWork("aten::_flash_attention_forward",
        "[[2, 128, 4, 64], [2, 128, 4, 64], [2, 128, 4, 64], [], [], [], [], [], [], [], [], [], [], [], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "", "", "", ""])",
        R"(["", "", "", "", "", "128", "128", "0.", "True", "False", "0.125", "", "", "", ""])");
    EXPECT_DOUBLE_EQ(w.flops, 16777216);
    EXPECT_DOUBLE_EQ(w.bytes, 524288);

    // flash_attn::_flash_attn_forward (q, k, v, dropout_p, softmax_scale, causal, ...), (B, N, H, d).
    w = shapeWork("flash_attn::_flash_attn_forward", "[[2, 128, 4, 64], [2, 128, 4, 64], [2, 128, 4, 64], [], [], []]",
        R"(["c10::Half", "c10::Half", "c10::Half", "Scalar", "Scalar", "Scalar"])",
        R"(["", "", "", "0.", "0.125", "False"])");
    EXPECT_DOUBLE_EQ(w.flops, 33554432);
    EXPECT_EQ(w.pipe, Resource::FP16Tensor);

    // The composite scaled_dot_product_attention: is_causal is its sixth argument.
    w = shapeWork("aten::scaled_dot_product_attention",
        "[[1, 8, 141, 64], [1, 8, 141, 64], [1, 8, 141, 64], [], [], [], [], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "Scalar", "Scalar", "", "Scalar"])",
        R"(["", "", "", "", "0.", "False", "", "False"])");
    EXPECT_DOUBLE_EQ(w.flops, 40716288); // 4·8·141·141·64

    // Without Concrete Inputs is_causal is unknown: no guess.
    expectReason(shapeModel("aten::_scaled_dot_product_flash_attention", qkv, types), "is_causal");
    // Causal with Nq ≠ Nkv: the masked share depends on the alignment.
    expectReason(shapeModel("aten::_scaled_dot_product_flash_attention",
                     "[[2, 4, 16, 64], [2, 4, 128, 64], [2, 4, 128, 64], [], [], [], []]", types,
                     R"(["", "", "", "0.", "True", "False", "0.125"])"),
        "Nq");
}

TEST(ShapeModel, AttentionBackwardAndVarlen)
{
    // Flash backward with grouped-query attention: Q (1, 8, 64, 32), K and V (1, 2, 64, 32), fp16.
    // 2.5 × forward: B·Hq·Nq·Nkv·(6·dqk + 4·dv) = 8·64·64·(192 + 128) = 10,485,760
    // (forward 8·64·64·4·32 = 4,194,304; × 2.5 = 10,485,760), plus the sums of dK and dV over the
    // 4 query heads sharing a K/V head: B·Nkv·(dv + dqk)·(4 − 1) = 64·64·3 = 12,288 → 10,498,048.
    // Bytes: Q, K, V read (16,384 + 4,096 + 4,096), dO read (16,384), dQ, dK, dV written (24,576):
    // 65,536 elements · 2 = 131,072.
    const auto w = shapeWork("aten::_scaled_dot_product_flash_attention_backward",
        "[[1, 8, 64, 32], [1, 8, 64, 32], [1, 2, 64, 32], [1, 2, 64, 32], [1, 8, 64, 32], [1, 8, 64], [], [], [], [], "
        "[], [], [], [], []]",
        R"(["c10::Half", "c10::Half", "c10::Half", "c10::Half", "c10::Half", "float", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "long int", "long int", "Scalar"])",
        R"(["", "", "", "", "", "", "", "", "64", "64", "0.", "False", "", "", "0.17677669529663687"])");
    EXPECT_DOUBLE_EQ(w.flops, 10498048);
    EXPECT_DOUBLE_EQ(w.bytes, 131072);

    // Varlen flash-attn: 3 sequences packed in 300 tokens, the longest 150: as TraceLens estimates,
    // one of 150 and two of (300 − 150)/2 = 75: 4·H·d·(150² + 2·75²) = 4·4·64·(22,500 + 11,250)
    // = 1,024·33,750 = 34,560,000 FLOPs. Bytes (4 tensors of 300·4·64 = 76,800)·2 = 614,400.
    const auto v = shapeWork("flash_attn::_flash_attn_varlen_forward",
        "[[300, 4, 64], [300, 4, 64], [300, 4, 64], [4], [4], [], [], [], [], [], []]",
        R"(["c10::Half", "c10::Half", "c10::Half", "int", "int", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])",
        R"(["", "", "", "", "", "150", "150", "0.", "0.125", "False", "-1"])");
    EXPECT_DOUBLE_EQ(v.flops, 34560000);
    EXPECT_DOUBLE_EQ(v.bytes, 614400);
    EXPECT_NE(v.formula.find("estimate"), std::string::npos);
}

TEST(ShapeModel, ConvolutionForward)
{
    // conv2d (1,3,8,8) * (4,3,3,3) + bias (4), stride 1, padding 1, fp32: output (1,4,8,8) = 256;
    // FLOPs 256·2·27 + 256 = 14,080; bytes (192 + 108 + 4 + 256)·4 = 2,240. fp32 convolutions use
    // TF32 tensor cores by PyTorch's default (cudnn.allow_tf32).
    auto w = shapeWork("aten::conv2d", "[[1, 3, 8, 8], [4, 3, 3, 3], [4], [], [], [], []]",
        R"(["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar"])",
        R"(["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 14080);
    EXPECT_DOUBLE_EQ(w.bytes, 2240);
    EXPECT_EQ(w.pipe, Resource::TF32Tensor);
    EXPECT_EQ(w.family, "convolution");
    // _convolution with allow_tf32=False: the FP32 pipe.
    w = shapeWork("aten::_convolution", "[[1, 3, 8, 8], [4, 3, 3, 3], [4], [], [], [], [], [], [], [], [], [], []]",
        R"(["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])",
        R"(["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "False", "False", "True", "False"])");
    EXPECT_DOUBLE_EQ(w.flops, 14080);
    EXPECT_EQ(w.pipe, Resource::FP32);

    // cudnn_convolution (padding before stride, no bias): (2,8,9,9) * (8,2,3,3), groups 4, stride 2,
    // bf16: output (2,8,4,4) = 256 (⌊(9 − 2 − 1)/2⌋ + 1 = 4); FLOPs 256·2·(2·3·3) = 9,216;
    // bytes (1,296 + 144 + 256)·2 = 3,392.
    w = shapeWork("aten::cudnn_convolution", "[[2, 8, 9, 9], [8, 2, 3, 3], [], [], [], [], [], [], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "Scalar", "Scalar", "Scalar", "Scalar"])",
        R"(["", "", "[0, 0]", "[2, 2]", "[1, 1]", "4", "False", "False", "True"])");
    EXPECT_DOUBLE_EQ(w.flops, 9216);
    EXPECT_DOUBLE_EQ(w.bytes, 3392);
    EXPECT_EQ(w.pipe, Resource::BF16Tensor);

    // Transposed: (1,4,5,5) with weight (4,2,3,3), stride 2, padding 1, output_padding 1:
    // output (1,2,10,10) = 200 ((5 − 1)·2 − 2 + 2 + 1 + 1 = 10); FLOPs per input element
    // 100·2·18 = 3,600; bytes (100 + 72 + 200)·4 = 1,488.
    w = shapeWork("aten::convolution", "[[1, 4, 5, 5], [4, 2, 3, 3], [], [], [], [], [], [], []]",
        R"(["float", "float", "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"])",
        R"(["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "True", "[1, 1]", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 3600);
    EXPECT_DOUBLE_EQ(w.bytes, 1488);

    expectReason(shapeModel("aten::conv2d", "[[1, 3, 8, 8], [4, 3, 3, 3], [4], [], [], [], []]",
                     R"(["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar"])"),
        "Concrete Inputs");
}

TEST(ShapeModel, ConvolutionBackward)
{
    // The conv2d above, backward, output_mask [True, True, True]: each of grad input and grad
    // weight costs the forward convolution, 256·54 = 13,824; the bias gradient 256: 27,904 FLOPs.
    // Bytes: grad input reads grad_output 1,024 + weight 432 and writes input 768 (2,224), grad
    // weight the same (2,224), grad bias reads grad_output 1,024 and writes 4·4 = 16: 5,488.
    const std::string dims = "[[1, 4, 8, 8], [1, 3, 8, 8], [4, 3, 3, 3], [], [], [], [], [], [], [], []]";
    const std::string types
        = R"(["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar", "ScalarList"])";
    auto w = shapeWork("aten::convolution_backward", dims, types,
        R"(["", "", "", "[4]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[True, True, True]"])");
    EXPECT_DOUBLE_EQ(w.flops, 27904);
    EXPECT_DOUBLE_EQ(w.bytes, 5488);
    // Only the weight's gradient (a first layer): 13,824 FLOPs and 2,224 bytes.
    w = shapeWork("aten::convolution_backward", dims, types,
        R"(["", "", "", "[4]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[False, True, False]"])");
    EXPECT_DOUBLE_EQ(w.flops, 13824);
    EXPECT_DOUBLE_EQ(w.bytes, 2224);
}

TEST(ShapeModel, ElementwiseBroadcastingAndInPlace)
{
    // mul (3,1,5)·(4,1) fp32 → (3,4,5) = 60: 60 FLOPs; bytes (15 + 4 + 60)·4 = 316.
    auto w = shapeWork("aten::mul", "[[3, 1, 5], [4, 1]]", R"(["float", "float"])");
    EXPECT_DOUBLE_EQ(w.flops, 60);
    EXPECT_DOUBLE_EQ(w.bytes, 316);
    EXPECT_EQ(w.pipe, Resource::FP32);
    EXPECT_EQ(w.family, "elementwise");

    // add_ (2,3) += (3) bf16: writes self, 6 elements: 6 FLOPs; bytes (6 + 3)·2 + 6·2 = 30; the
    // CUDA-core half pipe.
    w = shapeWork(
        "aten::add_", "[[2, 3], [3], []]", R"(["c10::BFloat16", "c10::BFloat16", "Scalar"])", R"(["", "", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 6);
    EXPECT_DOUBLE_EQ(w.bytes, 30);
    EXPECT_EQ(w.pipe, Resource::FP16);
    EXPECT_NE(w.formula.find("in place"), std::string::npos);

    // gelu (10) bf16 (its approximate argument is a string): 10 FLOPs; 20 + 20 = 40 bytes.
    w = shapeWork("aten::gelu", "[[10], []]", R"(["c10::BFloat16", ""])", R"(["", ""])");
    EXPECT_DOUBLE_EQ(w.flops, 10);
    EXPECT_DOUBLE_EQ(w.bytes, 40);

    // eq (1,141) long with a Scalar: a bool result, no FLOPs: 141·8 + 141·1 = 1,269 bytes.
    w = shapeWork("aten::eq", "[[1, 141], []]", R"(["long int", "Scalar"])", R"(["", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 0);
    EXPECT_DOUBLE_EQ(w.bytes, 1269);
    EXPECT_FALSE(w.pipe.has_value());
    EXPECT_EQ(w.precision, "int64");

    // where(bool (4,1), fp32 (1,5), fp32 (4,5)) → (4,5) fp32: 20 FLOPs; 4 + 20 + 80 + 80 = 184 bytes.
    w = shapeWork("aten::where", "[[4, 1], [1, 5], [4, 5]]", R"(["bool", "float", "float"])");
    EXPECT_DOUBLE_EQ(w.flops, 20);
    EXPECT_DOUBLE_EQ(w.bytes, 184);
    EXPECT_EQ(w.precision, "fp32");

    // fp16 with bf16 promotes to fp32: 16 + 16 + 8·4 = 64 bytes.
    w = shapeWork("aten::mul", "[[8], [8]]", R"(["c10::Half", "c10::BFloat16"])");
    EXPECT_DOUBLE_EQ(w.bytes, 64);
    // A 0-dim double (a Python float) does not widen a float tensor: 4·4 + 8 + 4·4 = 40 bytes.
    w = shapeWork("aten::sub", "[[4], [], []]", R"(["float", "double", "Scalar"])");
    EXPECT_DOUBLE_EQ(w.bytes, 40);

    // threshold_backward (2048,256) fp32: 524,288 FLOPs; 3·524,288·4 = 6,291,456 bytes.
    w = shapeWork("aten::threshold_backward", "[[2048, 256], [2048, 256], []]", R"(["float", "float", "Scalar"])");
    EXPECT_DOUBLE_EQ(w.flops, 524288);
    EXPECT_DOUBLE_EQ(w.bytes, 6291456);

    // native_dropout (100) fp32, training: 100 FLOPs; 400 + 400 + a bool mask 100 = 900 bytes.
    w = shapeWork(
        "aten::native_dropout", "[[100], [], []]", R"(["float", "Scalar", "Scalar"])", R"(["", "0.1", "True"])");
    EXPECT_DOUBLE_EQ(w.flops, 100);
    EXPECT_DOUBLE_EQ(w.bytes, 900);
    // dropout in eval mode launches nothing.
    expectReason(shapeModel("aten::dropout", "[[1, 141, 512], [], []]", R"(["c10::BFloat16", "Scalar", "Scalar"])",
                     R"(["", "0.10000000000000001", "False"])"),
        "train=False");

    expectReason(shapeModel("aten::add", "[[3, 4], [5], []]", R"(["float", "float", "Scalar"])"), "broadcast");
}

TEST(ShapeModel, Norms)
{
    // layer_norm (1,141,512) bf16 over 512 (TraceLens's BERT row): E = 72,192, C = 512;
    // FLOPs 3·512 + 3·E + 3·512 + 2·E = 6·512 + 5·72,192 = 3,072 + 360,960 = 364,032;
    // bytes 2·E·2 + (2 + weight + bias + 2 running)·512·2 = 288,768 + 6,144 = 294,912.
    auto w = shapeWork("aten::layer_norm", "[[1, 141, 512], [], [512], [512], [], []]",
        R"(["c10::BFloat16", "ScalarList", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
        R"(["", "[512]", "", "", "9.9999999999999998e-13", "True"])");
    EXPECT_DOUBLE_EQ(w.flops, 364032);
    EXPECT_DOUBLE_EQ(w.bytes, 294912);
    EXPECT_EQ(w.pipe, Resource::FP16);
    EXPECT_EQ(w.family, "norm");

    // native_batch_norm (8,16,4,4) fp32 training: E = 2,048, C = 16: 48 + 6,144 + 48 + 4,096 = 10,336
    // FLOPs; bytes 2·2,048·4 + 6·16·4 = 16,384 + 384 = 16,768. In eval: 48 + 48 + 4,096 = 4,192 FLOPs,
    // 16,384 + 4·16·4 = 16,640 bytes.
    const std::string bnDims = "[[8, 16, 4, 4], [16], [16], [16], [16], [], [], []]";
    const std::string bnTypes = R"(["float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar"])";
    w = shapeWork("aten::native_batch_norm", bnDims, bnTypes, R"(["", "", "", "", "", "True", "0.1", "1e-05"])");
    EXPECT_DOUBLE_EQ(w.flops, 10336);
    EXPECT_DOUBLE_EQ(w.bytes, 16768);
    w = shapeWork("aten::native_batch_norm", bnDims, bnTypes, R"(["", "", "", "", "", "False", "0.1", "1e-05"])");
    EXPECT_DOUBLE_EQ(w.flops, 4192);
    EXPECT_DOUBLE_EQ(w.bytes, 16640);

    // native_layer_norm_backward (2,10,32) fp32 over 32, output_mask all True: E = 640, C = 32,
    // E/C = 20: FLOPs 32·(4·20 + 5·20) = 5,760; bytes grad_out 2,560 + input and grad_input 5,120 +
    // rstd 128 + weight 128 + grad weight and bias 256 = 8,192.
    w = shapeWork("aten::native_layer_norm_backward",
        "[[2, 10, 32], [2, 10, 32], [], [2, 10, 1], [2, 10, 1], [32], [32], []]",
        R"(["float", "float", "ScalarList", "float", "float", "float", "float", "ScalarList"])",
        R"(["", "", "[32]", "", "", "", "", "[True, True, True]"])");
    EXPECT_DOUBLE_EQ(w.flops, 5760);
    EXPECT_DOUBLE_EQ(w.bytes, 8192);

    // rms_norm (4,64) bf16 with a weight: E = 256, C = 64: (256/64)·(2·64 + 2) + 2·256 = 520 + 512
    // = 1,032 FLOPs; bytes 2·256·2 + 64·2 = 1,152.
    w = shapeWork("aten::rms_norm", "[[4, 64], [], [64], []]",
        R"(["c10::BFloat16", "ScalarList", "c10::BFloat16", "Scalar"])", R"(["", "[64]", "", "1e-06"])");
    EXPECT_DOUBLE_EQ(w.flops, 1032);
    EXPECT_DOUBLE_EQ(w.bytes, 1152);

    // native_group_norm (2,6,4,4) fp32 = 192 elements, C = 6: 18 + 576 + 18 + 384 = 996 FLOPs;
    // bytes 2·192·4 + 6·6·4 = 1,680.
    w = shapeWork("aten::native_group_norm", "[[2, 6, 4, 4], [6], [6], [], [], [], [], []]",
        R"(["float", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])",
        R"(["", "", "", "2", "6", "16", "3", "1e-05"])");
    EXPECT_DOUBLE_EQ(w.flops, 996);
    EXPECT_DOUBLE_EQ(w.bytes, 1680);

    expectReason(shapeModel("aten::native_batch_norm", bnDims, bnTypes), "training");
}

TEST(ShapeModel, SoftmaxAndReductions)
{
    // _softmax (4,1000) fp16: 3·4,000 = 12,000 FLOPs; 8,000 + 8,000 = 16,000 bytes; with
    // half_to_float a float output: 8,000 + 16,000 = 24,000.
    auto w = shapeWork(
        "aten::_softmax", "[[4, 1000], [], []]", R"(["c10::Half", "Scalar", "Scalar"])", R"(["", "-1", "False"])");
    EXPECT_DOUBLE_EQ(w.flops, 12000);
    EXPECT_DOUBLE_EQ(w.bytes, 16000);
    EXPECT_EQ(w.pipe, Resource::FP16);
    EXPECT_EQ(w.family, "softmax");
    w = shapeWork(
        "aten::_softmax", "[[4, 1000], [], []]", R"(["c10::Half", "Scalar", "Scalar"])", R"(["", "-1", "True"])");
    EXPECT_DOUBLE_EQ(w.bytes, 24000);
    // _softmax_backward_data (4,1000) fp32: 4·4,000 = 16,000 FLOPs; 3·16,000 = 48,000 bytes.
    w = shapeWork("aten::_softmax_backward_data", "[[4, 1000], [4, 1000], [], []]",
        R"(["float", "float", "Scalar", "Scalar"])", R"(["", "", "-1", "6"])");
    EXPECT_DOUBLE_EQ(w.flops, 16000);
    EXPECT_DOUBLE_EQ(w.bytes, 48000);

    // sum (16,32) fp32 over dim 1: 512 FLOPs; 2,048 + 16·4 = 2,112 bytes.
    w = shapeWork("aten::sum", "[[16, 32], [], [], []]", R"(["float", "ScalarList", "Scalar", ""])",
        R"(["", "[1]", "False", ""])");
    EXPECT_DOUBLE_EQ(w.flops, 512);
    EXPECT_DOUBLE_EQ(w.bytes, 2112);
    EXPECT_EQ(w.family, "reduction");
    // all (1,141) bool: no FLOPs; 141 + 1 = 142 bytes.
    w = shapeWork("aten::all", "[[1, 141]]", R"(["bool"])", R"([""])");
    EXPECT_DOUBLE_EQ(w.flops, 0);
    EXPECT_DOUBLE_EQ(w.bytes, 142);
    EXPECT_FALSE(w.pipe.has_value());
    // argmax (8,10) bf16 over dim 1: 80 FLOPs; 160 + 8·8 = 224 bytes.
    w = shapeWork(
        "aten::argmax", "[[8, 10], [], []]", R"(["c10::BFloat16", "Scalar", "Scalar"])", R"(["", "1", "False"])");
    EXPECT_DOUBLE_EQ(w.flops, 80);
    EXPECT_DOUBLE_EQ(w.bytes, 224);
    // max.dim (8,10) fp32 over dim 0: values and indices of 10: 320 + 40 + 80 = 440 bytes.
    w = shapeWork("aten::max", "[[8, 10], [], []]", R"(["float", "Scalar", "Scalar"])", R"(["", "0", "True"])");
    EXPECT_DOUBLE_EQ(w.bytes, 440);
    // linalg_vector_norm (512,8192) fp32 over everything: 4,194,304 FLOPs; 16,777,216 + 4 bytes.
    w = shapeWork("aten::linalg_vector_norm", "[[512, 8192], [], [], [], []]",
        R"(["float", "Scalar", "", "Scalar", ""])", R"(["", "2", "", "False", ""])");
    EXPECT_DOUBLE_EQ(w.flops, 4194304);
    EXPECT_DOUBLE_EQ(w.bytes, 16777220);

    expectReason(shapeModel("aten::mean", "[[16, 32], [], [], []]", R"(["float", "", "Scalar", ""])"), "not recorded");
}

TEST(ShapeModel, DataMovement)
{
    // index_select (30522,512) bf16 rows 141 (long): 141·8 + 141·512·2 read + the same written
    // = 1,128 + 144,384 + 144,384 = 289,896 bytes, no FLOPs.
    auto w = shapeWork("aten::index_select", "[[30522, 512], [], [141]]", R"(["c10::BFloat16", "Scalar", "long int"])",
        R"(["", "0", ""])");
    EXPECT_DOUBLE_EQ(w.flops, 0);
    EXPECT_DOUBLE_EQ(w.bytes, 289896);
    EXPECT_FALSE(w.pipe.has_value());
    // embedding of the same table with indices (1,141): the same bytes.
    w = shapeWork("aten::embedding", "[[30522, 512], [1, 141], [], [], []]",
        R"(["c10::BFloat16", "long int", "Scalar", "Scalar", "Scalar"])", R"(["", "", "0", "False", "False"])");
    EXPECT_DOUBLE_EQ(w.bytes, 289896);
    // gather (50) fp32 with a (100) index: 800 + 2·100·4 = 1,600 bytes.
    w = shapeWork("aten::gather", "[[50], [], [100], []]", R"(["float", "Scalar", "long int", "Scalar"])",
        R"(["", "0", "", "False"])");
    EXPECT_DOUBLE_EQ(w.bytes, 1600);
    // index (100,8) fp32 with a (30) long index on dim 0: 240 + 2·30·8·4 = 2,160 bytes.
    w = shapeWork("aten::index", "[[100, 8], [[30]]]", R"(["float", "TensorList"])", R"(["", ""])");
    EXPECT_DOUBLE_EQ(w.bytes, 2160);
    // copy_ bf16 (10,10) into fp32 (10,10): 200 + 400 = 600 bytes; _to_copy fp32 → bf16 (ScalarType 15) the same.
    w = shapeWork(
        "aten::copy_", "[[10, 10], [10, 10], []]", R"(["float", "c10::BFloat16", "Scalar"])", R"(["", "", "False"])");
    EXPECT_DOUBLE_EQ(w.bytes, 600);
    w = shapeWork("aten::_to_copy", "[[10, 10], [], [], [], [], [], []]",
        R"(["float", "Scalar", "", "", "", "Scalar", ""])", R"(["", "15", "", "", "", "False", ""])");
    EXPECT_DOUBLE_EQ(w.bytes, 600);
    EXPECT_EQ(w.family, "data movement");
    // fill_ (1000) fp32 with a Scalar: 4,000 bytes; _local_scalar_dense of a bool: 1 + 1 = 2.
    w = shapeWork("aten::fill_", "[[1000], []]", R"(["float", "Scalar"])", R"(["", "0"])");
    EXPECT_DOUBLE_EQ(w.bytes, 4000);
    w = shapeWork("aten::_local_scalar_dense", "[[]]", R"(["bool"])", R"([""])");
    EXPECT_DOUBLE_EQ(w.bytes, 2);

    // cat: a TensorList's element type is not recorded; with it given, (3,072 + 602,112)·2 read and
    // written = 2,420,736 bytes.
    const std::string catDims = "[[[4, 1, 768], [4, 196, 768]], []]";
    expectReason(shapeModel("aten::cat", catDims, R"(["TensorList", "Scalar"])", R"(["", "1"])"), "TensorList");
    w = shapeWork("aten::cat", catDims, R"(["c10::BFloat16", "Scalar"])", R"(["", "1"])");
    EXPECT_DOUBLE_EQ(w.bytes, 2420736);
    w = shapeWork("aten::stack", catDims, R"([["c10::BFloat16", "c10::BFloat16"], "Scalar"])", R"(["", "1"])");
    EXPECT_DOUBLE_EQ(w.bytes, 2420736);
    // Older traces record a TensorList's dims as [].
    expectReason(shapeModel("aten::cat", "[[], []]", R"(["TensorList", "Scalar"])"), "dims");
}

TEST(ShapeModel, ForeachAndFusedOptimizers)
{
    // _foreach_add_ of two fp32 lists of (10) and (20): 30 FLOPs; read 120 + 120, write 120 = 360 bytes.
    auto w = shapeWork("aten::_foreach_add_", "[[[10], [20]], [[10], [20]], []]", R"(["float", "float", "Scalar"])",
        R"(["", "", "1"])");
    EXPECT_DOUBLE_EQ(w.flops, 30);
    EXPECT_DOUBLE_EQ(w.bytes, 360);
    EXPECT_EQ(w.pipe, Resource::FP32);
    expectReason(shapeModel("aten::_foreach_add_", "[[[10], [20]], [[10], [20]], []]",
                     R"(["TensorList", "TensorList", "Scalar"])", R"(["", "", "1"])"),
        "TensorList");

    // _fused_adamw_ over 150 fp32 parameters in 2 tensors, weight_decay 0.01: 13 + 1 = 14 FLOPs each
    // = 2,100; bytes read params, grads, exp_avg, exp_avg_sq 4·600 + 2 steps·4 = 2,408, write
    // params, exp_avg, exp_avg_sq 3·600 = 1,800: 4,208.
    w = shapeWork("aten::_fused_adamw_",
        "[[[100], [50]], [[100], [50]], [[100], [50]], [[100], [50]], [], [[], []], [], [], [], [], [], [], [], [], "
        "[]]",
        R"(["float", "float", "float", "float", "TensorList", "float", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "", ""])",
        R"(["", "", "", "", "", "", "0.001", "0.9", "0.999", "0.01", "1e-08", "False", "False", "", ""])");
    EXPECT_DOUBLE_EQ(w.flops, 2100);
    EXPECT_DOUBLE_EQ(w.bytes, 4208);
    EXPECT_EQ(w.family, "optimizer");
}

TEST(ShapeModel, EveryOperatorTheIssueListsHasAModel)
{
    for (const char* name : { "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear",
             "aten::_scaled_mm", "aten::addmv", "aten::mv", "aten::_scaled_dot_product_flash_attention",
             "aten::_scaled_dot_product_efficient_attention", "aten::_scaled_dot_product_cudnn_attention",
             "aten::_scaled_dot_product_attention_math", "aten::scaled_dot_product_attention",
             "aten::_scaled_dot_product_flash_attention_backward", "aten::_flash_attention_forward",
             "aten::_flash_attention_backward", "aten::_efficient_attention_forward", "flash_attn::_flash_attn_forward",
             "flash_attn::_flash_attn_backward", "flash_attn::_flash_attn_varlen_forward", "aten::convolution",
             "aten::_convolution", "aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::cudnn_convolution",
             "aten::convolution_backward", "aten::add", "aten::add_", "aten::sub", "aten::mul", "aten::mul_",
             "aten::div", "aten::where", "aten::gelu", "aten::silu", "aten::relu", "aten::exp", "aten::tanh",
             "aten::pow", "aten::sigmoid", "aten::neg", "aten::rsqrt", "aten::sqrt", "aten::abs", "aten::clamp",
             "aten::maximum", "aten::minimum", "aten::eq", "aten::ne", "aten::lt", "aten::gt", "aten::le", "aten::ge",
             "aten::gelu_backward", "aten::silu_backward", "aten::threshold_backward", "aten::dropout",
             "aten::native_dropout", "aten::_softmax", "aten::_log_softmax", "aten::_softmax_backward_data",
             "aten::_log_softmax_backward_data", "aten::layer_norm", "aten::native_layer_norm", "aten::rms_norm",
             "aten::_fused_rms_norm", "aten::group_norm", "aten::native_group_norm", "aten::batch_norm",
             "aten::native_batch_norm", "aten::cudnn_batch_norm", "aten::native_layer_norm_backward",
             "aten::native_batch_norm_backward", "aten::native_group_norm_backward", "aten::_fused_rms_norm_backward",
             "aten::sum", "aten::mean", "aten::max", "aten::amax", "aten::argmax", "aten::norm",
             "aten::linalg_vector_norm", "aten::all", "aten::any", "aten::embedding", "aten::embedding_dense_backward",
             "aten::index_select", "aten::gather", "aten::scatter", "aten::scatter_", "aten::index", "aten::copy_",
             "aten::to", "aten::_to_copy", "aten::contiguous", "aten::clone", "aten::cat", "aten::stack", "aten::fill_",
             "aten::zero_", "aten::_foreach_add_", "aten::_fused_adam_", "aten::_fused_adamw_" })
        EXPECT_TRUE(hasShapeModel(name)) << name;
}

TEST(ShapeModel, UnknownOperatorsHaveNoModel)
{
    EXPECT_FALSE(hasShapeModel("aten::foo"));
    EXPECT_FALSE(hasShapeModel("aten::view"));
    EXPECT_FALSE(hasShapeModel("aten::mm_")); // mm has no in-place variant
    EXPECT_TRUE(hasShapeModel("aten::mul_"));
    EXPECT_TRUE(hasShapeModel("aten::_scaled_dot_product_efficient_attention_backward"));
    const auto m = shapeModel("aten::foo", "[[1]]", R"(["float"])");
    EXPECT_FALSE(m.work.has_value());
    EXPECT_EQ(m.reason, "no model for aten::foo");
}

TEST(ShapeModel, MalformedInputsGiveAReason)
{
    const std::string types = R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])";
    // Truncated JSON.
    expectReason(shapeModel("aten::addmm", "[[512], [141, 5", types), "aten::addmm: Input Dims is not valid JSON");
    expectReason(shapeModel("aten::addmm", "[[512], [141, 512], [512, 512], [], []]", R"(["c10::BFloat16", )"),
        "Input type is not valid JSON");
    // Wrong arity.
    expectReason(shapeModel("aten::addmm", "[[512], [141, 512], [512, 512], [], []]", R"(["c10::BFloat16"])"),
        "Input Dims has 5 arguments but Input type 1");
    expectReason(shapeModel("aten::addmm", "[[512], [141, 512], [512, 512], [], []]", types, R"(["", ""])"),
        "Concrete Inputs 2");
    expectReason(shapeModel("aten::addmm", "[[512], [141, 512]]", R"(["c10::BFloat16", "c10::BFloat16"])"), "addmm");
    // Negative, huge and non-numeric dims.
    expectReason(shapeModel("aten::mm", "[[-4, 32], [32, 16]]", R"(["float", "float"])"), "negative");
    expectReason(shapeModel("aten::mm", "[[1e300, 32], [32, 16]]", R"(["float", "float"])"), "dimension");
    expectReason(shapeModel("aten::mm", "[[4294967296, 4294967296], [4294967296, 16]]", R"(["float", "float"])"),
        "implausibly many");
    expectReason(shapeModel("aten::mm", "[[18446744073709551615, 1], [1, 1]]", R"(["float", "float"])"), "implausibly");
    expectReason(shapeModel("aten::mm", R"([["a", 32], [32, 16]])", R"(["float", "float"])"), "not a number");
    expectReason(shapeModel("aten::mm", "[[2.5, 32], [32, 16]]", R"(["float", "float"])"), "non-negative integer");
    // Missing texts.
    expectReason(shapeModel("aten::mm", "[[64, 32], [32, 16]]", ""), "no Input type");
    expectReason(shapeModel("aten::mm", "", R"(["float", "float"])"), "no Input Dims");
    // Not arrays, wrong element kinds, deep nesting.
    expectReason(shapeModel("aten::mm", R"({"a": 1})", R"(["float", "float"])"), "not a JSON array");
    expectReason(shapeModel("aten::mm", "[[64, 32], [32, 16]]", "[1, 2]"), "Input type");
    expectReason(shapeModel("aten::mm", "[[64, 32], [[1], 2]]", R"(["float", "float"])"), "Input Dims");
    std::string deep(20000, '[');
    deep += std::string(20000, ']');
    expectReason(shapeModel("aten::mm", deep, R"(["float"])"), "aten::mm");
    // Unknown element types.
    expectReason(shapeModel("aten::add", "[[4], [4], []]", R"(["c10::Weird", "float", "Scalar"])"), "c10::Weird");
    // An operand that should be a tensor is a Scalar.
    expectReason(shapeModel("aten::mm", "[[], [32, 16]]", R"(["Scalar", "float"])"), "not tensors");
}

TEST(ShapeModel, HostileInputsNeverCrash)
{
    const std::vector<std::string> names { "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul",
        "aten::linear", "aten::_scaled_mm", "aten::mv", "aten::addmv", "aten::_scaled_dot_product_flash_attention",
        "aten::_scaled_dot_product_efficient_attention_backward", "aten::_flash_attention_forward",
        "aten::_efficient_attention_forward", "flash_attn::_flash_attn_varlen_backward", "aten::convolution",
        "aten::convolution_backward", "aten::cudnn_convolution", "aten::conv_transpose2d", "aten::add_", "aten::where",
        "aten::eq", "aten::dropout", "aten::native_dropout", "aten::_softmax", "aten::_softmax_backward_data",
        "aten::layer_norm", "aten::native_layer_norm_backward", "aten::native_batch_norm_backward",
        "aten::cudnn_batch_norm_backward", "aten::native_group_norm_backward", "aten::_fused_rms_norm_backward",
        "aten::sum", "aten::max", "aten::norm", "aten::cumsum", "aten::embedding", "aten::embedding_dense_backward",
        "aten::index_select", "aten::gather", "aten::scatter_add_", "aten::index", "aten::copy_", "aten::to",
        "aten::cat", "aten::fill_", "aten::_local_scalar_dense", "aten::_foreach_mul_", "aten::_foreach_norm",
        "aten::_fused_adam_" };
    const std::vector<std::string> dims { "[]", "[[]]", "[[0]]", "[[0, 0], [0, 0], [0, 0], [0, 0]]",
        "[[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [], [], [], [], [], [], "
        "[], [], [], [], [], []]",
        "[[2, 0, 3], [0], [[1], [2]], [], [9007199254740992]]", "[[[1, 2]], [[3]], [[]], [[4, 5, 6]]]", "[null, null]",
        "[[1, 2], 3]", "[[1.0, 2.0], [2.0, 1.0]]" };
    const std::vector<std::string> types { "[]", R"(["float"])", R"(["float", "float", "float", "float"])",
        R"(["float", "float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])",
        R"(["bool", "long int", "TensorList", "Scalar", ""])", R"([["float"], ["x"], [], ["float", "float", "float"]])",
        R"([null, 3])" };
    const std::vector<std::string> concrete { "", "[]", R"(["True", "[1, 2]", "-1", "1e400"])",
        R"(["", "", "", "", "", "", "", "", "", "", "[True, False]", "True", "0", "-5", "nan", "[-3]", "9999999999999999999999", "[0, 0, 0, 0]"])",
        R"([1, true, null, [1, 2], {"a": 1}])" };
    for (const auto& name : names) {
        for (const auto& d : dims) {
            for (const auto& t : types) {
                for (const auto& c : concrete) {
                    OperatorModel m;
                    EXPECT_NO_THROW(m = shapeModel(name, d, t, c)) << name << " " << d << " " << t << " " << c;
                    if (m.work) {
                        EXPECT_TRUE(std::isfinite(m.work->flops) && m.work->flops >= 0) << name << " " << d << " " << t;
                        EXPECT_TRUE(std::isfinite(m.work->bytes) && m.work->bytes >= 0) << name << " " << d << " " << t;
                    } else {
                        EXPECT_FALSE(m.reason.empty());
                    }
                }
            }
        }
    }
}
