// The Train panel's run as a job of the worker (worker.h), one bounded piece
// at a time: making the trainer, then one batch a piece, and the held-out
// accuracy (twice an epoch) a few digits a piece. Between batches it takes the
// session's requests (pause, single steps, a new learning rate or batch size)
// from the board they share, and publishes there what the panel shows.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>

#include "logic/jobs/training_session.h"
#include "logic/jobs/worker.h"

namespace vit::gui {

// What a TrainingSession and its job share, under `mutex`.
struct TrainBoard {
    mutable std::mutex mutex;
    bool paused = false;
    int single_steps = 0;
    int pause_at = 0;
    float pending_lr = 0.f;  // > 0: a new peak learning rate
    int pending_batch = 0;   // > 0: a new batch size
    uint64_t version = 0;    // bumps whenever a snapshot is published
    TrainProgress progress;
};

struct TrainRun {
    Model initial;
    std::shared_ptr<const DigitSplit> data;
    TrainOptions options;
    int threads = 1;          // the OpenMP threads of each piece
    int snapshot_every = 25;  // steps between published weights
};

std::shared_ptr<Job> make_training_job(TrainRun run, std::shared_ptr<TrainBoard> board);

}  // namespace vit::gui
