// SPDX-License-Identifier: MIT
// The one table of operator shape models (issue 33): each operator name to its family's model and
// the argument layout of that operator. docs/ROOFLINE.md, "FLOPs and bytes from operator shapes",
// gives every formula and its source.
#include "ridgeline/core/analysis/shapemodel.h"

#include "ridgeline/core/model/commnames.h"
#include "shapemodelfamilies.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace ridgeline::core {

namespace {

using namespace shapes;

struct ShapeModelRow {
    std::string_view name;
    FamilyModel model;
    int kind;
    bool inPlaceToo = false; // the name with a trailing "_" (add_, mul_, ...) has the same model
};

template <typename Kind> constexpr int kindOf(Kind kind)
{
    return static_cast<int>(kind);
}

constexpr ShapeModelRow kShapeModels[] = {
    // GEMM
    { "aten::mm", modelGemm, kindOf(GemmKind::Mm) },
    { "aten::addmm", modelGemm, kindOf(GemmKind::Addmm), true },
    { "aten::bmm", modelGemm, kindOf(GemmKind::Bmm) },
    { "aten::baddbmm", modelGemm, kindOf(GemmKind::Baddbmm), true },
    { "aten::matmul", modelGemm, kindOf(GemmKind::Matmul) },
    { "aten::linear", modelGemm, kindOf(GemmKind::Linear) },
    { "aten::_scaled_mm", modelGemm, kindOf(GemmKind::ScaledMm) },
    { "aten::mv", modelGemm, kindOf(GemmKind::Mv) },
    { "aten::addmv", modelGemm, kindOf(GemmKind::Addmv), true },
    // attention
    { "aten::_scaled_dot_product_flash_attention", modelAttention, kindOf(AttentionKind::SdpaFlash) },
    { "aten::_scaled_dot_product_efficient_attention", modelAttention, kindOf(AttentionKind::SdpaEfficient) },
    { "aten::_scaled_dot_product_cudnn_attention", modelAttention, kindOf(AttentionKind::SdpaCudnn) },
    { "aten::_scaled_dot_product_attention_math", modelAttention, kindOf(AttentionKind::SdpaMath) },
    { "aten::scaled_dot_product_attention", modelAttention, kindOf(AttentionKind::Sdpa) },
    { "aten::_scaled_dot_product_flash_attention_backward", modelAttention, kindOf(AttentionKind::SdpaFlashBackward) },
    { "aten::_scaled_dot_product_efficient_attention_backward", modelAttention,
        kindOf(AttentionKind::SdpaEfficientBackward) },
    { "aten::_scaled_dot_product_cudnn_attention_backward", modelAttention, kindOf(AttentionKind::SdpaCudnnBackward) },
    { "aten::_flash_attention_forward", modelAttention, kindOf(AttentionKind::FlashForward) },
    { "aten::_flash_attention_backward", modelAttention, kindOf(AttentionKind::FlashBackward) },
    { "aten::_efficient_attention_forward", modelAttention, kindOf(AttentionKind::EfficientForward) },
    { "aten::_efficient_attention_backward", modelAttention, kindOf(AttentionKind::EfficientBackward) },
    { "flash_attn::_flash_attn_forward", modelAttention, kindOf(AttentionKind::FlashAttn) },
    { "flash_attn::_flash_attn_backward", modelAttention, kindOf(AttentionKind::FlashAttnBackward) },
    { "flash_attn::_flash_attn_varlen_forward", modelAttention, kindOf(AttentionKind::FlashAttnVarlen) },
    { "flash_attn::_flash_attn_varlen_backward", modelAttention, kindOf(AttentionKind::FlashAttnVarlenBackward) },
    // convolution
    { "aten::convolution", modelConvolution, kindOf(ConvKind::Convolution) },
    { "aten::_convolution", modelConvolution, kindOf(ConvKind::Convolution) },
    { "aten::conv1d", modelConvolution, kindOf(ConvKind::ConvNd) },
    { "aten::conv2d", modelConvolution, kindOf(ConvKind::ConvNd) },
    { "aten::conv3d", modelConvolution, kindOf(ConvKind::ConvNd) },
    { "aten::conv_transpose1d", modelConvolution, kindOf(ConvKind::ConvTransposeNd) },
    { "aten::conv_transpose2d", modelConvolution, kindOf(ConvKind::ConvTransposeNd) },
    { "aten::conv_transpose3d", modelConvolution, kindOf(ConvKind::ConvTransposeNd) },
    { "aten::cudnn_convolution", modelConvolution, kindOf(ConvKind::Cudnn) },
    { "aten::cudnn_convolution_transpose", modelConvolution, kindOf(ConvKind::CudnnTranspose) },
    { "aten::convolution_backward", modelConvolution, kindOf(ConvKind::Backward) },
    // elementwise: unary
    { "aten::abs", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::neg", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::exp", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::exp2", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::expm1", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::log", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::log1p", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::log2", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::sqrt", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::rsqrt", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::reciprocal", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::square", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::sin", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::cos", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::tanh", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::sigmoid", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::erf", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::sign", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::floor", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::ceil", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::round", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::relu", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::gelu", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::silu", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::mish", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::hardswish", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::hardsigmoid", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::hardtanh", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::leaky_relu", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::elu", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::softplus", modelElementwise, kindOf(ElementwiseKind::Unary) },
    { "aten::threshold", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::nan_to_num", modelElementwise, kindOf(ElementwiseKind::Unary), true },
    { "aten::clamp_min", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::clamp_max", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::clamp", modelElementwise, kindOf(ElementwiseKind::Ternary), true },
    { "aten::clip", modelElementwise, kindOf(ElementwiseKind::Ternary), true },
    // elementwise: binary and ternary
    { "aten::add", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::sub", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::rsub", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::mul", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::div", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::pow", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::remainder", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::fmod", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::maximum", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::minimum", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::atan2", modelElementwise, kindOf(ElementwiseKind::Binary), true },
    { "aten::gelu_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::silu_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::threshold_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::sigmoid_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::tanh_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::hardtanh_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::leaky_relu_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::native_dropout_backward", modelElementwise, kindOf(ElementwiseKind::Binary) },
    { "aten::masked_fill", modelElementwise, kindOf(ElementwiseKind::Ternary), true },
    { "aten::addcmul", modelElementwise, kindOf(ElementwiseKind::Ternary), true },
    { "aten::addcdiv", modelElementwise, kindOf(ElementwiseKind::Ternary), true },
    { "aten::lerp", modelElementwise, kindOf(ElementwiseKind::Ternary), true },
    { "aten::where", modelElementwise, kindOf(ElementwiseKind::Where) },
    { "aten::eq", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::ne", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::lt", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::gt", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::le", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::ge", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::logical_and", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::logical_or", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::logical_xor", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::logical_not", modelElementwise, kindOf(ElementwiseKind::Compare), true },
    { "aten::isnan", modelElementwise, kindOf(ElementwiseKind::Compare) },
    { "aten::isinf", modelElementwise, kindOf(ElementwiseKind::Compare) },
    { "aten::dropout", modelElementwise, kindOf(ElementwiseKind::Dropout), true },
    { "aten::native_dropout", modelElementwise, kindOf(ElementwiseKind::NativeDropout) },
    // softmax
    { "aten::_softmax", modelSoftmax, kindOf(SoftmaxKind::Softmax) },
    { "aten::_log_softmax", modelSoftmax, kindOf(SoftmaxKind::Softmax) },
    { "aten::softmax", modelSoftmax, kindOf(SoftmaxKind::SoftmaxDtype) },
    { "aten::log_softmax", modelSoftmax, kindOf(SoftmaxKind::SoftmaxDtype) },
    { "aten::_softmax_backward_data", modelSoftmax, kindOf(SoftmaxKind::Backward) },
    { "aten::_log_softmax_backward_data", modelSoftmax, kindOf(SoftmaxKind::Backward) },
    // norms
    { "aten::layer_norm", modelNorm, kindOf(NormKind::LayerNorm) },
    { "aten::native_layer_norm", modelNorm, kindOf(NormKind::LayerNorm) },
    { "aten::native_layer_norm_backward", modelNorm, kindOf(NormKind::LayerNormBackward) },
    { "aten::batch_norm", modelNorm, kindOf(NormKind::BatchNorm) },
    { "aten::native_batch_norm", modelNorm, kindOf(NormKind::BatchNorm) },
    { "aten::_native_batch_norm_legit", modelNorm, kindOf(NormKind::BatchNorm) },
    { "aten::cudnn_batch_norm", modelNorm, kindOf(NormKind::BatchNorm) },
    { "aten::native_batch_norm_backward", modelNorm, kindOf(NormKind::BatchNormBackward) },
    { "aten::cudnn_batch_norm_backward", modelNorm, kindOf(NormKind::CudnnBatchNormBackward) },
    { "aten::group_norm", modelNorm, kindOf(NormKind::GroupNorm) },
    { "aten::native_group_norm", modelNorm, kindOf(NormKind::NativeGroupNorm) },
    { "aten::native_group_norm_backward", modelNorm, kindOf(NormKind::GroupNormBackward) },
    { "aten::rms_norm", modelNorm, kindOf(NormKind::RmsNorm) },
    { "aten::_fused_rms_norm", modelNorm, kindOf(NormKind::RmsNorm) },
    { "aten::_fused_rms_norm_backward", modelNorm, kindOf(NormKind::RmsNormBackward) },
    // reductions
    { "aten::sum", modelReduction, kindOf(ReduceKind::SumLike) },
    { "aten::nansum", modelReduction, kindOf(ReduceKind::SumLike) },
    { "aten::mean", modelReduction, kindOf(ReduceKind::SumLike) },
    { "aten::prod", modelReduction, kindOf(ReduceKind::SumLike) },
    { "aten::amax", modelReduction, kindOf(ReduceKind::DimKeep) },
    { "aten::amin", modelReduction, kindOf(ReduceKind::DimKeep) },
    { "aten::logsumexp", modelReduction, kindOf(ReduceKind::DimKeep) },
    { "aten::all", modelReduction, kindOf(ReduceKind::DimKeep) },
    { "aten::any", modelReduction, kindOf(ReduceKind::DimKeep) },
    { "aten::max", modelReduction, kindOf(ReduceKind::MaxMin) },
    { "aten::min", modelReduction, kindOf(ReduceKind::MaxMin) },
    { "aten::argmax", modelReduction, kindOf(ReduceKind::ArgMaxMin) },
    { "aten::argmin", modelReduction, kindOf(ReduceKind::ArgMaxMin) },
    { "aten::norm", modelReduction, kindOf(ReduceKind::Norm) },
    { "aten::linalg_vector_norm", modelReduction, kindOf(ReduceKind::VectorNorm) },
    { "aten::cumsum", modelReduction, kindOf(ReduceKind::Cumulative), true },
    { "aten::cumprod", modelReduction, kindOf(ReduceKind::Cumulative), true },
    // embedding, indexing
    { "aten::embedding", modelData, kindOf(DataKind::Embedding) },
    { "aten::embedding_dense_backward", modelData, kindOf(DataKind::EmbeddingBackward) },
    { "aten::index_select", modelData, kindOf(DataKind::IndexSelect) },
    { "aten::gather", modelData, kindOf(DataKind::Gather) },
    { "aten::scatter", modelData, kindOf(DataKind::Scatter), true },
    { "aten::scatter_add", modelData, kindOf(DataKind::ScatterAdd), true },
    { "aten::index", modelData, kindOf(DataKind::Index) },
    // bytes only
    { "aten::copy_", modelData, kindOf(DataKind::Copy) },
    { "aten::to", modelData, kindOf(DataKind::ToCopy) },
    { "aten::_to_copy", modelData, kindOf(DataKind::ToCopy) },
    { "aten::contiguous", modelData, kindOf(DataKind::Clone) },
    { "aten::clone", modelData, kindOf(DataKind::Clone) },
    { "aten::cat", modelData, kindOf(DataKind::Cat) },
    { "aten::stack", modelData, kindOf(DataKind::Cat) },
    { "aten::fill_", modelData, kindOf(DataKind::Fill) },
    { "aten::zero_", modelData, kindOf(DataKind::Fill) },
    { "aten::_local_scalar_dense", modelData, kindOf(DataKind::ScalarRead) },
    // foreach and fused optimizers
    { "aten::_foreach_add", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_sub", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_mul", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_div", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_addcmul", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_addcdiv", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_lerp", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_maximum", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_minimum", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_clamp_min", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_clamp_max", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_pow", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_sqrt", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_rsqrt", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_exp", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_neg", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_abs", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_reciprocal", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_sign", modelData, kindOf(DataKind::Foreach), true },
    { "aten::_foreach_copy_", modelData, kindOf(DataKind::ForeachCopy) },
    { "aten::_foreach_zero_", modelData, kindOf(DataKind::ForeachCopy) },
    { "aten::_foreach_norm", modelData, kindOf(DataKind::ForeachNorm) },
    { "aten::_fused_adam_", modelData, kindOf(DataKind::FusedAdam) },
    { "aten::_fused_adamw_", modelData, kindOf(DataKind::FusedAdam) },
    { "aten::_fused_adam", modelData, kindOf(DataKind::FusedAdam) },
    { "aten::_fused_adamw", modelData, kindOf(DataKind::FusedAdam) },
};

const std::unordered_map<std::string_view, const ShapeModelRow*>& shapeModelTable()
{
    static const std::unordered_map<std::string_view, const ShapeModelRow*> map = [] {
        std::unordered_map<std::string_view, const ShapeModelRow*> m;
        for (const auto& row : kShapeModels)
            m.emplace(row.name, &row);
        return m;
    }();
    return map;
}

const ShapeModelRow* findShapeModelRow(std::string_view name)
{
    const auto& t = shapeModelTable();
    if (const auto it = t.find(name); it != t.end())
        return it->second;
    // An in-place variant: "aten::add_" has the model of "aten::add".
    if (name.size() > 1 && name.back() == '_') {
        if (const auto it = t.find(name.substr(0, name.size() - 1)); it != t.end() && it->second->inPlaceToo)
            return it->second;
    }
    return nullptr;
}

// Composite operators: PyTorch implements them by calling other operators (linear -> addmm,
// matmul -> mm/bmm, conv2d -> convolution, scaled_dot_product_attention -> its flash, efficient
// or cuDNN kernel's operator, to -> _to_copy -> copy_). The one below knows more: addmm the bias,
// copy_ both element types.
constexpr std::string_view kCompositeOperators[] { "aten::linear", "aten::matmul", "aten::conv1d", "aten::conv2d",
    "aten::conv3d", "aten::scaled_dot_product_attention", "aten::to", "aten::_to_copy", "aten::contiguous",
    "aten::clone", "aten::einsum" };

} // namespace

bool hasShapeModel(std::string_view operatorName)
{
    return findShapeModelRow(operatorName) != nullptr;
}

bool isCompositeOperator(std::string_view operatorName)
{
    return std::find(std::begin(kCompositeOperators), std::end(kCompositeOperators), operatorName)
        != std::end(kCompositeOperators);
}

OperatorModel modelOperator(const OperatorCall& call)
{
    try {
        const ShapeModelRow* row = findShapeModelRow(call.name);
        if (!row) {
            OperatorModel none;
            if (const auto comm = communicationOperator(call.name))
                none.reason = fmt::format("{} is communication ({}): its kernels are judged by message size and link, "
                                          "not by shapes",
                    call.name, comm->library);
            else
                none.reason = fmt::format("no model for {}", call.name);
            return none;
        }
        std::string why;
        const auto args = parseShapeArgs(call, why);
        if (!args)
            return noModel(call.name, why);
        return row->model(call.name, *args, row->kind);
    } catch (const std::exception& e) {
        return noModel(call.name, fmt::format("the model failed ({})", e.what()));
    } catch (...) {
        return noModel(call.name, "the model failed");
    }
}

} // namespace ridgeline::core
