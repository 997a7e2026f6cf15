// SPDX-License-Identifier: MIT
// The shape models, one function per operator family (issue 33); shapemodel.cpp's table maps
// each operator name to one of them and a kind, which tells the family the argument layout of
// that operator (PyTorch's native_functions.yaml, flash-attn's custom ops). Private to the
// analysis folder.
#pragma once

#include "shapeargs.h"

namespace ridgeline::core::shapes {

using FamilyModel = OperatorModel (*)(std::string_view name, const ShapeArgs& args, int kind);

enum class GemmKind : int { Mm, Addmm, Bmm, Baddbmm, Matmul, Linear, ScaledMm, Mv, Addmv };
OperatorModel modelGemm(std::string_view name, const ShapeArgs& args, int kind);

enum class AttentionKind : int {
    SdpaFlash, // aten::_scaled_dot_product_flash_attention (B, H, N, d)
    SdpaEfficient, // aten::_scaled_dot_product_efficient_attention
    SdpaCudnn, // aten::_scaled_dot_product_cudnn_attention
    SdpaMath, // aten::_scaled_dot_product_attention_math
    Sdpa, // aten::scaled_dot_product_attention
    SdpaFlashBackward,
    SdpaEfficientBackward,
    SdpaCudnnBackward,
    FlashForward, // aten::_flash_attention_forward (B, N, H, d)
    FlashBackward,
    EfficientForward, // aten::_efficient_attention_forward (B, N, H, d)
    EfficientBackward,
    FlashAttn, // flash_attn::_flash_attn_forward (B, N, H, d)
    FlashAttnBackward,
    FlashAttnVarlen, // flash_attn::_flash_attn_varlen_forward (total, H, d)
    FlashAttnVarlenBackward,
};
OperatorModel modelAttention(std::string_view name, const ShapeArgs& args, int kind);

enum class ConvKind : int {
    Convolution, // aten::convolution, aten::_convolution
    ConvNd, // aten::conv1d/2d/3d
    ConvTransposeNd, // aten::conv_transpose1d/2d/3d
    Cudnn, // aten::cudnn_convolution (no bias; padding before stride)
    CudnnTranspose, // aten::cudnn_convolution_transpose
    Backward, // aten::convolution_backward
};
OperatorModel modelConvolution(std::string_view name, const ShapeArgs& args, int kind);

enum class ElementwiseKind : int {
    Unary, // one tensor operand (gelu, relu, exp, ...; pow with a scalar exponent)
    Binary, // two operands, broadcast (add, mul, ..., and the simple backwards)
    Ternary, // three operands, broadcast (addcmul, lerp, clamp with tensor bounds, masked_fill)
    Compare, // two operands, a bool result (eq, lt, logical_and, ...)
    Where, // where(condition, self, other): the condition does not take part in the type
    Dropout, // aten::dropout(input, p, train)
    NativeDropout, // aten::native_dropout(input, p, train): the output and a bool mask
};
OperatorModel modelElementwise(std::string_view name, const ShapeArgs& args, int kind);

enum class NormKind : int {
    LayerNorm, // aten::layer_norm, native_layer_norm (input, normalized_shape, weight, bias, eps)
    LayerNormBackward, // native_layer_norm_backward
    BatchNorm, // batch_norm, native_batch_norm, cudnn_batch_norm
    BatchNormBackward, // native_batch_norm_backward
    CudnnBatchNormBackward, // cudnn_batch_norm_backward (input first)
    GroupNorm, // group_norm (input, num_groups, weight, bias, ...)
    NativeGroupNorm, // native_group_norm (input, weight, bias, N, C, HxW, group, eps)
    GroupNormBackward, // native_group_norm_backward
    RmsNorm, // rms_norm, _fused_rms_norm
    RmsNormBackward, // _fused_rms_norm_backward
};
OperatorModel modelNorm(std::string_view name, const ShapeArgs& args, int kind);

enum class SoftmaxKind : int {
    Softmax, // _softmax / _log_softmax (self, dim, half_to_float)
    SoftmaxDtype, // softmax / log_softmax (self, dim, dtype)
    Backward, // _softmax_backward_data / _log_softmax_backward_data (grad, output, dim, input_dtype)
};
OperatorModel modelSoftmax(std::string_view name, const ShapeArgs& args, int kind);

enum class ReduceKind : int {
    SumLike, // sum, mean, prod, nansum: (self, dtype) or (self, dim, keepdim, dtype)
    DimKeep, // amax, amin, logsumexp, all, any: (self[, dim, keepdim])
    MaxMin, // max, min: (self), (self, dim, keepdim) with indices, or (self, other) elementwise
    ArgMaxMin, // argmax, argmin: (self, dim, keepdim), int64 result
    Norm, // norm: (self, p[, dim, keepdim[, dtype]])
    VectorNorm, // linalg_vector_norm: (self, ord, dim, keepdim, dtype)
    Cumulative, // cumsum, cumprod: (self, dim, dtype)
};
OperatorModel modelReduction(std::string_view name, const ShapeArgs& args, int kind);

enum class DataKind : int {
    Embedding, // embedding(weight, indices, ...)
    EmbeddingBackward, // embedding_dense_backward(grad, indices, num_weights, ...)
    IndexSelect, // index_select(self, dim, index)
    Gather, // gather(self, dim, index, ...)
    Scatter, // scatter / scatter_ (self, dim, index, src|value[, reduce])
    ScatterAdd, // scatter_add / scatter_add_
    Index, // index(self, indices)
    Copy, // copy_(self, src, non_blocking)
    ToCopy, // _to_copy(self, dtype, ...), to(self, dtype|device|other, ...)
    Clone, // clone, contiguous
    Cat, // cat(tensors, dim), stack(tensors, dim)
    Fill, // fill_(self, value), zero_(self)
    ScalarRead, // _local_scalar_dense(self)
    Foreach, // _foreach_<op>[_]: elementwise over tensor lists
    ForeachCopy, // _foreach_copy_, _foreach_zero_: data movement over lists
    ForeachNorm, // _foreach_norm(self, ord)
    FusedAdam, // _fused_adam_ / _fused_adamw_
};
OperatorModel modelData(std::string_view name, const ShapeArgs& args, int kind);

// Helpers the families share.
// The element type two or more operands promote to, as PyTorch's type promotion does for
// tensors with dimensions (a 0-dim tensor or a Scalar of a higher category wins: bool < integer <
// floating < complex; fp16 with bf16 gives fp32).
ElementType promoteTypes(const std::vector<const ShapeArg*>& operands);

} // namespace ridgeline::core::shapes
