// The Train panel's run: the session's side (see training_session.h); the
// job's side is training_job.cpp.
#include "logic/jobs/training_session.h"

#include <algorithm>

#include "base/bounds.h"
#include "logic/jobs/training_job.h"

namespace vit::gui {

TrainingSession::TrainingSession(std::shared_ptr<Worker> worker)
    : worker_(std::move(worker)), board_(std::make_shared<TrainBoard>()) {}

TrainingSession::~TrainingSession() { stop(); }

void TrainingSession::start(Model initial, std::shared_ptr<const DigitSplit> data, const TrainOptions& options,
                            int threads, int snapshot_every, bool paused) {
    stop();
    {
        std::lock_guard<std::mutex> lock(board_->mutex);
        TrainBoard& b = *board_;
        b.paused = paused;
        b.single_steps = 0;
        b.pause_at = 0;
        b.pending_lr = 0.f;
        b.pending_batch = 0;
        b.progress = TrainProgress{};
        b.progress.phase = paused ? TrainPhase::Paused : TrainPhase::Running;
        b.progress.batch = options.batch;
        b.progress.snapshots.push_back({0, 0.f, -1.f, std::make_shared<const Model>(initial)});
        ++b.version;
    }
    TrainRun run{std::move(initial), std::move(data), options, threads, std::max(1, snapshot_every)};
    task_ = worker_->submit(make_training_job(std::move(run), board_));
}

void TrainingSession::stop() { task_.reset(); }

void TrainingSession::wake() {
    if (task_) task_->wake();
}

void TrainingSession::pause() {
    std::lock_guard<std::mutex> lock(board_->mutex);
    if (board_->progress.phase == TrainPhase::Running)
        board_->paused = true, board_->progress.phase = TrainPhase::Paused;
}

void TrainingSession::resume() {
    {
        std::lock_guard<std::mutex> lock(board_->mutex);
        if (board_->progress.phase != TrainPhase::Paused) return;
        board_->paused = false;
        board_->progress.phase = TrainPhase::Running;
    }
    wake();
}

void TrainingSession::step_once() {
    {
        std::lock_guard<std::mutex> lock(board_->mutex);
        if (board_->progress.phase != TrainPhase::Paused) return;
        ++board_->single_steps;
    }
    wake();
}

void TrainingSession::pause_at(int step) {
    std::lock_guard<std::mutex> lock(board_->mutex);
    board_->pause_at = std::max(0, step);
}

void TrainingSession::set_peak_lr(float lr) {
    std::lock_guard<std::mutex> lock(board_->mutex);
    if (lr > 0.f) board_->pending_lr = lr;
}

void TrainingSession::set_batch(int batch) {
    std::lock_guard<std::mutex> lock(board_->mutex);
    if (batch > 0) board_->pending_batch = std::min(batch, kMaxTrainingBatch);
}

TrainProgress TrainingSession::progress() const {
    std::lock_guard<std::mutex> lock(board_->mutex);
    return board_->progress;
}

uint64_t TrainingSession::version() const {
    std::lock_guard<std::mutex> lock(board_->mutex);
    return board_->version;
}

std::shared_ptr<const Model> TrainingSession::latest() const {
    std::lock_guard<std::mutex> lock(board_->mutex);
    const std::vector<TrainSnapshot>& all = board_->progress.snapshots;
    return all.empty() ? nullptr : all.back().model;
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
