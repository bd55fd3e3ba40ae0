// How the main window shares its room (see window_layout.h).
#include "logic/layout/window_layout.h"

#include <algorithm>

namespace vit::gui {

// The side column's width: a share of the window, never under 300 pixels (its text's floor).
static float side_width(const LayoutRoom& room) {
    const float share = room.lesson ? 0.3f : room.presenter ? 0.26f : 0.22f;
    return std::max(300.f, room.width * share);
}

// How large a picture the view can hold: its shorter side (the views' text above and below their
// pictures makes them as tall as wide, or taller).
static float picture_room(float w, float h) { return std::min(w, h); }

float text_scale(float window_w, float window_h, float font_px) {
    const float least = std::min(1.f, kLeastTextPx / font_px);
    return std::clamp(std::min(window_w / 1600.f, window_h / 1000.f), least, 1.f);
}

bool navigator_folds(float width, float font, bool lesson) {
    return width < kNarrowLines * font || (lesson && width < kWideLines * font);
}

WindowLayout lay_out_window(const LayoutRoom& room) {
    WindowLayout l;
    l.navigator_folded = !room.presenter && navigator_folds(room.width, room.font, room.lesson);
    if (!room.presenter && (!l.navigator_folded || room.drawer_open))
        l.navigator = std::clamp(room.navigator, room.width * 0.16f, room.width * 0.26f);
    const float gap_nav = l.navigator > 0.f ? room.gap : 0.f;
    const float beside_w = room.width - l.navigator - gap_nav;  // the view and the side column
    l.view_h = room.height;
    if (room.lesson) {  // the caption beside the view, or under it with the side column gone
        const float side = side_width(room);
        const float below_h = std::min(room.caption_below_h, room.height * 0.4f);
        const bool below = !room.side_panel && picture_room(beside_w, room.height - below_h) >
                                                   picture_room(beside_w - side - room.gap, room.height);
        if (below) l.caption_below = below_h, l.view_h = room.height - below_h - room.gap;
        else l.side = side;
    } else if (room.side_panel) {
        l.side = side_width(room);
    }
    l.view_w = beside_w - (l.side > 0.f ? l.side + room.gap : 0.f);
    return l;
}

}  // namespace vit::gui
