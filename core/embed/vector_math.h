#pragma once

#include <cstddef>

namespace docintel::embed {

/// The element-wise loops of the encoder, written so the compiler vectorises them and compiled
/// for AVX-512, AVX2+FMA and baseline x86-64 (picked at load time). exp and erf are polynomial
/// approximations accurate to a few float ulps (erf: |error| < 2e-7), far inside the encoder's
/// cosine 0.999 budget. All are pure functions of their arguments.
namespace vmath {

/// x[i] = GELU(x[i]) in the erf form: 0.5·x·(1 + erf(x/√2)).
void gelu(float* x, size_t n);

/// Each of `rows` rows of `cols` floats (rows at stride `ld`) replaced by softmax(scale·row).
void softmaxRows(float* s, size_t rows, size_t cols, size_t ld, float scale);

/// x = LayerNorm(x + residual) row by row (residual may be null).
void addLayerNorm(float* x, const float* residual, size_t rows, size_t width, const float* gamma,
                  const float* beta, float eps);

}  // namespace vmath
}  // namespace docintel::embed
