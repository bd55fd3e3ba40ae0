// The "Train it yourself" panel (docked under the views, views/widgets/docked_panel.h): start the digits ViT from
// random weights (or from the shipped model), watch the loss and held-out accuracy curves while it trains in the
// background, pause / resume / one step, change the learning rate and batch size live, scrub the timeline of snapshots,
// pick the probe digit, save a checkpoint. The main view shows the chosen snapshot on the probe digit (App does that;
// the window only says which).
#pragma once
#include <memory>
#include <string>

#include "train/digit_set.h"
#include "pass/trace.h"
#include "logic/jobs/training_session.h"

namespace vit::gui {

struct TrainPanelState {
    bool visible = false;
    bool from_shipped = false;  // start from the shipped digits model instead of random weights
    int epochs = 20, batch = 16, seed = 0;
    float lr = 1e-3f;
    bool follow = true;  // show the newest snapshot as it arrives
    int snapshot = 0;    // index into TrainProgress::snapshots when not following
    int probe = 0;       // held-out digit shown in the main view
    char save_dir[256] = "trained-digits";
    std::shared_ptr<const DigitSplit> data;  // read on the first Start
};

struct TrainActions {
    bool start = false;  // (re)start a run with the panel's settings
    bool save = false;   // save the shown snapshot to save_dir
};

// `trace`/`model`: what the main view shows now (for the probe's prediction; may be null).
void DrawTrainPanel(TrainPanelState& panel, TrainingSession& session, const TrainProgress& progress, const Trace* trace,
                    const Model* model, TrainActions& actions);

}  // namespace vit::gui
