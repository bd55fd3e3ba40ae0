// Who runs the core's threads. `--threads T` sets them all here: the core's own
// OpenMP loops and the matrix products. The core's own kernel (gemm.h, the
// forward pass with AVX-512) is single-threaded: linear() and the per-head
// attention loops split it. With a BLAS behind Eigen's products (CMake
// VITVIZ_BLAS; the backward pass, or the forward without AVX-512) the BLAS
// splits a product called outside the core's parallel regions over T threads of
// the same OpenMP runtime, runs single-threaded inside them, and Eigen does not
// split products again; without one, Eigen's GEMM does. Never two teams at once.
#pragma once

namespace vit {

// Threads used by the core (OpenMP loops and matrix products); 0 = all cores.
void set_threads(int threads);

}  // namespace vit
