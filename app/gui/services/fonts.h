// Fonts: DejaVu Sans (readable from the back of a room, with the ×, ·, √, ᵀ,
// Greek and arrows the formulas use) at a normal and a presenter size, each
// with a bold heading face, from Debian's fonts-dejavu-core. Without it, ImGui's
// built-in ASCII font, scaled, and `missing` says so (the app shows it).
#pragma once
#include <imgui.h>

#include <string>

namespace vit::gui {

// Where Debian's fonts-dejavu-core puts its fonts (the page's file system has them at the same place).
inline constexpr const char* kFontFolder = "/usr/share/fonts/truetype/dejavu";

struct Fonts {
    ImFont* body = nullptr;
    ImFont* heading = nullptr;
    ImFont* mono = nullptr;
    ImFont* big_body = nullptr;  // presenter mode
    ImFont* big_heading = nullptr;
    ImFont* big_mono = nullptr;
    ImVector<ImWchar> ranges;  // must outlive the atlas build
    std::string missing;       // "" with DejaVu; else one line for the user: what is missing and what to install
    float scale = 1.f;         // ImGui's own font, drawn at 13 px, is scaled to the body's size
};

// The body font's size as drawn (text shrinks on a small window: logic/layout/window_layout.h).
inline float body_px(const Fonts& fonts) { return fonts.body->FontSize * ImGui::GetIO().FontGlobalScale; }
// The body font before a small window shrinks the text: the window layout's thresholds are lines of it.
inline float full_size_body_px(const Fonts& fonts) { return fonts.body->FontSize * fonts.scale; }

// Adds the fonts from `folder` to io.Fonts (before the backend builds the atlas), their glyphs
// sampled for `density` screen pixels per layout pixel (a HiDPI page's ratio; 1 on the desktop).
void load_fonts(Fonts& fonts, float density, const char* folder = kFontFolder, float base_px = 18.f,
                float presenter_px = 30.f);

}  // namespace vit::gui
