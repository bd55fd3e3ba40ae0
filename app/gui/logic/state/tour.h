// The --tour plan: one screenshot per stage, `NN-<stage id>.png` in catalogue
// order (NN from 00, more digits past 99), then every screen the model has what it
// needs for, `NN-<screen>.png` in the screen table's order on the stage its row
// names (screens.h: attention, why, model-view, overview, then the findings on the
// last block's output); for a model with blocks and a head the backward walk at the
// last block's attention and at the input (`NN-grad-<stage id>.png`); with encoder
// blocks, where a number comes from on block 0's scores, fc1 and ln1
// (`NN-cell-<stage id>.png`, the cell at row 1, column 1, head 0). The driver renders
// a few frames per shot so textures and layout settle before the framebuffer is read.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "logic/state/app_state.h"

namespace vit::gui {

// What a shot shows; the driver decides by it (file names are for people and CI).
enum class ShotKind {
    Stage,           // a stage on the stage screen: NN-<stage id>.png
    Screen,          // a screen by its name (screens.h): NN-attention.png, NN-why.png, …
    Gradient,        // the backward walk's view of a stage: NN-grad-<stage id>.png
    CellProvenance,  // where one number comes from, in the side panel: NN-cell-<stage id>.png
    GpuDifference,   // the CPU vs GPU panel: NN-gpu-difference.png
    Ask,             // the Ask panel open: NN-ask.png
    Draw,            // the Draw window with a drawn 7: NN-draw.png
    LessonStep,      // a lesson's step: NN-step.png, or NN-edit.png with the editor open
    LessonAnswer,    // a lesson's step with its question answered: NN-answer.png
    Halfway,         // the transition into a lesson's step, frozen halfway: NN-halfway.png
};

struct TourShot {
    int stage = 0;
    Screen screen = Screen::Stage;
    std::string file;  // file name inside the tour folder
    ShotKind kind = ShotKind::Stage;
    int lesson_step = -1;                        // a lesson tour's step (lesson_player.h: lesson_tour_plan)
    std::optional<CellRef> cell = std::nullopt;  // the cell whose provenance the side panel shows
    bool gradients() const { return kind == ShotKind::Gradient; }
    bool halfway() const { return kind == ShotKind::Halfway; }
};

std::string tour_file_name(int index, const std::string& name);
// Every numbered file of `plan` ("7-x.png", "07-x.png") padded to as many digits as its
// largest number needs (two at least), so the files sort in the plan's order past 99:
// ViT-B's tour reads 000-input.png … 250-block11.out.png. tour_plan does it; a caller that
// appends shots (window_shot) does it again.
void pad_tour_numbers(std::vector<TourShot>& plan);
// With `gpu` (vitviz --backend gpu) one more shot, `NN-gpu-difference.png`: the CPU vs GPU
// panel on block 0's attention (the first stage when there is no block).
std::vector<TourShot> tour_plan(const Pipeline& p, bool gpu = false);
// A shot of a window over the view (ShotKind::Ask or Draw) as shot `index` of a plan:
// `NN-ask.png`, `NN-draw.png`, on the attention screen at the last block's output, so it shows the last
// block whatever came before (without blocks: the last stage's stage screen).
TourShot window_shot(const Pipeline& p, ShotKind kind, int index);

// Frame bookkeeping: call frame() once per rendered frame; it says which shot
// to show and whether to capture this frame.
class TourSchedule {
public:
    static constexpr int kFramesPerShot = 3;
    explicit TourSchedule(std::vector<TourShot> plan) : plan_(std::move(plan)) {}
    bool done() const { return shot_ >= plan_.size(); }
    const TourShot& current() const { return plan_[shot_]; }
    // True on the frame whose pixels must be saved; advances to the next shot after it.
    bool capture_this_frame() const { return frame_ == kFramesPerShot - 1; }
    void end_frame();
    size_t index() const { return shot_; }
    size_t count() const { return plan_.size(); }

private:
    std::vector<TourShot> plan_;
    size_t shot_ = 0;
    int frame_ = 0;
};

}  // namespace vit::gui
