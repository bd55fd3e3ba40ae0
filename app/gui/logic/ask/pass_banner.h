// What the window always says about the pass on screen, whatever the screen:
// the model's answer ("prediction: 7 (98%)"), whether the pass was modified and
// how (the banner over every screen and in every screenshot), and what the
// status bar says while a model is still loading. Plain text, no ImGui.
#pragma once
#include <string>

#include "logic/ask/ask_state.h"
#include "model/model.h"
#include "pass/interventions.h"
#include "pass/trace.h"

namespace vit::gui {

// "prediction: 7 (98%)", "prediction: n/a (no classifier)" for a model without
// classes or a trace without probabilities.
std::string prediction_text(const Trace& trace, const ModelConfig& config);
// "" for the plain pass; else what was asked, e.g. "MODIFIED PASS: temperature 0.3 ·
// 3 patches masked · head 1.2 silenced"; `show` says which pass the views draw
// ("… · showing the unmodified pass" / "… · showing modified − unmodified").
std::string modified_pass_text(const Interventions& asked, AskShow show);
// "" for a trained model; for one with random weights, a warning that what its attention
// shows was never learned (a banner over every screen, as the modified pass's).
std::string random_weights_text(const ModelConfig& config);
// The status bar's model part: "model digits (D=64, 4 heads, 4 blocks)", or
// "loading model digits …" while there is no model yet.
std::string status_model_text(const std::string& name, bool loaded, int embed_dim, int heads, int depth);

}  // namespace vit::gui
