// UI state of the app as plain data, and the pure functions that change it:
// stepping through the stages and blocks of the catalogue (docs/DESIGN.md#stage-catalogue), selecting a
// token, head or layer, choosing the colormap of a stage. Nothing here touches
// a window, GL or ImGui, so tests drive it directly (tests/app/logic/state/test_app_state.cpp).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "logic/ask/ask_state.h"
#include "logic/describe/cell_provenance.h"
#include "logic/describe/token_layout.h"
#include "logic/describe/view_choices.h"
#include "logic/state/screens.h"
#include "model/model.h"
#include "pass/stages.h"
#include "pass/trace.h"

namespace vit::gui {

// The stage catalogue of the loaded model, with each stage's group:
// 0 = embedding (input … tokens), 1 + b = block b, depth + 1 = head (norm … rollout).
struct Pipeline {
    std::vector<StageRef> stages;
    std::vector<std::string> ids;  // stage_id of each stage
    std::vector<int> group;
    int depth = 0;
    int tokens = 1;      // T = prefix + N
    int heads = 1;       // H
    TokenLayout layout;  // the prefix tokens (CLS, DIST, REG0…) before the patches
    int patches() const { return std::max(0, tokens - layout.count()); }  // N
    int size() const { return static_cast<int>(ids.size()); }
    int index_of(const std::string& id) const;  // -1 when absent
    int index_of(const StageRef& stage) const;  // -1 when absent
    ModelParts parts() const;                   // blocks, a head, a CLS token: what screens need (screens.h)
};
Pipeline make_pipeline(const std::vector<StageRef>& stages, int tokens, int heads, const TokenLayout& layout = {});
// The pipeline of a pass: its stages, its tokens (the rows of its cls stage) and the model's heads and prefix tokens.
Pipeline trace_pipeline(const Trace& trace, const ModelConfig& config);

// The findings screens' settings: DINOv2's two-step PCA and its foreground threshold
// (core/findings/pca.h), the share of CLS attention DINO's masks keep (core/findings/cls_mask.h).
struct FindingsOptions {
    bool two_step = false;
    float threshold = 0.5f;
    bool joint = false;  // the PCA fitted on several images together (logic/jobs/joint_passes.h)
    float mass = 0.6f;
};

struct AppState {
    int stage = 0;  // index into Pipeline::ids
    int token = 0;  // selected token: the prefix tokens (0 = CLS), then prefix + p = patch p
    int layer = 0;  // block shown by the attention screen
    int head = -1;  // -1 = all heads side by side; the attention screen shows head `head` enlarged
    ColormapMode colormap = ColormapMode::Auto;
    Screen screen = Screen::Stage;
    Backend backend = Backend::Cpu;
    bool presenter = false;    // full screen, large font, keyboard only
    bool show_numbers = true;  // write values in the cells of small heatmaps
    bool cls_only = false;     // attention screen shows the CLS token's attention (DINO style)
    bool gradients = false;    // backward walk: the stage view shows d logit / d stage (key G)
    bool clicker = false;      // clicker mode: PageUp/PageDown step one stage (what presentation clickers send)
    AttentionScale attention_scale = AttentionScale::LayerMax;
    bool teaching_notes = false;  // side panel: where the seed notebooks go wrong (off by default)
    int hover_token = -1;         // token under the mouse this frame; views outline it next frame
    AskState ask;                 // the interventions of the Ask panel (ask_state.h)
    std::optional<CellRef> cell;  // the clicked cell whose inputs the side panel shows (cell_provenance.h)
    FindingsOptions findings;
};

// Stepping clamps at both ends (a teacher pressing Right on the last stage stays there).
void go_to_stage(AppState& s, const Pipeline& p, int index);
void next_stage(AppState& s, const Pipeline& p);
void prev_stage(AppState& s, const Pipeline& p);
// PageDown: first stage of the next group. PageUp: start of the current group,
// or of the previous one when already at a group's start.
void next_block(AppState& s, const Pipeline& p);
void prev_block(AppState& s, const Pipeline& p);

// Clamped to [0, T); choosing a token by hand turns the CLS-only view off.
void select_token(AppState& s, const Pipeline& p, int token);
void select_patch(AppState& s, const Pipeline& p, int patch);  // token = prefix + patch
// The token the attention screen shows: CLS when cls_only, else the selection.
int attention_token(const AppState& s);
void select_head(AppState& s, const Pipeline& p, int head);    // -1 or [0, H)
void select_layer(AppState& s, const Pipeline& p, int layer);  // [0, depth)
// Z / Enter, or a click on a map's title: one head enlarged to fill the view, and back to all heads.
void toggle_enlarged_head(AppState& s, const Pipeline& p, int head = 0);
// The DINO view, one click: CLS token, last layer, attention screen (the model view stays itself, its
// maps turning to CLS's rows). Again: back to the selection. A model without a class token has no
// such view: nothing changes.
void toggle_cls_attention(AppState& s, const Pipeline& p);
// After a new model or image: keep what still makes sense, clamp the rest.
void clamp_state(AppState& s, const Pipeline& p);
// Moving to a stage of block b makes b the attention screen's layer.
void follow_stage_layer(AppState& s, const Pipeline& p);
// The block whose inner stages the screen on show draws: the stage's on the stage view (−1
// outside the blocks), else the attention screen's layer (the screens over every block draw it large).
int shown_block(const AppState& s, const Pipeline& p);

// "Embedding", "Block 3", "Head" for a Pipeline group.
std::string group_name(const Pipeline& p, int group);
// The palette the numbers call for (`natural`) unless the user chose one.
Colormap colormap_for(Palette natural, ColormapMode mode);
// The stage's palette from the catalogue (attention, probabilities: sequential
// 0 … max; everything signed: diverging) unless the user chose one.
Colormap colormap_for(StageKind kind, ColormapMode mode);

}  // namespace vit::gui
