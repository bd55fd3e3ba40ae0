// A dense float32 tensor in C (row-major) order with its shape, the unit every
// Trace stage holds. Eigen views (rows × cols) are made over its storage so the
// forward pass writes each stage in place instead of copying it.
#pragma once
#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace vit {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXf;
using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
// Read-only matrix parameter: binds a Mat, a Map or a block without copying.
using ConstMatRef = Eigen::Ref<const Mat>;

// Loops over fewer elements than this run on one thread: for the toy and the
// digits model, waking a thread team costs more than the work.
constexpr int64_t kParallelMinElements = 1 << 15;

// Tensor storage aligned as Eigen's packets want (64 bytes with AVX-512): a vectorised
// sum then splits its work the same way in every run, wherever the heap put the
// buffer, so a pass, its gradients and a training run repeat bit for bit.
using FloatStorage = std::vector<float, Eigen::aligned_allocator<float>>;

struct Tensor {
    std::vector<int64_t> shape;
    FloatStorage data;

    Tensor() = default;
    // Zeros of `shape_`; std::bad_alloc when their count exceeds what the address space holds.
    explicit Tensor(std::vector<int64_t> shape_);

    int64_t numel() const;
    int rank() const { return static_cast<int>(shape.size()); }
    // Size of the last axis, and the product of all the others.
    int64_t cols() const;
    int64_t rows() const;
    // The whole tensor as a (rows × cols) matrix, or matrix `i` of a rank-3 tensor.
    MatMap mat();
    ConstMatMap mat() const;
    MatMap slice(int64_t i);
    ConstMatMap slice(int64_t i) const;
};

// "(197, 768)" — shapes as PyTorch prints them.
std::string shape_string(const std::vector<int64_t>& shape);

}  // namespace vit
