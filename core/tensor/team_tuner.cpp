// TeamTuner (team_tuner.h): each block's team from the latest block times of the two candidates,
// the loser's retry backing off.
#include "tensor/team_tuner.h"

#include <algorithm>

namespace vit {

void TeamTuner::start_work(int64_t work) {
    if (work == work_) return;
    work_ = work;
    latest_.clear();
}

bool TeamTuner::fresh(int team, double now_s) const {
    const auto it = latest_.find(team);
    return it != latest_.end() && now_s - it->second.at_s < it->second.retry_s;
}

int TeamTuner::choose(int suggested, int asked, int64_t work, double now_s) {
    start_work(work);
    if (suggested >= asked) return asked;
    if (!fresh(suggested, now_s)) return suggested;  // the reading's team first: the safe one on a busy machine
    if (!fresh(asked, now_s)) return asked;
    return latest_.at(asked).seconds < latest_.at(suggested).seconds ? asked : suggested;
}

void TeamTuner::record(int team, int64_t work, double seconds, double now_s) {
    start_work(work);
    bool slower = false;
    for (const auto& [other, timed] : latest_) slower = slower || (other != team && timed.seconds < seconds);
    Timed& t = latest_[team];
    const double first = std::max(kFirstRetrySeconds, kFirstRetryBlocks * seconds);
    t.retry_s = slower ? std::clamp(2 * t.retry_s, first, std::max(kRetrySeconds, kRetryBlocks * seconds)) : first;
    t.seconds = seconds;
    t.at_s = now_s;
}

}  // namespace vit
