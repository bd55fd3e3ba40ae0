// What each key does: a pure function from one queued key press to a change of
// AppState (stage, block, token, head, screen, bookmarks), or to an action only
// the app can carry out (presenter mode, screenshots, the Open window), in the
// panels' vocabulary (logic/state/ui_actions.h).
#pragma once
#include "logic/state/app_state.h"
#include "logic/state/bookmarks.h"
#include "logic/state/input_queue.h"
#include "logic/state/ui_actions.h"

namespace vit::gui {

// PageUp/PageDown step one stage in clicker mode (what presentation clickers send), else one block.
UiActions apply_key(const KeyEvent& e, AppState& s, const Pipeline& p, Bookmarks& b);
// One frame's input: the next queued key press, if any, applied.
UiActions apply_next_key(InputQueue& q, AppState& s, const Pipeline& p, Bookmarks& b);

}  // namespace vit::gui
