// The Train panel's run in pieces (see training_job.h).
#include "logic/jobs/training_job.h"

#include "tensor/openmp.h"

#include <algorithm>
#include <exception>
#include <optional>

#include "pass/timing.h"

namespace vit::gui {

namespace {

constexpr int kDigitsPerPiece = 64;  // held-out digits measured in one piece

// Each piece runs on `threads` OpenMP threads; the caller's count comes back
// after (a sliced worker runs pieces on the UI thread).
class ScopedThreads {
public:
    explicit ScopedThreads(int threads) : before_(omp_get_max_threads()) { omp_set_num_threads(std::max(1, threads)); }
    ~ScopedThreads() { omp_set_num_threads(before_); }

private:
    int before_;
};

// Thins a curve to at most `limit` points by dropping every other one.
void append_bounded(std::vector<TrainPoint>& curve, TrainPoint p, int limit) {
    curve.push_back(p);
    if (static_cast<int>(curve.size()) <= limit) return;
    std::vector<TrainPoint> kept;
    for (size_t i = 0; i < curve.size(); i += 2) kept.push_back(curve[i]);
    if (kept.back().step != curve.back().step) kept.push_back(curve.back());
    curve = std::move(kept);
}

class TrainJob : public Job {
public:
    TrainJob(TrainRun run, std::shared_ptr<TrainBoard> board) : run_(std::move(run)), board_(std::move(board)) {}
    // Called on the worker's thread, as step() is.
    bool ready() const override {
        std::lock_guard<std::mutex> lock(board_->mutex);
        return !trainer_ || measured_ >= 0 || !board_->paused || board_->single_steps > 0;
    }
    bool step() override {
        const ScopedThreads threads(run_.threads);
        try {
            if (!trainer_) {
                trainer_.emplace(std::move(run_.initial), *run_.data, run_.options);
                std::lock_guard<std::mutex> lock(board_->mutex);
                return show_position();
            }
            if (measured_ >= 0) return measure_piece() || finish_step();
            train_batch();
            return measured_ >= 0 || finish_step();
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(board_->mutex);
            board_->progress.phase = TrainPhase::Failed;
            board_->progress.error = e.what();
            return false;
        }
    }

private:
    void train_batch();
    bool measure_piece();
    bool finish_step();
    bool show_position();
    void publish(float accuracy);

    TrainRun run_;
    std::shared_ptr<TrainBoard> board_;
    std::optional<Trainer> trainer_;  // after run_: it reads run_.data
    float loss_ = 0.f;                // the last batch's
    double recent_ms_ = 0.0;          // a batch's time, smoothed
    int measured_ = -1;               // held-out digits measured so far; −1: not measuring
    int correct_ = 0;                 // of them
};

// One batch, after the session's requests; starts measuring when the step is due for it.
void TrainJob::train_batch() {
    {
        std::lock_guard<std::mutex> lock(board_->mutex);
        TrainBoard& b = *board_;
        if (b.paused) --b.single_steps;
        if (b.pending_lr > 0.f) trainer_->set_peak_lr(b.pending_lr), b.pending_lr = 0.f;
        if (b.pending_batch > 0) {
            trainer_->set_batch(b.pending_batch);
            b.progress.batch = b.pending_batch;
            b.pending_batch = 0;
        }
    }
    const Stopwatch watch;
    loss_ = trainer_->step();
    const double ms = watch.ms();
    recent_ms_ = recent_ms_ > 0 ? 0.9 * recent_ms_ + 0.1 * ms : ms;
    const int step = trainer_->steps_done();
    const int half_epoch = std::max(1, trainer_->steps_per_epoch() / 2);
    if (step % half_epoch == 0 || step == trainer_->total_steps()) measured_ = correct_ = 0;
}

// A few more held-out digits; false once all are measured.
bool TrainJob::measure_piece() {
    const int total = run_.data->held_out.size();
    const int end = std::min(total, measured_ + kDigitsPerPiece);
    correct_ += trainer_->held_out_correct(measured_, end);
    measured_ = end;
    return measured_ < total;
}

// The step's loss (and accuracy) published; false once the run is over.
bool TrainJob::finish_step() {
    const int total = run_.data->held_out.size();
    const bool measured = measured_ >= 0;
    const float accuracy = !measured ? -1.f : total > 0 ? static_cast<float>(correct_) / total : 0.f;
    measured_ = -1;
    const int step = trainer_->steps_done();
    const float epoch = static_cast<float>(step) / trainer_->steps_per_epoch();
    std::lock_guard<std::mutex> lock(board_->mutex);
    TrainBoard& b = *board_;
    if (b.pause_at > 0 && step >= b.pause_at) {
        b.pause_at = 0;
        b.paused = true;
        b.progress.phase = TrainPhase::Paused;
    }
    b.progress.ms_per_step = recent_ms_;
    append_bounded(b.progress.loss, {step, epoch, loss_}, TrainingSession::kMaxLossPoints);
    if (measured) b.progress.accuracy.push_back({step, epoch, accuracy});
    if (measured || step % run_.snapshot_every == 0 || b.paused) publish(accuracy);
    return show_position();
}

// Under the lock: where the run stands; false (and Finished) once every step is done.
bool TrainJob::show_position() {
    TrainProgress& p = board_->progress;
    p.step = trainer_->steps_done();
    p.total_steps = trainer_->total_steps();
    p.steps_per_epoch = trainer_->steps_per_epoch();
    p.lr = trainer_->next_lr();
    if (p.step < p.total_steps) return true;
    p.phase = TrainPhase::Finished;
    return false;
}

// Under the lock: the newest weights into the bounded timeline.
void TrainJob::publish(float accuracy) {
    const int step = trainer_->steps_done();
    TrainSnapshot snap{step, static_cast<float>(step) / trainer_->steps_per_epoch(), accuracy,
                       std::make_shared<const Model>(trainer_->model())};
    std::vector<TrainSnapshot>& all = board_->progress.snapshots;
    if (!all.empty() && all.back().step == step) all.back() = std::move(snap);
    else all.push_back(std::move(snap));
    if (static_cast<int>(all.size()) > TrainingSession::kMaxSnapshots) {
        // Keep the first, every other one after it, and the newest: the timeline stays
        // spread over the whole run in bounded memory.
        std::vector<TrainSnapshot> kept;
        for (size_t i = 0; i + 1 < all.size(); i += 2) kept.push_back(std::move(all[i]));
        kept.push_back(std::move(all.back()));
        all = std::move(kept);
    }
    ++board_->version;
}

}  // namespace

std::shared_ptr<Job> make_training_job(TrainRun run, std::shared_ptr<TrainBoard> board) {
    return std::make_shared<TrainJob>(std::move(run), std::move(board));
}

}  // namespace vit::gui
