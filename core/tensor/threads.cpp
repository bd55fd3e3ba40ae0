// The one place that sets the core's thread counts and sizes each pass's team (see threads.h).
#include "tensor/threads.h"

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <mutex>
#include "tensor/openmp.h"
#include <thread>

#include "base/parse.h"
#include "tensor/free_cores.h"
#include "tensor/gemm.h"
#include "tensor/team_tuner.h"

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

namespace {

// The threads asked for (0 until set_threads: all cores) and the team last decided.
std::atomic<int> asked_threads{0}, decided_team{0}, applied_library_team{0};
std::atomic<bool> sizing_to_free_cores{true};

// The window of CPU readings the next team is decided from.
struct TeamWindow {
    std::mutex mutex;
    std::optional<CpuReading> start;
    bool proc_missing = false;
};
TeamWindow team_window;

int asked() {
    const int threads = asked_threads.load();
    return threads > 0 ? std::min(threads, machine_threads()) : omp_get_num_procs();
}

// The BLAS's and Eigen's threads, shared by the whole process: set when the team changes.
void apply_library_team(int team) {
    if (applied_library_team.exchange(team) == team) return;
#if defined(VITVIZ_BLAS_OPENBLAS)
    openblas_set_num_threads(team);
#elif defined(VITVIZ_BLAS_BLIS)
    bli_thread_set_num_threads(team);
#endif
    Eigen::setNbThreads(kBlasProducts ? 1 : team);
}

// The team for the next pass: renewed from the window once it spans kTeamWindowSeconds. Inside the
// window it costs a clock read (steady_seconds, the clock of read_cpu's wall_s): every block asks.
int next_team(int wanted) {
    std::lock_guard<std::mutex> lock(team_window.mutex);
    if (team_window.proc_missing) return wanted;
    if (team_window.start && steady_seconds() - team_window.start->wall_s < kTeamWindowSeconds) {
        const int decided = decided_team.load();
        return decided > 0 ? std::min(decided, wanted) : wanted;
    }
    const std::optional<CpuReading> now = read_cpu();
    if (!now) {
        team_window.proc_missing = true;
        return wanted;
    }
    if (!team_window.start) {
        team_window.start = now;
        return wanted;
    }
    const int team = team_for(*team_window.start, *now, machine_threads(), wanted);
    team_window.start = now;
    decided_team.store(team);
    return team;
}

// The blocks' tuner, shared by every pass of the process (the app's worker and its views).
struct BlockTuning {
    std::mutex mutex;
    TeamTuner tuner;
};
BlockTuning block_tuning;
std::atomic<int> last_team{0};

// The team a pass uses now: the library's threads and OpenMP's.
void use_team(int team) {
    apply_library_team(team);
    omp_set_num_threads(team);
}

}  // namespace

int machine_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

int parse_threads(const std::string& flag, const std::string& text) {
    const int cores = machine_threads();
    return parse_int(flag + " (this machine has " + std::to_string(cores) + (cores == 1 ? " core)" : " cores)"), text,
                     1, cores);
}

void set_threads(int threads) {
    asked_threads.store(std::max(threads, 0));
    decided_team.store(0);
    const int count = asked();
    use_team(count);
}

int size_team_for_pass() {
    if (omp_in_parallel()) return 1;
    const int wanted = asked();
    const int team = wanted > 1 && sizing_to_free_cores.load() && own_gemm_kernel() ? next_team(wanted) : wanted;
    use_team(team);
    return team;
}

void set_team_sizing(bool to_free_cores) { sizing_to_free_cores.store(to_free_cores); }

BlockTeam::BlockTeam(int64_t work) : work_(work) {
    const int wanted = asked();
    // A BLAS's numbers depend on how a product is cut over the team (the core's own kernels' do not):
    // there a block keeps the asked team, as a pass does (size_team_for_pass), so that a block
    // recomputed from the stream equals the pass's.
    if (omp_in_parallel() || wanted < 2 || !sizing_to_free_cores.load() || !own_gemm_kernel()) return;
    const int suggested = next_team(wanted);
    start_s_ = steady_seconds();
    {
        std::lock_guard<std::mutex> lock(block_tuning.mutex);
        team_ = block_tuning.tuner.choose(suggested, wanted, work_, start_s_);
    }
    use_team(team_);
    last_team.store(team_);
}

BlockTeam::~BlockTeam() {
    if (team_ == 0) return;
    const double now = steady_seconds();
    std::lock_guard<std::mutex> lock(block_tuning.mutex);
    block_tuning.tuner.record(team_, work_, now - start_s_, now);
}

int last_block_team() { return last_team.load(); }

}  // namespace vit
