// The one place that sets the core's thread counts (see threads.h).
#include "tensor/threads.h"

#include <Eigen/Core>
#include <algorithm>
#include <omp.h>
#include <thread>

#include "base/parse.h"

#if defined(VITVIZ_BLAS_OPENBLAS)
#include <cblas.h>
#elif defined(VITVIZ_BLAS_BLIS)
#define BLIS_DISABLE_BLAS_DEFS  // Eigen declares the Fortran BLAS itself
#include <blis.h>
#endif

namespace vit {

// True when Eigen's products call a BLAS (EIGEN_USE_BLAS), which then threads them.
#ifdef EIGEN_USE_BLAS
constexpr bool kBlasProducts = true;
#else
constexpr bool kBlasProducts = false;
#endif

int machine_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

int parse_threads(const std::string& flag, const std::string& text) {
    const int cores = machine_threads();
    return parse_int(flag + " (this machine has " + std::to_string(cores) + (cores == 1 ? " core)" : " cores)"), text, 1,
                     cores);
}

void set_threads(int threads) {
    const int count = threads > 0 ? std::min(threads, machine_threads()) : omp_get_num_procs();
#if defined(VITVIZ_BLAS_OPENBLAS)
    openblas_set_num_threads(count);
#elif defined(VITVIZ_BLAS_BLIS)
    bli_thread_set_num_threads(count);
#endif
    omp_set_num_threads(count);
    Eigen::setNbThreads(kBlasProducts ? 1 : count);
}

}  // namespace vit
