// The team of each block of a pass, chosen by what teams achieve: the free-core
// reading (free_cores.h) suggests a team, and when it suggests fewer threads
// than were asked, blocks are timed on both and the faster team runs the next
// ones. A reading misjudges a machine whose background is light or bursty (a
// program that wakes for a millisecond, another's idle threads spinning): its
// team wastes a free core, or a team of all the cores stalls on a busy one.
// Timing blocks settles it, since every block of a pass is the same work. The
// team not chosen is tried again after a while that starts at
// kFirstRetrySeconds (or kFirstRetryBlocks of its blocks) and doubles each
// time it loses, up to kRetrySeconds (or kRetryBlocks blocks): one block timed
// at a noisy moment (another program's threads spinning down) is soon
// corrected, while on a machine that stays busy the slow team runs at most one
// block in kRetryBlocks. The clock is passed in, so the rule is tested
// with the times it is given (tests/core/tensor/test_threads.cpp).
#pragma once
#include <cstdint>
#include <map>

namespace vit {

class TeamTuner {
public:
    // How old the other team's time may grow before a block tries it again: at first, and at most.
    static constexpr double kFirstRetrySeconds = 0.02, kRetrySeconds = 0.5;
    static constexpr double kFirstRetryBlocks = 8, kRetryBlocks = 32;

    // The team for the next block of `work` (blocks of equal work compare; another work starts
    // afresh): `asked` when the reading suggests it; else the faster of `suggested` and `asked`
    // by their latest block times, a team with no time or one past its retry tried first.
    int choose(int suggested, int asked, int64_t work, double now_s);
    // A block of `work` ran on `team` in `seconds`, ending at `now_s`; slower than another team's
    // latest, its retry doubles, else it is back to the first.
    void record(int team, int64_t work, double seconds, double now_s);

private:
    struct Timed {
        double seconds = 0, at_s = 0, retry_s = kFirstRetrySeconds;
    };
    void start_work(int64_t work);
    bool fresh(int team, double now_s) const;

    int64_t work_ = -1;
    std::map<int, Timed> latest_;  // by team size
};

}  // namespace vit
