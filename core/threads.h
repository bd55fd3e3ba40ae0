// Who runs the core's threads. `--threads T` sets them all here: the core's own
// OpenMP loops and the matrix products. With a BLAS behind the products
// (CMake VITVIZ_BLAS) the BLAS splits a product called outside the core's
// parallel regions over T threads of the same OpenMP runtime, runs single-threaded
// inside them (linear()'s split of big layers, the per-head attention loops),
// and Eigen does not split products again; without one, Eigen's GEMM does.
// Never two teams at once.
#pragma once

namespace vit {

// Threads used by the core (OpenMP loops and matrix products); 0 = all cores.
void set_threads(int threads);

}  // namespace vit
