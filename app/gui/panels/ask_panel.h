// The "Ask the model" panel (docked under the views, views/widgets/docked_panel.h): paint patches on the image to mask
// them (or drop their tokens), silence heads, take the positions away, shuffle
// the patches, change the temperature; one Reset. The state is AppState::ask
// (logic/ask/ask_state.h); App reruns the pass whenever it changes. The window
// shows the prediction against the unmodified pass (bars side by side with the
// change), the logit lens as a heatmap, and which pass the views show.
#pragma once
#include "views/widgets/view_common.h"

namespace vit::gui {

struct AskPanelState {
    bool visible = false;
};

// `modified`: the pass under the interventions (the views may show another).
void DrawAskPanel(AskPanelState& panel, ViewContext& ctx, const Trace& modified, bool busy);

}  // namespace vit::gui
