// The team of each block of a pass, chosen by what teams achieve: the free-core
// reading (free_cores.h) suggests a team, and when it suggests fewer threads
// than were asked, blocks are timed on both and the faster team runs the next
// ones. A reading misjudges a machine whose background is light or bursty (a
// program that wakes for a millisecond, another's idle threads spinning): its
// team wastes a free core, or a team of all the cores stalls on a busy one.
// Timing blocks settles it, since every block of a pass is the same work: a
// block on the other team is tried again once its time is kRetrySeconds old,
// so the choice follows the machine as its load changes. The clock is passed
// in, so the rule is tested with the times it is given (tests/core).
#pragma once
#include <cstdint>
#include <map>

namespace vit {

class TeamTuner {
public:
    // How old the other team's time may grow before a block tries it again.
    static constexpr double kRetrySeconds = 0.5;

    // The team for the next block of `work` (blocks of equal work compare; another work starts
    // afresh): `asked` when the reading suggests it; else the faster of `suggested` and `asked`
    // by their latest block times, a team with no time or a stale one tried first.
    int choose(int suggested, int asked, int64_t work, double now_s);
    // A block of `work` ran on `team` in `seconds`, ending at `now_s`.
    void record(int team, int64_t work, double seconds, double now_s);

private:
    struct Timed {
        double seconds = 0, at_s = 0;
    };
    void start_work(int64_t work);
    bool fresh(int team, double now_s) const;

    int64_t work_ = -1;
    std::map<int, Timed> latest_;  // by team size
};

}  // namespace vit
