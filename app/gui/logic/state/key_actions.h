// What each key does: a pure function from one queued key press to a change of
// AppState (stage, block, token, head, screen, bookmarks), or to an action only
// the window can carry out (presenter mode, screenshots, the Open window).
#pragma once
#include "logic/state/app_state.h"
#include "logic/state/bookmarks.h"
#include "logic/state/input_queue.h"

namespace vit::gui {

enum class WindowAction {
    None,
    TogglePresenter,
    LeavePresenter,
    SavePng,
    ExportNpy,
    OpenImage,
    OpenModel,
    LessonEditor
};

// PageUp/PageDown step one stage in clicker mode (what presentation clickers send), else one block.
WindowAction apply_key(const KeyEvent& e, AppState& s, const Pipeline& p, Bookmarks& b);
// One frame's input: the next queued key press, if any, applied.
WindowAction apply_next_key(InputQueue& q, AppState& s, const Pipeline& p, Bookmarks& b);

}  // namespace vit::gui
