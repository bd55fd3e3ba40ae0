// Key and mouse-button events queued from the window's callbacks and applied one
// per frame, so a press shorter than a frame still counts (Dear ImGui 1.86 keeps
// no input queue). Plain data: the window maps GLFW codes to Key, tests push
// events directly (tests/app/logic/state/test_input_queue.cpp).
#pragma once
#include <array>
#include <deque>
#include <optional>

namespace vit::gui {

// The keys the app acts on; every other key is left to Dear ImGui.
enum class Key {
    Right,
    Left,
    PageDown,
    PageUp,
    Home,
    End,
    Down,
    Up,
    Escape,
    F11,
    A,
    C,
    N,
    H,
    O,
    M,
    S,
    E,
    W,
    G,
    Z,
    Enter,
    V,
    L,
    R,
    F,
    Digit1,
    Digit2,
    Digit3,
    Digit4,
    Digit5,
    Digit6,
    Digit7,
    Digit8,
    Digit9,
};

struct KeyEvent {
    Key key = Key::Right;
    bool press = true;  // press or auto-repeat; false: release
    bool ctrl = false;  // Ctrl held
};

struct MouseEvent {
    int button = 0;     // 0 left, 1 right, 2 middle
    bool press = true;  // false: release
};

// Two fingers spreading (grow) or closing at (x, y) in layout pixels: the map under them enlarges, or goes back.
struct PinchEvent {
    float x = 0.f, y = 0.f;
    bool grow = true;
};

inline constexpr int kMouseButtons = 3;
inline constexpr size_t kQueueLimit = 64;  // events beyond it are dropped (a stuck key cannot grow it)

class InputQueue {
public:
    void push(const KeyEvent& e);
    void push(const MouseEvent& e);
    // The next key press (releases before it are dropped); none when only releases remain.
    std::optional<KeyEvent> next_press();
    // Applies at most one queued button transition; returns which buttons are down after it.
    const std::array<bool, kMouseButtons>& step_mouse();
    void clear_keys() { keys_.clear(); }
    // While a text field has the keyboard: empties the key queue and says whether it held a
    // press of `key` (Enter in a path field: a tap shorter than a frame that Dear ImGui misses).
    bool take_keys_for_text(Key key);
    size_t pending_keys() const { return keys_.size(); }

private:
    std::deque<KeyEvent> keys_;
    std::deque<MouseEvent> mouse_;
    std::array<bool, kMouseButtons> down_{};
};

}  // namespace vit::gui
