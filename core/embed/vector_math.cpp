#include "embed/vector_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define DOCINTEL_VECTOR_CLONES \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define DOCINTEL_VECTOR_CLONES
#endif

namespace docintel::embed::vmath {

namespace {

// e^x for x in float range: 2^n · p(r) with x = n·ln2 + r, |r| ≤ ln2/2 (Cephes' polynomial).
inline float fastExp(float x) {
    x = x < -87.3f ? -87.3f : (x > 88.3f ? 88.3f : x);
    // Round to nearest through a truncating conversion, which vectorises on any x86-64.
    float t = x * 1.44269504088896341f;
    auto ni = static_cast<int32_t>(t + (t >= 0.0f ? 0.5f : -0.5f));
    auto n = static_cast<float>(ni);
    float r = x - n * 0.693359375f;
    r = r + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    auto bits = static_cast<int32_t>((ni + 127) << 23);
    float scale;
    std::memcpy(&scale, &bits, sizeof(scale));
    return p * scale;
}

// erf(x), Abramowitz & Stegun 7.1.26 refined: |error| < 1.5e-7.
inline float fastErf(float x) {
    float a = std::fabs(x);
    float t = 1.0f / (1.0f + 0.3275911f * a);
    float y = 1.061405429f;
    y = y * t - 1.453152027f;
    y = y * t + 1.421413741f;
    y = y * t - 0.284496736f;
    y = y * t + 0.254829592f;
    y = 1.0f - y * t * fastExp(-a * a);
    return std::copysign(y, x);
}

}  // namespace

DOCINTEL_VECTOR_CLONES
void gelu(float* x, size_t n) {
    constexpr float kInvSqrt2 = 0.70710678118654752f;
    for (size_t i = 0; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + fastErf(x[i] * kInvSqrt2));
}

DOCINTEL_VECTOR_CLONES
void softmaxRows(float* s, size_t rows, size_t cols, size_t ld, float scale) {
    for (size_t r = 0; r < rows; ++r) {
        float* row = s + r * ld;
        float max = row[0];
        for (size_t i = 1; i < cols; ++i) max = row[i] > max ? row[i] : max;
        const float shift = max * scale;
        float sum = 0.0f;
        for (size_t i = 0; i < cols; ++i) {
            row[i] = fastExp(row[i] * scale - shift);
            sum += row[i];
        }
        float inv = 1.0f / sum;
        for (size_t i = 0; i < cols; ++i) row[i] *= inv;
    }
}

DOCINTEL_VECTOR_CLONES
void addLayerNorm(float* x, const float* residual, size_t rows, size_t width, const float* gamma,
                  const float* beta, float eps) {
    for (size_t r = 0; r < rows; ++r) {
        float* row = x + r * width;
        if (residual != nullptr) {
            const float* res = residual + r * width;
            for (size_t i = 0; i < width; ++i) row[i] += res[i];
        }
        float mean = 0.0f;
        for (size_t i = 0; i < width; ++i) mean += row[i];
        mean /= static_cast<float>(width);
        float var = 0.0f;
        for (size_t i = 0; i < width; ++i) {
            float d = row[i] - mean;
            var += d * d;
        }
        var /= static_cast<float>(width);
        float inv = 1.0f / std::sqrt(var + eps);
        for (size_t i = 0; i < width; ++i) row[i] = (row[i] - mean) * inv * gamma[i] + beta[i];
    }
}

}  // namespace docintel::embed::vmath
