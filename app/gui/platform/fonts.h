// Fonts: DejaVu Sans (readable from the back of a room, with the ×, ·, √, ᵀ,
// Greek and arrows the formulas use) at a normal and a presenter size, each
// with a bold heading face. Falls back to ImGui's built-in font, scaled.
#pragma once
#include <imgui.h>

namespace vit::gui {

struct Fonts {
    ImFont* body = nullptr;
    ImFont* heading = nullptr;
    ImFont* mono = nullptr;
    ImFont* big_body = nullptr;     // presenter mode
    ImFont* big_heading = nullptr;
    ImFont* big_mono = nullptr;
    ImVector<ImWchar> ranges;       // must outlive the atlas build
};

// Adds the fonts to io.Fonts (before the backend builds the atlas).
void load_fonts(Fonts& fonts, float base_px = 18.f, float presenter_px = 30.f);

}  // namespace vit::gui
