// Saving a view under a number and restoring it, clamped to the pipeline it returns to.
#include "logic/state/bookmarks.h"

namespace vit::gui {

void save_bookmark(Bookmarks& b, int slot, const AppState& s, const Pipeline& p) {
    if (slot < 1 || slot > kBookmarks) return;
    b.slots[slot - 1] = capture_view(s, p);
}

bool restore_bookmark(const Bookmarks& b, int slot, AppState& s, const Pipeline& p) {
    if (slot < 1 || slot > kBookmarks || !b.slots[slot - 1]) return false;
    restore_view(*b.slots[slot - 1], s, p);
    return true;
}

}  // namespace vit::gui
