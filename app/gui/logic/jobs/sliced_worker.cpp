// The sliced worker (worker.h): the submitted jobs' pieces run on the caller's
// thread from advance(), until its time budget is spent.
#include <algorithm>

#include "pass/timing.h"
#include "logic/jobs/worker.h"

namespace vit::gui {

struct SlicedWorker::Entry {
    std::shared_ptr<Job> job;  // null once finished or cancelled
    bool finished = false;
};

namespace {

class SlicedTask : public Task {
public:
    explicit SlicedTask(std::shared_ptr<SlicedWorker::Entry> entry) : entry_(std::move(entry)) {}
    ~SlicedTask() override { entry_->job.reset(); }  // the worker drops it on its next advance()
    bool finished() const override { return entry_->finished; }
    void wake() override {}  // advance() asks ready() every time

private:
    std::shared_ptr<SlicedWorker::Entry> entry_;
};

}  // namespace

std::unique_ptr<Task> SlicedWorker::submit(std::shared_ptr<Job> job) {
    auto entry = std::make_shared<Entry>();
    entry->job = std::move(job);
    entries_.push_back(entry);
    return std::make_unique<SlicedTask>(std::move(entry));
}

bool SlicedWorker::idle() const {
    return std::none_of(entries_.begin(), entries_.end(), [](const auto& e) { return e->job && e->job->ready(); });
}

void SlicedWorker::advance(double budget_ms) {
    const Stopwatch watch;
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [](const auto& e) { return !e->job; }),
                   entries_.end());
    size_t idle_in_a_row = 0;  // entries passed over since the last piece: all of them ends the slice
    bool ran = false;          // at least one piece, however small the budget
    while (!entries_.empty() && idle_in_a_row < entries_.size() && (!ran || watch.ms() < budget_ms)) {
        const std::shared_ptr<Entry> e = entries_[next_++ % entries_.size()];
        const std::shared_ptr<Job> job = e->job;
        if (!job || !job->ready()) {
            ++idle_in_a_row;
            continue;
        }
        idle_in_a_row = 0;
        ran = true;
        const Stopwatch piece;
        if (!job->step()) {
            e->finished = true;
            e->job.reset();
        }
        longest_piece_ms_ = std::max(longest_piece_ms_, piece.ms());
    }
    longest_advance_ms_ = std::max(longest_advance_ms_, watch.ms());
}

}  // namespace vit::gui
