// Loading DejaVu from Debian's fonts-dejavu-core, with the glyph ranges formulas need.
#include "services/fonts.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace vit::gui {

static ImFont* add(ImGuiIO& io, const std::string& folder, const char* file, float px, float density,
                   const ImWchar* ranges) {
    const std::string path = folder + "/" + file;
    if (!std::filesystem::exists(path)) return nullptr;
    // Glyphs sampled as finely as the screen's pixels: a HiDPI page draws ratio × the layout's pixels.
    const int samples = std::clamp(static_cast<int>(std::ceil(density)), 1, 4);
    ImFontConfig cfg;
    cfg.OversampleH = std::max(2, samples);
    cfg.OversampleV = samples;
    return io.Fonts->AddFontFromFileTTF(path.c_str(), px, &cfg, ranges);
}

void load_fonts(Fonts& f, float density, const char* folder, float base_px, float presenter_px) {
    ImGuiIO& io = ImGui::GetIO();
    ImFontGlyphRangesBuilder b;
    b.AddRanges(io.Fonts->GetGlyphRangesDefault());
    static const ImWchar kExtra[] = {
        0x0370, 0x03FF,  // Greek: α β γ μ σ
        0x1D00, 0x1DBF,  // phonetic extensions: ᵀ
        0x2000, 0x206F,  // punctuation: – — … ‖
        0x2070, 0x209F,  // super- and subscripts: ⁻ ¹ ₀
        0x2190, 0x21FF,  // arrows
        0x2200, 0x22FF,  // mathematical operators: √ ∑ · ≤ ≈
        0x2500, 0x25FF,  // boxes and shapes: ▶ ■
        0,
    };
    b.AddRanges(kExtra);
    b.BuildRanges(&f.ranges);
    const ImWchar* r = f.ranges.Data;
    f.body = add(io, folder, "DejaVuSans.ttf", base_px, density, r);
    if (!f.body) {  // no DejaVu: ImGui's own font, scaled up
        f.missing = std::string("no DejaVu Sans in ") + folder +
                    ": arrows, dashes and Greek letters show as '?' (install Debian's fonts-dejavu-core)";
        f.body = io.Fonts->AddFontDefault();
        f.heading = f.mono = f.big_body = f.big_heading = f.big_mono = f.body;
        f.scale = base_px / 13.f;
        return;
    }
    f.heading = add(io, folder, "DejaVuSans-Bold.ttf", base_px * 1.35f, density, r);
    f.mono = add(io, folder, "DejaVuSansMono.ttf", base_px * 0.95f, density, r);
    f.big_body = add(io, folder, "DejaVuSans.ttf", presenter_px, density, r);
    f.big_heading = add(io, folder, "DejaVuSans-Bold.ttf", presenter_px * 1.35f, density, r);
    f.big_mono = add(io, folder, "DejaVuSansMono.ttf", presenter_px * 0.95f, density, r);
    if (!f.heading) f.heading = f.body;
    if (!f.mono) f.mono = f.body;
    if (!f.big_body) f.big_body = f.body;
    if (!f.big_heading) f.big_heading = f.heading;
    if (!f.big_mono) f.big_mono = f.mono;
    io.FontDefault = f.body;
}

}  // namespace vit::gui
