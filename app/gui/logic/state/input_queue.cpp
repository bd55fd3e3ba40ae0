// The bounded event queues and the one-transition-per-frame mouse state.
#include "logic/state/input_queue.h"

#include <algorithm>

namespace vit::gui {

void InputQueue::push(const KeyEvent& e) {
    if (keys_.size() < kQueueLimit) keys_.push_back(e);
}

void InputQueue::push(const MouseEvent& e) {
    if (e.button >= 0 && e.button < kMouseButtons && mouse_.size() < kQueueLimit) mouse_.push_back(e);
}

std::optional<KeyEvent> InputQueue::next_press() {
    while (!keys_.empty()) {
        KeyEvent e = keys_.front();
        keys_.pop_front();
        if (e.press) return e;
    }
    return std::nullopt;
}

bool InputQueue::take_keys_for_text(Key key) {
    const bool pressed =
        std::any_of(keys_.begin(), keys_.end(), [key](const KeyEvent& e) { return e.press && e.key == key; });
    keys_.clear();
    return pressed;
}

const std::array<bool, kMouseButtons>& InputQueue::step_mouse() {
    if (!mouse_.empty()) {
        down_[mouse_.front().button] = mouse_.front().press;
        mouse_.pop_front();
    }
    return down_;
}

}  // namespace vit::gui
