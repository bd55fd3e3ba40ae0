// NumPy .npy files (format version 1.0; numpy/lib/format.py): float32 tensors
// in C order, so `numpy.load("block0.attn.npy")` gives the stage as PyTorch
// would. Left out: other dtypes, Fortran order, pickled objects.
#pragma once
#include <string>

#include "tensor/tensor.h"

namespace vit {

// Writes '<f4', fortran_order False, the tensor's shape; throws vit::Error when
// the file cannot be written.
void write_npy(const std::string& path, const Tensor& tensor);

// Reads a '<f4' C-order .npy (version 1.0 or 2.0); throws vit::Error naming the
// file for anything else or when the data does not match the shape.
Tensor read_npy(const std::string& path);

}  // namespace vit
