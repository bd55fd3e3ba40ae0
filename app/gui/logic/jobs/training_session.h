// "Train it yourself": a digits ViT trained as a job of the worker (worker.h:
// a thread of its own, or slices of the UI thread's frames) while the window
// keeps drawing. The job (training_job.h) runs vit::Trainer one batch a piece
// and publishes what the Train panel shows: the loss of every step, the
// held-out accuracy twice an epoch, and snapshots of the weights (a bounded
// timeline a student scrubs back through). Pause, resume, single steps and live
// changes of the learning rate and batch size are requests the job takes
// between batches. No window: tests/app drive it directly.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "formats/image.h"
#include "logic/jobs/worker.h"
#include "model/model.h"
#include "train/digit_set.h"
#include "train/training.h"

namespace vit::gui {

struct TrainPoint {
    int step = 0;       // optimisation steps done when measured
    float epoch = 0.f;  // step / steps per epoch
    float value = 0.f;  // a batch's loss, or the held-out accuracy (0…1)
};

struct TrainSnapshot {
    int step = 0;
    float epoch = 0.f;
    float accuracy = -1.f;               // held-out accuracy at this step; −1: not measured
    std::shared_ptr<const Model> model;  // the weights after `step` steps
};

enum class TrainPhase { Idle, Running, Paused, Finished, Failed };

// A copy of the session's progress for one frame of the UI.
struct TrainProgress {
    TrainPhase phase = TrainPhase::Idle;
    int step = 0, total_steps = 0, steps_per_epoch = 1, batch = 0;
    float lr = 0.f;            // the learning rate of the next step
    double ms_per_step = 0.0;  // over the last steps
    std::vector<TrainPoint> loss, accuracy;
    std::vector<TrainSnapshot> snapshots;  // oldest first; the last is the newest weights
    std::string error;                     // TrainPhase::Failed: what went wrong
};

struct TrainBoard;

class TrainingSession {
public:
    static constexpr int kMaxSnapshots = 64;  // older ones are thinned out (every other dropped)
    static constexpr int kMaxLossPoints = 4096;

    explicit TrainingSession(std::shared_ptr<Worker> worker);
    ~TrainingSession();

    // Starts a run (ending any previous one) from `initial` on `data`, with `threads` threads.
    // `snapshot_every` steps the newest weights are published (and kept in the timeline).
    // `paused`: the run waits for resume() or step_once() before its first batch.
    void start(Model initial, std::shared_ptr<const DigitSplit> data, const TrainOptions& options, int threads,
               int snapshot_every = 25, bool paused = false);
    void stop();  // ends the run; its progress stays readable
    void pause();
    void resume();
    void step_once();  // while paused: one more batch
    // The run pauses (and publishes its weights) once `step` steps are done; 0: no such stop.
    void pause_at(int step);
    void set_peak_lr(float lr);  // taken before the next batch
    void set_batch(int batch);

    TrainProgress progress() const;
    // Bumps whenever a snapshot is published (the app reruns the view on it).
    uint64_t version() const;
    std::shared_ptr<const Model> latest() const;

private:
    void wake();  // the job may have work again

    std::shared_ptr<Worker> worker_;
    std::shared_ptr<TrainBoard> board_;
    std::unique_ptr<Task> task_;  // last: destroyed first, cancelling the run
};

// The snapshot to show: the newest when `follow`, else snapshots[index] (clamped); null when none.
const TrainSnapshot* choose_snapshot(const TrainProgress& progress, bool follow, int index);

// A held-out digit as the 1×28×28 image the loader takes (values in [0,1]).
Image digit_image(const DigitSet& set, int index);

}  // namespace vit::gui
