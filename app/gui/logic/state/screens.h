// The app's screens, one table: each screen's enum value, its name (vitviz --screen,
// a lesson file's "screen", the tour's and Ctrl+S's file names), its title in the
// navigator, the key that shows it, where the tour shoots it, what the model must have
// for it, the job its picture waits for and its hand-out figure. Every place that
// names a screen reads it from here; App::draw_columns binds each to its view.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "logic/state/input_queue.h"

namespace vit::gui {

// One stage fills the view / attention over the image / why this class / layers × heads over the
// image / every stage as a thumbnail / the findings (views/screens/findings_*.cpp): attention
// distance by depth, patch features as colours, token norms and sinks, DINO's masks.
enum class Screen {
    Stage,
    Attention,
    Why,
    ModelView,
    Overview,
    AttentionDistance,
    PatchFeatures,
    TokenNorms,
    ClsMasks
};

// The parts of a model a screen may need: encoder blocks, a class head, a CLS token.
struct ModelParts {
    bool blocks = false;
    bool head = false;
    bool cls = false;
};

// The stage the stages' tour shows a screen on (tour.h).
enum class TourStage {
    None,             // not shot as a screen (the stage view is shot once per stage)
    Last,             // the last stage: the model's answer
    FirstAttention,   // block 0's attention (the first stage without blocks), so a highlight sits mid-model
    LastBlockOutput,  // the last block's output, so the findings of one block show the last block
};

// The work besides the forward pass a screen's picture waits for (controllers/*_controller.cpp).
enum class ScreenJob {
    None,
    Explanation,  // the backward pass and occlusion (ExplainController)
    EveryBlock,   // every block's attention, walked again on a trace that streams (FindingsController)
    JointPca,     // the other images' passes for the joint PCA, when asked (FindingsController)
};

// A lesson hand-out's figure of a step on this screen (logic/lesson/handout.h).
enum class HandoutFigure {
    None,            // the step's text only
    StageShown,      // the stage on screen
    LayerAttention,  // the attention of the layer on screen
};

struct ScreenInfo {
    const char* name;  // "model-view": the command line, lesson files and file names
    Screen value;
    const char* title;       // "Model view: blocks × heads": the navigator's entry
    std::optional<Key> key;  // shows it and back; a key that shows several steps through them in the table's order
    ModelParts needs;        // what a model must have for the screen to show something
    TourStage tour;
    ScreenJob job;
    HandoutFigure handout;
};

// Every screen, in the enum's order (the stages' tour shoots them in it).
const std::vector<ScreenInfo>& screen_table();
const ScreenInfo& screen_info(Screen screen);
const char* screen_name(Screen screen);
const char* screen_title(Screen screen);
// False for a name that is no screen's.
bool parse_screen(const std::string& name, Screen& screen);
// "stage, attention, why, … or cls-masks", for messages.
std::string screen_names();

// The screens `key` shows, in the table's order (F: the four findings screens).
std::vector<Screen> screens_on_key(Key key);
// The keys that show `screen` from the stage view: "A"; "F F" for the second screen on F; "F ×4" past three.
std::string screen_key_label(Screen screen);
// Empty when a model with `parts` has every part of `needs`; else the first it lacks, for a
// message: "needs attention, and the model has no blocks".
std::string parts_lacking(const ModelParts& needs, const ModelParts& parts);
// The same for what `screen` needs (its row's `needs`).
std::string screen_lacks(Screen screen, const ModelParts& parts);

}  // namespace vit::gui
