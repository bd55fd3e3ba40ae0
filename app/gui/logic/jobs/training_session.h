// "Train it yourself": a digits ViT trained on a background thread while the
// window keeps drawing. The worker runs vit::Trainer one batch at a time and
// publishes what the Train panel shows: the loss of every step, the held-out
// accuracy twice an epoch, and snapshots of the weights (a bounded timeline a
// student scrubs back through). Pause, resume, single steps and live changes
// of the learning rate and batch size are requests the worker takes between
// batches. Plain C++ and threads, no window: tests/app drive it directly.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "train/digit_set.h"
#include "formats/image.h"
#include "model/model.h"
#include "train/training.h"

namespace vit::gui {

struct TrainPoint {
    int step = 0;          // optimisation steps done when measured
    float epoch = 0.f;     // step / steps per epoch
    float value = 0.f;     // a batch's loss, or the held-out accuracy (0…1)
};

struct TrainSnapshot {
    int step = 0;
    float epoch = 0.f;
    float accuracy = -1.f;                // held-out accuracy at this step; −1: not measured
    std::shared_ptr<const Model> model;   // the weights after `step` steps
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

class TrainingSession {
public:
    static constexpr int kMaxSnapshots = 64;  // older ones are thinned out (every other dropped)
    static constexpr int kMaxLossPoints = 4096;

    ~TrainingSession();

    // Starts a run (ending any previous one) from `initial` on `data`, with `threads` threads.
    // `snapshot_every` steps the newest weights are published (and kept in the timeline).
    // `paused`: the run waits for resume() or step_once() before its first batch.
    void start(Model initial, std::shared_ptr<const DigitSplit> data, const TrainOptions& options, int threads,
               int snapshot_every = 25, bool paused = false);
    void stop();                  // ends the run; its progress stays readable
    void pause();
    void resume();
    void step_once();             // while paused: one more batch
    // The run pauses (and publishes its weights) once `step` steps are done; 0: no such stop.
    void pause_at(int step);
    void set_peak_lr(float lr);   // taken before the next batch
    void set_batch(int batch);

    TrainProgress progress() const;
    // Bumps whenever a snapshot is published (the app reruns the view on it).
    uint64_t version() const;
    std::shared_ptr<const Model> latest() const;

private:
    void run(Model initial, std::shared_ptr<const DigitSplit> data, TrainOptions options, int threads,
             int snapshot_every);
    void publish(const Trainer& trainer, float accuracy);  // under the lock

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::thread worker_;
    bool stop_ = false, paused_ = false;
    int single_steps_ = 0;
    int pause_at_ = 0;
    float pending_lr_ = 0.f;   // > 0: a new peak learning rate
    int pending_batch_ = 0;    // > 0: a new batch size
    uint64_t version_ = 0;
    TrainProgress progress_;
};

// The snapshot to show: the newest when `follow`, else snapshots[index] (clamped); null when none.
const TrainSnapshot* choose_snapshot(const TrainProgress& progress, bool follow, int index);

// A held-out digit as the 1×28×28 image the loader takes (values in [0,1]).
Image digit_image(const DigitSet& set, int index);

}  // namespace vit::gui
