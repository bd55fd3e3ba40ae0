// Tensor storage, Eigen views and shape printing.
#include "tensor/tensor.h"

#include <cassert>
#include <new>

namespace vit {

// The element count of `shape` as storage holds it; std::bad_alloc when it cannot (more than
// the address space: a 32-bit page's 4 GB, where a size_t product would wrap round).
static size_t storage_size(const std::vector<int64_t>& shape) {
    double count = 1;
    for (int64_t s : shape) count *= static_cast<double>(s);
    if (count > static_cast<double>(FloatStorage().max_size())) throw std::bad_alloc();
    return static_cast<size_t>(count);
}

Tensor::Tensor(std::vector<int64_t> shape_) : shape(std::move(shape_)), data(storage_size(shape)) {}

int64_t Tensor::numel() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
}

int64_t Tensor::cols() const { return shape.empty() ? 1 : shape.back(); }

int64_t Tensor::rows() const { return cols() == 0 ? 0 : numel() / cols(); }

MatMap Tensor::mat() { return MatMap(data.data(), rows(), cols()); }

ConstMatMap Tensor::mat() const { return ConstMatMap(data.data(), rows(), cols()); }

MatMap Tensor::slice(int64_t i) {
    assert(rank() == 3 && i >= 0 && i < shape[0]);
    return MatMap(data.data() + i * shape[1] * shape[2], shape[1], shape[2]);
}

ConstMatMap Tensor::slice(int64_t i) const {
    assert(rank() == 3 && i >= 0 && i < shape[0]);
    return ConstMatMap(data.data() + i * shape[1] * shape[2], shape[1], shape[2]);
}

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    return s + ")";
}

}  // namespace vit
