// Who runs the core's threads. `--threads T` sets them all here: the core's own
// OpenMP loops and the matrix products. The core's own kernel (gemm.h, the
// forward pass with AVX-512) is single-threaded: linear() and the per-head
// attention loops split it. With a BLAS behind Eigen's products (CMake
// VITVIZ_BLAS; the backward pass, or the forward without AVX-512) the BLAS
// splits a product called outside the core's parallel regions over T threads of
// the same OpenMP runtime, runs single-threaded inside them, and Eigen does not
// split products again; without one, Eigen's GEMM does. Never two teams at once.
// No more threads than the machine has cores: more only slow the pass down, and
// under an address-space limit (ulimit -v) OpenBLAS retries their failing
// buffers for ever, so --threads above it is refused and set_threads() caps it.
#pragma once
#include <string>

namespace vit {

// The cores this machine has (std::thread::hardware_concurrency()), at least 1.
int machine_threads();

// The value of --threads (vitviz-cli, its --train): a whole number from 1 to
// machine_threads(), or vit::Error "--threads (this machine has 2 cores): expected …".
int parse_threads(const std::string& flag, const std::string& text);

// Threads used by the core (OpenMP loops and matrix products); 0 = all cores,
// and never more than machine_threads().
void set_threads(int threads);

}  // namespace vit
