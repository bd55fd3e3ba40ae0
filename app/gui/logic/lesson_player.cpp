// Stepping through a lesson (see lesson_player.h).
#include "lesson_player.h"

#include <algorithm>

namespace vit::gui {

void LessonPlayer::go(int i) {
    const int to = std::clamp(i, 0, std::max(0, steps() - 1));
    if (to == index && !pending) return;
    index = to;
    pending = true;
}

bool apply_lesson_key(const KeyEvent& e, LessonPlayer& player) {
    if (!e.press || e.ctrl) return false;
    switch (e.key) {
        case Key::Right:
        case Key::Down:
        case Key::PageDown: player.go(player.index + 1); return true;
        case Key::Left:
        case Key::Up:
        case Key::PageUp: player.go(player.index - 1); return true;
        case Key::Home: player.go(0); return true;
        case Key::End: player.go(player.steps() - 1); return true;
        default: return false;
    }
}

}  // namespace vit::gui
