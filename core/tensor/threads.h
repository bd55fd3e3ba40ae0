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
//
// A team degrades gracefully on a shared CPU: a member descheduled by another
// program stalls every barrier of the pass (with one core kept busy, ViT-Ti's
// 2-thread pass took 3-4x its 1-thread time). So each pass (size_team_for_pass,
// called by forward_into, LeanPass, ForwardWalk and backward_into) runs on as
// many of the asked threads as cores are free (free_cores.h): others' busy
// time over a window of at least kTeamWindowSeconds (/proc/stat counts in
// 10 ms ticks), the window renewed by the first pass after it closes. Between
// windows the team stays as decided, so a pass costs a clock read; where
// /proc/stat is missing the team is the asked threads. A reading can misjudge
// (a light or bursty background): where it suggests fewer threads than were
// asked, each block's team is the faster of the two by the time blocks took on
// them (BlockTeam, team_tuner.h).
#pragma once
#include <cstdint>
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

// Sets the calling thread's team for the pass it is about to run: the threads
// set_threads() asked for, fewer when fewer cores are free (see above); where the
// products go to a BLAS, whose numbers change with the team, always the asked
// threads (a block recomputed from the stream must equal the pass's bit for bit).
// Returns the team; inside a parallel region, 1 and nothing changes.
int size_team_for_pass();

// Whether size_team_for_pass() sizes teams to the free cores (the default) or
// always uses the asked threads (vitviz-bench compares the two).
void set_team_sizing(bool to_free_cores);

// One block of a pass on the team the times of earlier blocks choose
// (team_tuner.h): where the reading suggests fewer than the asked threads, the
// faster of the two teams by their latest blocks of the same `work` (any key
// that differs when the blocks' work does). Constructed before the block and
// destroyed after it, it times the block. Inside a parallel region, with the
// sizing off, or where the products go to a BLAS (whose numbers change with the
// team: a block recomputed from the stream must equal the pass's), it leaves the
// team alone.
class BlockTeam {
public:
    explicit BlockTeam(int64_t work);
    ~BlockTeam();
    BlockTeam(const BlockTeam&) = delete;
    BlockTeam& operator=(const BlockTeam&) = delete;

private:
    int64_t work_;
    int team_ = 0;  // 0: left alone
    double start_s_ = 0;
};

// The team the last block ran on (vitviz-bench prints it).
int last_block_team();

// The shortest span of CPU readings a team is sized from.
constexpr double kTeamWindowSeconds = 0.1;

}  // namespace vit
