// The app's key map (the README lists the keys): arrows and Page keys step, 1..9 bookmarks, letters toggle.
#include "logic/state/key_actions.h"

#include <algorithm>

namespace vit::gui {

static int digit_of(Key k) {
    return k >= Key::Digit1 && k <= Key::Digit9 ? 1 + static_cast<int>(k) - static_cast<int>(Key::Digit1) : 0;
}

static void step_to(AppState& s, void (*step)(AppState&, const Pipeline&), const Pipeline& p) {
    step(s, p);
    s.screen = Screen::Stage;
}

// A key that shows screens (screens.h): the first of them, the next one, and after the last back to
// the stage view. False for a key that shows none.
static bool show_screen_on(Key key, AppState& s) {
    const std::vector<Screen> order = screens_on_key(key);
    if (order.empty()) return false;
    const auto at = std::find(order.begin(), order.end(), s.screen);
    s.screen = at == order.end() ? order.front() : at + 1 == order.end() ? Screen::Stage : *(at + 1);
    return true;
}

// G: values or gradients of the stage on screen. On another screen (Why, attention…) the stage view
// comes with its gradients, so the switch is never made out of sight for later.
static void toggle_gradients(AppState& s) {
    s.gradients = s.screen != Screen::Stage || !s.gradients;
    s.screen = Screen::Stage;
}

UiActions apply_key(const KeyEvent& e, AppState& s, const Pipeline& p, Bookmarks& b) {
    UiActions a;
    if (!e.press || p.ids.empty()) return a;
    if (int n = digit_of(e.key)) {
        if (e.ctrl) save_bookmark(b, n, s, p);
        else restore_bookmark(b, n, s, p);
        return a;
    }
    switch (e.key) {
        case Key::Right: step_to(s, next_stage, p); break;
        case Key::Left: step_to(s, prev_stage, p); break;
        case Key::PageDown: step_to(s, s.clicker ? next_stage : next_block, p); break;
        case Key::PageUp: step_to(s, s.clicker ? prev_stage : prev_block, p); break;
        case Key::Home: go_to_stage(s, p, 0); break;
        case Key::End: go_to_stage(s, p, p.size() - 1); break;
        case Key::Down: select_token(s, p, s.token + 1); break;
        case Key::Up: select_token(s, p, s.token - 1); break;
        case Key::Escape: a.leave_presenter = s.presenter; return a;
        case Key::F11: a.toggle_presenter = true; return a;
        default: break;
    }
    if (e.ctrl) {
        a.export_png = e.key == Key::S;
        a.export_npy = e.key == Key::E;
        return a;
    }
    if (show_screen_on(e.key, s)) return a;
    switch (e.key) {
        case Key::G: toggle_gradients(s); break;
        case Key::C: toggle_cls_attention(s, p); break;
        case Key::N: s.show_numbers = !s.show_numbers; break;
        case Key::H: select_head(s, p, s.head + 1 >= p.heads ? -1 : s.head + 1); break;
        case Key::Z:
        case Key::Enter: toggle_enlarged_head(s, p); break;
        case Key::O: a.show_open_image = true; break;
        case Key::M: a.show_open_model = true; break;
        case Key::R: a.toggle_lesson_editor = true; break;
        default: break;
    }
    return a;
}

UiActions apply_next_key(InputQueue& q, AppState& s, const Pipeline& p, Bookmarks& b) {
    std::optional<KeyEvent> e = q.next_press();
    return e ? apply_key(*e, s, p, b) : UiActions{};
}

}  // namespace vit::gui
