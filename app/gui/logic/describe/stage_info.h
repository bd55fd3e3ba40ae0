// The text of the stage side panel: for each stage of the catalogue, its title,
// formula and PyTorch line (from the catalogue, core/pass/stages.cpp, the same the
// views show), the shapes involved written out with the model's real sizes, a
// short explanation for a student, and where a seed notebook gets it wrong.
// Plain C++ returning strings: no GL, no ImGui, testable without a window.
// Every string is printable ASCII (a field may hold '\n' between lines), so
// Dear ImGui's default font (Latin-1 glyphs only) renders all of it.
#pragma once
#include <string>

#include "model/model.h"
#include "pass/stages.h"

namespace vit::gui {

struct StageInfo {
    std::string title;          // "Block 0: scaled dot-product scores"
    std::string formula;        // "S_h = Q_h K_h^T / sqrt(Dh)"
    std::string shapes;         // "(3, 197, 197) = (3, 197, 64) @ (3, 64, 197) / sqrt(64)"
    std::string pytorch;        // "attn = (q @ k.transpose(-2, -1)) * self.scale"
    std::string explanation;    // two or three sentences a 16-year-old understands
    std::string notebook_note;  // where a seed notebook gets this stage wrong, else empty
};

// `tokens` = T = prefix + N (the patches and the tokens before them: CLS, DIST,
// registers). Never throws, whatever the sizes.
StageInfo describe_stage(const StageRef& stage, const vit::ModelConfig& config, int tokens);

// The input view's caption over the picture the model sees, `side` pixels square: resized
// and centre-cropped, and then, when the pass was asked so, how many patches were masked.
std::string input_picture_caption(int side, int masked_patches);
// The note under an all-zero positional embedding: removed by the question asked (no
// positions), or never trained (the notebook's zeros), which the model did itself.
std::string zero_positions_note(bool removed_by_question);

// A share as the views print it: 0.163 → "16%", 0.004 → "0.4%", below 0.1% "<0.1%", a negative change "-…".
std::string percent(float share);

}  // namespace vit::gui
