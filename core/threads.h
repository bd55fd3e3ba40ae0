// Who runs the core's threads. `--threads T` sets them all here: the core's own
// OpenMP loops and the matrix products. With a BLAS behind the products
// (CMake VITVIZ_BLAS) the BLAS splits each product over T threads from the same
// OpenMP runtime and Eigen does not split them again; without one, Eigen's GEMM
// and linear()'s split of the output features do. Never two teams at once.
#pragma once

namespace vit {

// True when Eigen's products call a BLAS (EIGEN_USE_BLAS), which then threads them.
#ifdef EIGEN_USE_BLAS
constexpr bool kBlasProducts = true;
#else
constexpr bool kBlasProducts = false;
#endif

// Threads used by the core (OpenMP loops and matrix products); 0 = all cores.
void set_threads(int threads);

}  // namespace vit
