// The Train panel's background run (see training_session.h).
#include "logic/jobs/training_session.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <exception>

#include "base/timing.h"

namespace vit::gui {

TrainingSession::~TrainingSession() { stop(); }

void TrainingSession::start(Model initial, std::shared_ptr<const DigitSplit> data, const TrainOptions& options,
                            int threads, int snapshot_every, bool paused) {
    stop();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = false;
        paused_ = paused;
        single_steps_ = 0;
        pause_at_ = 0;
        pending_lr_ = 0.f;
        pending_batch_ = 0;
        progress_ = TrainProgress{};
        progress_.phase = paused ? TrainPhase::Paused : TrainPhase::Running;
        progress_.batch = options.batch;
        progress_.snapshots.push_back({0, 0.f, -1.f, std::make_shared<const Model>(initial)});
        ++version_;
    }
    worker_ = std::thread(&TrainingSession::run, this, std::move(initial), std::move(data), options, threads,
                          std::max(1, snapshot_every));
}

void TrainingSession::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void TrainingSession::pause() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (progress_.phase == TrainPhase::Running) paused_ = true, progress_.phase = TrainPhase::Paused;
}

void TrainingSession::resume() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (progress_.phase != TrainPhase::Paused) return;
        paused_ = false;
        progress_.phase = TrainPhase::Running;
    }
    wake_.notify_all();
}

void TrainingSession::step_once() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (progress_.phase != TrainPhase::Paused) return;
        ++single_steps_;
    }
    wake_.notify_all();
}

void TrainingSession::pause_at(int step) {
    std::lock_guard<std::mutex> lock(mutex_);
    pause_at_ = std::max(0, step);
}

void TrainingSession::set_peak_lr(float lr) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (lr > 0.f) pending_lr_ = lr;
}

void TrainingSession::set_batch(int batch) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (batch > 0) pending_batch_ = batch;
}

TrainProgress TrainingSession::progress() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return progress_;
}

uint64_t TrainingSession::version() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return version_;
}

std::shared_ptr<const Model> TrainingSession::latest() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return progress_.snapshots.empty() ? nullptr : progress_.snapshots.back().model;
}

void TrainingSession::publish(const Trainer& trainer, float accuracy) {
    const int step = trainer.steps_done();
    TrainSnapshot snap{step, static_cast<float>(step) / trainer.steps_per_epoch(), accuracy,
                       std::make_shared<const Model>(trainer.model())};
    std::vector<TrainSnapshot>& all = progress_.snapshots;
    if (!all.empty() && all.back().step == step) all.back() = std::move(snap);
    else all.push_back(std::move(snap));
    if (static_cast<int>(all.size()) > kMaxSnapshots) {
        // Keep the first, every other one after it, and the newest: the timeline stays
        // spread over the whole run in bounded memory.
        std::vector<TrainSnapshot> kept;
        for (size_t i = 0; i + 1 < all.size(); i += 2) kept.push_back(std::move(all[i]));
        kept.push_back(std::move(all.back()));
        all = std::move(kept);
    }
    ++version_;
}

// Thins a curve to at most `limit` points by dropping every other one.
static void append_bounded(std::vector<TrainPoint>& curve, TrainPoint p, int limit) {
    curve.push_back(p);
    if (static_cast<int>(curve.size()) <= limit) return;
    std::vector<TrainPoint> kept;
    for (size_t i = 0; i < curve.size(); i += 2) kept.push_back(curve[i]);
    if (kept.back().step != curve.back().step) kept.push_back(curve.back());
    curve = std::move(kept);
}

void TrainingSession::run(Model initial, std::shared_ptr<const DigitSplit> data, TrainOptions options, int threads,
                          int snapshot_every) {
    omp_set_num_threads(std::max(1, threads));  // this thread's OpenMP teams only; the window keeps the rest
    try {
        Trainer trainer(std::move(initial), *data, options);
        double recent_ms = 0.0;
        while (true) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                progress_.step = trainer.steps_done();
                progress_.total_steps = trainer.total_steps();
                progress_.steps_per_epoch = trainer.steps_per_epoch();
                progress_.lr = trainer.next_lr();
                if (trainer.steps_done() >= trainer.total_steps()) {
                    progress_.phase = TrainPhase::Finished;
                    return;
                }
                wake_.wait(lock, [&] { return stop_ || !paused_ || single_steps_ > 0; });
                if (stop_) return;
                if (paused_) --single_steps_;
                if (pending_lr_ > 0.f) trainer.set_peak_lr(pending_lr_), pending_lr_ = 0.f;
                if (pending_batch_ > 0) {
                    trainer.set_batch(pending_batch_);
                    progress_.batch = pending_batch_;
                    pending_batch_ = 0;
                }
            }
            const Stopwatch watch;
            const float loss = trainer.step();
            const double ms = watch.ms();
            recent_ms = recent_ms > 0 ? 0.9 * recent_ms + 0.1 * ms : ms;
            const int step = trainer.steps_done();
            const float epoch = static_cast<float>(step) / trainer.steps_per_epoch();
            const int half_epoch = std::max(1, trainer.steps_per_epoch() / 2);
            const bool measure = step % half_epoch == 0 || step == trainer.total_steps();
            const float accuracy = measure ? trainer.held_out_accuracy() : -1.f;  // outside the lock: ~0.5 s
            std::lock_guard<std::mutex> lock(mutex_);
            if (pause_at_ > 0 && step >= pause_at_) {
                pause_at_ = 0;
                paused_ = true;
                progress_.phase = TrainPhase::Paused;
            }
            progress_.ms_per_step = recent_ms;
            append_bounded(progress_.loss, {step, epoch, loss}, kMaxLossPoints);
            if (measure) progress_.accuracy.push_back({step, epoch, accuracy});
            if (measure || step % snapshot_every == 0 || paused_) publish(trainer, accuracy);
        }
    } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        progress_.phase = TrainPhase::Failed;
        progress_.error = e.what();
    }
}

const TrainSnapshot* choose_snapshot(const TrainProgress& progress, bool follow, int index) {
    const std::vector<TrainSnapshot>& all = progress.snapshots;
    if (all.empty()) return nullptr;
    if (follow) return &all.back();
    return &all[static_cast<size_t>(std::clamp(index, 0, static_cast<int>(all.size()) - 1))];
}

Image digit_image(const DigitSet& set, int index) {
    Image img;
    img.channels = 1;
    img.height = img.width = kDigitSide;
    img.data.assign(set.image(index), set.image(index) + kDigitPixels);
    return img;
}

}  // namespace vit::gui
