#include "embed/packed_gemm.h"

#include <cblas.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DOCINTEL_HAVE_AVX512_KERNELS 1
#define DOCINTEL_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,fma")))
#endif

namespace docintel::embed {

namespace {

void blasLinear(const float* a, size_t lda, size_t m, const float* w, size_t n, size_t k,
                const float* bias, float* c, size_t ldc) {
    for (size_t r = 0; r < m; ++r) {
        if (bias) {
            std::memcpy(c + r * ldc, bias, n * sizeof(float));
        } else {
            std::memset(c + r * ldc, 0, n * sizeof(float));
        }
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, a, static_cast<int>(lda), w, static_cast<int>(k), 1.0f,
                c, static_cast<int>(ldc));
}

void blasProduct(const float* a, size_t lda, size_t m, const float* b, size_t ldb, size_t k,
                 size_t n, float* c, size_t ldc) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), 0.0f,
                c, static_cast<int>(ldc));
}

}  // namespace

void PackedWeights::Free::operator()(float* p) const { std::free(p); }

PackedWeights::PackedWeights(const float* w, size_t n, size_t k) : original_(w), n_(n), k_(k) {
    if (!gemm::accelerated()) return;  // the OpenBLAS fallback reads the original
    const size_t panels = (n + kPanel - 1) / kPanel;
    const size_t bytes = panels * k * kPanel * sizeof(float);
    auto* data = static_cast<float*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
    if (data == nullptr) throw std::bad_alloc();
    packed_.reset(data);
    std::memset(data, 0, bytes);
    for (size_t col = 0; col < n; ++col) {
        float* out = data + (col / kPanel) * k * kPanel + col % kPanel;
        const float* row = w + col * k;
        for (size_t kk = 0; kk < k; ++kk) out[kk * kPanel] = row[kk];
    }
}

namespace gemm {

#ifdef DOCINTEL_HAVE_AVX512_KERNELS
namespace {

// Tile shapes measured on the encoder (CPU time per chunk, one thread): 12×32 beat 14×32,
// 8×48 and 6×64.
constexpr size_t kRows = 12;  // rows of C per tile: 24 accumulators, 2 of B, 1 broadcast
constexpr size_t kPanel = PackedWeights::kPanel;
constexpr size_t kVectors = kPanel / 16;  // 16-float vectors of C per tile row
// Blocking of linear(), GotoBLAS-style for a 1 MB L2: the weights in blocks of kBlock inputs ×
// kColumns outputs that stay in L2 while every row tile of A passes over them; each row tile
// copied into L1 at the fixed row stride kBlock, so the kernel addresses its rows from one
// pointer. Most layers have k ≤ 512, so C is written once; wider ones accumulate over k blocks.
constexpr size_t kBlock = 512;
constexpr size_t kColumns = 8 * PackedWeights::kPanel;
// B rows are prefetched this many rows ahead: the panel streams from L2, and the prefetch took
// 10% off the encoder's time (distances 4 to 32 tried; 16 to 24 were best).
constexpr size_t kPrefetchRows = 16;

// C[R×nr] (+)= A[R×k]·B[k×nr] for nr ≤ kPanel columns, masks[v] selecting the columns of the
// v-th 16-column vector; A rows at stride kBlock, B rows at stride ldb. C starts from itself
// (accumulate), from the bias row, or from zero.
// Masked is false for a full panel, so that the hot loop carries no mask registers.
template <size_t R, bool Masked>
DOCINTEL_AVX512 void tile(const float* a, const float* b, size_t ldb, size_t k, float* c,
                          size_t ldc, const __mmask16* masks, const float* bias, bool accumulate) {
    constexpr size_t V = kVectors;
    __m512 acc[R][V];
    __mmask16 mask[V];
#pragma GCC unroll 8
    for (size_t v = 0; v < V; ++v) mask[v] = Masked ? masks[v] : static_cast<__mmask16>(0xFFFF);
    if (accumulate) {
#pragma GCC unroll 16
        for (size_t r = 0; r < R; ++r) {
#pragma GCC unroll 8
            for (size_t v = 0; v < V; ++v) {
                acc[r][v] = _mm512_maskz_loadu_ps(mask[v], c + r * ldc + 16 * v);
            }
        }
    } else {
#pragma GCC unroll 8
        for (size_t v = 0; v < V; ++v) {
            const __m512 init =
                bias ? _mm512_maskz_loadu_ps(mask[v], bias + 16 * v) : _mm512_setzero_ps();
#pragma GCC unroll 16
            for (size_t r = 0; r < R; ++r) acc[r][v] = init;
        }
    }
    for (size_t kk = 0; kk < k; ++kk, b += ldb) {
#pragma GCC unroll 8
        for (size_t v = 0; v < V; ++v) {
            _mm_prefetch(reinterpret_cast<const char*>(b + kPrefetchRows * ldb + 16 * v),
                         _MM_HINT_T0);
        }
        __m512 bv[V];
#pragma GCC unroll 8
        for (size_t v = 0; v < V; ++v) {
            bv[v] =
                Masked ? _mm512_maskz_loadu_ps(mask[v], b + 16 * v) : _mm512_loadu_ps(b + 16 * v);
        }
#pragma GCC unroll 16
        for (size_t r = 0; r < R; ++r) {
            const __m512 av = _mm512_set1_ps(a[r * kBlock + kk]);
#pragma GCC unroll 8
            for (size_t v = 0; v < V; ++v) acc[r][v] = _mm512_fmadd_ps(av, bv[v], acc[r][v]);
        }
    }
#pragma GCC unroll 16
    for (size_t r = 0; r < R; ++r) {
#pragma GCC unroll 8
        for (size_t v = 0; v < V; ++v) {
            if (Masked) {
                _mm512_mask_storeu_ps(c + r * ldc + 16 * v, mask[v], acc[r][v]);
            } else {
                _mm512_storeu_ps(c + r * ldc + 16 * v, acc[r][v]);
            }
        }
    }
}

using TileFn = void (*)(const float*, const float*, size_t, size_t, float*, size_t,
                        const __mmask16*, const float*, bool);

template <bool Masked, size_t... R>
constexpr auto makeTiles(std::index_sequence<R...>) {
    return std::array<TileFn, sizeof...(R)>{&tile<R + 1, Masked>...};
}
constexpr auto kFullTiles = makeTiles<false>(std::make_index_sequence<kRows>());
constexpr auto kMaskedTiles = makeTiles<true>(std::make_index_sequence<kRows>());

// Rows [0, m) × columns [0, k) of A (rows at stride lda) copied to `out` at row stride kBlock.
inline void copyRows(const float* a, size_t lda, size_t m, size_t k, float* out) {
    for (size_t r = 0; r < m; ++r) std::memcpy(out + r * kBlock, a + r * lda, k * sizeof(float));
}

// Rows [0, rows ≤ kRows) of C against one column panel of nr ≤ kPanel columns.
inline void panelTile(const float* a, size_t rows, const float* b, size_t ldb, size_t k, size_t nr,
                      float* c, size_t ldc, const float* bias, bool accumulate) {
    __mmask16 masks[kVectors];
    for (size_t v = 0; v < kVectors; ++v) {
        const size_t lo = 16 * v;
        masks[v] = static_cast<__mmask16>(nr >= lo + 16 ? 0xFFFF
                                          : nr > lo     ? (1u << (nr - lo)) - 1
                                                        : 0);
    }
    const auto& tiles = nr == kPanel ? kFullTiles : kMaskedTiles;
    tiles[rows - 1](a, b, ldb, k, c, ldc, masks, bias, accumulate);
}

}  // namespace

bool accelerated() {
    static const bool supported = [] {
        const char* force_blas = std::getenv("DOCINTEL_ENCODER_BLAS");
        if (force_blas != nullptr && std::string_view(force_blas) == "1") return false;
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512dq");
    }();
    return supported;
}

void linear(const float* a, size_t lda, size_t m, const PackedWeights& w, const float* bias,
            float* c, size_t ldc) {
    const size_t n = w.outputs();
    const size_t k = w.inputs();
    if (!accelerated()) return blasLinear(a, lda, m, w.original(), n, k, bias, c, ldc);
    alignas(64) float rows_of_a[kRows * kBlock];
    for (size_t k0 = 0; k0 < k; k0 += kBlock) {
        const size_t kb = std::min(kBlock, k - k0);
        for (size_t j0 = 0; j0 < n; j0 += kColumns) {
            const size_t j1 = std::min(n, j0 + kColumns);
            for (size_t r0 = 0; r0 < m; r0 += kRows) {
                const size_t rows = std::min(kRows, m - r0);
                copyRows(a + r0 * lda + k0, lda, rows, kb, rows_of_a);
                for (size_t j = j0; j < j1; j += kPanel) {
                    panelTile(rows_of_a, rows, w.panel(j / kPanel) + k0 * kPanel, kPanel, kb,
                              std::min(kPanel, n - j), c + r0 * ldc + j, ldc,
                              bias ? bias + j : nullptr, k0 > 0);
                }
            }
        }
    }
}

void product(const float* a, size_t lda, size_t m, const float* b, size_t ldb, size_t k, size_t n,
             float* c, size_t ldc) {
    if (!accelerated()) return blasProduct(a, lda, m, b, ldb, k, n, c, ldc);
    alignas(64) float rows_of_a[kRows * kBlock];
    for (size_t k0 = 0; k0 < k; k0 += kBlock) {
        const size_t kb = std::min(kBlock, k - k0);
        for (size_t r0 = 0; r0 < m; r0 += kRows) {
            const size_t rows = std::min(kRows, m - r0);
            copyRows(a + r0 * lda + k0, lda, rows, kb, rows_of_a);
            for (size_t j = 0; j < n; j += kPanel) {
                panelTile(rows_of_a, rows, b + k0 * ldb + j, ldb, kb, std::min(kPanel, n - j),
                          c + r0 * ldc + j, ldc, nullptr, k0 > 0);
            }
        }
    }
}

#else

bool accelerated() { return false; }

void linear(const float* a, size_t lda, size_t m, const PackedWeights& w, const float* bias,
            float* c, size_t ldc) {
    blasLinear(a, lda, m, w.original(), w.outputs(), w.inputs(), bias, c, ldc);
}

void product(const float* a, size_t lda, size_t m, const float* b, size_t ldb, size_t k, size_t n,
             float* c, size_t ldc) {
    blasProduct(a, lda, m, b, ldb, k, n, c, ldc);
}

#endif

}  // namespace gemm
}  // namespace docintel::embed
