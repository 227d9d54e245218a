#pragma once

#include <cstddef>
#include <memory>

namespace docintel::embed {

/// A Linear layer's weight W (n outputs × k inputs, row-major, as PyTorch stores it), packed
/// once at load into panels of 32 output columns, each panel k rows of 32 contiguous floats
/// (n padded with zero columns), so that gemm::linear reads the weights front to back and
/// never repacks them per call as a BLAS sgemm does. Keeps a pointer to the original matrix
/// for the OpenBLAS fallback, which must outlive this object. Immutable after construction.
class PackedWeights {
  public:
    static constexpr size_t kPanel = 32;

    PackedWeights() = default;
    PackedWeights(const float* w, size_t n, size_t k);

    size_t outputs() const { return n_; }
    size_t inputs() const { return k_; }
    /// Panel p: k rows of kPanel floats, columns [p·kPanel, (p+1)·kPanel) of Wᵀ.
    const float* panel(size_t p) const { return packed_.get() + p * k_ * kPanel; }
    const float* original() const { return original_; }

  private:
    struct Free {
        void operator()(float* p) const;
    };
    std::unique_ptr<float[], Free> packed_;
    const float* original_ = nullptr;
    size_t n_ = 0;
    size_t k_ = 0;
};

/// Matrix products of the encoder. On a CPU with AVX-512 they run our register-blocked
/// kernels (12 rows × 32 columns of C per tile, B from packed panels or read in place, A's
/// tile copied to the stack); elsewhere they call OpenBLAS. All are pure functions of their
/// arguments, safe on any number of threads at once; none allocates on the heap.
namespace gemm {

/// Whether the AVX-512 kernels run on this CPU (and DOCINTEL_ENCODER_BLAS=1, which forces the
/// OpenBLAS path for tests and comparisons, is not set). Decided once per process.
bool accelerated();

/// C[m×n] = A[m×k]·Wᵀ + bias, with n, k of `w`; A rows at stride lda, C rows at stride ldc;
/// bias (n floats) may be null.
void linear(const float* a, size_t lda, size_t m, const PackedWeights& w, const float* bias,
            float* c, size_t ldc);

/// C[m×n] = A[m×k]·B[k×n], B rows at stride ldb (row-major, not packed).
void product(const float* a, size_t lda, size_t m, const float* b, size_t ldb, size_t k, size_t n,
             float* c, size_t ldc);

}  // namespace gemm
}  // namespace docintel::embed
