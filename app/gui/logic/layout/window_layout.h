// How the main window shares its room between the navigator, the view and the
// side column, for the window's size. A wide window keeps all three; a narrow one
// folds the navigator into a drawer (the toolbar's "Stages" switch opens it),
// and so does a lesson on a window that is not wide (the lesson steps the stages);
// a lesson's caption goes beside the view or in a strip under it, wherever the
// view keeps the larger picture; text shrinks on a small window, to a floor.
// Sizes in layout pixels; plain data, no ImGui.
#pragma once

namespace vit::gui {

struct LayoutRoom {
    float width = 0.f, height = 0.f;  // the body's room: the window less the toolbar, banners and status bar
    float font = 18.f;                // the body font's size before a small window shrinks text: the
                                      // thresholds are in lines of it
    float navigator = 0.f;            // the navigator's width with its longest stage name
    float gap = 8.f;                  // between columns
    bool presenter = false;           // presenter mode: no navigator
    bool lesson = false;              // a lesson plays: its caption takes the side column or a strip below
    float caption_below_h = 0.f;      // the height the caption needs in a strip as wide as the window
    bool side_panel = true;           // a side column is wanted (the info panel, or the Draw or GPU panel)
    bool drawer_open = false;         // the student opened the folded navigator
};

struct WindowLayout {
    float navigator = 0.f;             // its width; 0 while folded or in presenter mode
    bool navigator_folded = false;     // it folds into a drawer (the toolbar shows its button)
    float side = 0.f;                  // the side column's width beside the view; 0 for none
    float caption_below = 0.f;         // the height of a lesson caption's strip under the columns; 0 for none
    float view_w = 0.f, view_h = 0.f;  // what is left for the view
};

// A window at least kWideLines body-font lines wide keeps the navigator beside a lesson; under
// kNarrowLines it folds the navigator always.
constexpr float kWideLines = 80.f, kNarrowLines = 64.f;

// Text shrinks with a window smaller than 1600 × 1000 (a Chromebook, a tablet), but the main text
// (`font_px` at full size: the body's, or presenter mode's larger one) never under kLeastTextPx,
// readable at arm's length; the factor.
constexpr float kLeastTextPx = 13.f;
float text_scale(float window_w, float window_h, float font_px);

// Whether the navigator folds into a drawer on a window `width` wide (in a lesson or not).
bool navigator_folds(float width, float font, bool lesson);

WindowLayout lay_out_window(const LayoutRoom& room);

}  // namespace vit::gui
