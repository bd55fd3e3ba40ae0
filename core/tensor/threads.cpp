// The one place that sets the core's thread counts (see threads.h).
#include "tensor/threads.h"

#include <Eigen/Core>
#include <omp.h>

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

void set_threads(int threads) {
    const int count = threads > 0 ? threads : omp_get_num_procs();
#if defined(VITVIZ_BLAS_OPENBLAS)
    openblas_set_num_threads(count);
#elif defined(VITVIZ_BLAS_BLIS)
    bli_thread_set_num_threads(count);
#endif
    omp_set_num_threads(count);
    Eigen::setNbThreads(kBlasProducts ? 1 : count);
}

}  // namespace vit
