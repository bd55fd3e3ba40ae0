// Bookmarks of the lecture: Ctrl+1..9 saves the current view (view_snapshot.h:
// stage, token, head, layer, screen, display options and the Ask panel's
// interventions) under that number, 1..9 returns to it.
// Plain data; restoring into another model clamps what no longer exists.
#pragma once
#include <array>
#include <optional>

#include "logic/state/app_state.h"
#include "logic/state/view_snapshot.h"

namespace vit::gui {

inline constexpr int kBookmarks = 9;

struct Bookmarks {
    std::array<std::optional<ViewSnapshot>, kBookmarks> slots;  // slot n - 1 for key n
};

// slot: 1..9; others are ignored. Restoring an empty slot changes nothing and returns false.
void save_bookmark(Bookmarks& b, int slot, const AppState& s, const Pipeline& p);
bool restore_bookmark(const Bookmarks& b, int slot, AppState& s, const Pipeline& p);

}  // namespace vit::gui
