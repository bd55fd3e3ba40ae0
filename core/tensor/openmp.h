// OpenMP, or its serial answers where a build has none: every native build
// compiles with OpenMP; the single-threaded WebAssembly build (app/web) does not,
// and there every team is one thread that is never inside a parallel region
// (the `#pragma omp` lines are then ignored). And the split of items over a team.
#pragma once
#ifdef _OPENMP
#include <omp.h>
#else
inline int omp_get_num_procs() { return 1; }
inline int omp_get_max_threads() { return 1; }
inline int omp_get_num_threads() { return 1; }
inline int omp_get_thread_num() { return 0; }
inline int omp_in_parallel() { return 0; }
inline int omp_get_dynamic() { return 0; }
inline void omp_set_num_threads(int) {}
inline void omp_set_dynamic(int) {}
#endif

#include <cstdint>

namespace vit {

// The calling thread's items [begin, end) of `count` split in order over its team,
// as evenly as whole items allow (outside a parallel region: all of them).
struct ThreadShare {
    int64_t begin, end;
};
inline ThreadShare thread_share(int64_t count) {
    const int64_t team = omp_get_num_threads(), id = omp_get_thread_num();
    return {count * id / team, count * (id + 1) / team};
}

}  // namespace vit
