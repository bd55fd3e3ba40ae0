// The pipeline navigator: every stage of the loaded model grouped by block
// (Embedding, Block 0 …, Head), the current one highlighted and kept in view,
// plus the attention screen at the bottom. Clicking goes there.
#pragma once
#include "logic/state/app_state.h"
#include "services/fonts.h"

namespace vit::gui {

struct NavigatorState {
    int scrolled_to = -1;  // the stage last scrolled into view (scroll only when it changes)
    Screen scrolled_screen = Screen::Stage;
    bool drawer_open = false;  // on a narrow window the navigator folds into a drawer; the student opened it
};

void DrawNavigator(NavigatorState& nav, AppState& state, const Pipeline& p, const Fonts& fonts);
// The width the navigator needs so that no stage name or description is cut (with the current font).
float NavigatorWidth(const Pipeline& p, const Fonts& fonts);

}  // namespace vit::gui
