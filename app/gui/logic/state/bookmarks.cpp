// Saving a view under a number and restoring it, clamped to the pipeline it returns to.
#include "logic/state/bookmarks.h"

namespace vit::gui {

void save_bookmark(Bookmarks& b, int slot, const AppState& s, const Pipeline& p) {
    if (slot < 1 || slot > kBookmarks) return;
    std::string id = s.stage >= 0 && s.stage < p.size() ? p.ids[s.stage] : "";
    b.slots[slot - 1] = SavedView{id, s};
}

bool restore_bookmark(const Bookmarks& b, int slot, AppState& s, const Pipeline& p) {
    if (slot < 1 || slot > kBookmarks || !b.slots[slot - 1]) return false;
    const SavedView& v = *b.slots[slot - 1];
    int same = p.index_of(v.stage_id);
    s.stage = same >= 0 ? same : v.view.stage;
    s.token = v.view.token;
    s.head = v.view.head;
    s.layer = v.view.layer;
    s.screen = v.view.screen;
    s.colormap = v.view.colormap;
    s.show_numbers = v.view.show_numbers;
    s.cls_only = v.view.cls_only;
    s.ask = v.view.ask;
    fit_ask(s.ask, p.tokens - 1, p.depth, p.heads);
    clamp_state(s, p);
    return true;
}

}  // namespace vit::gui
