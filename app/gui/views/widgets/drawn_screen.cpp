// What the last frame drew (see drawn_screen.h).
#include "views/widgets/drawn_screen.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <set>

namespace vit::gui {

// Whether a triangle drawn with the font atlas is part of a chart: a solid shape (the atlas's white
// pixel) at least 12 pixels both ways in a colour of its own, not the style's at any opacity (frames,
// buttons, panels, a docked panel's opaque background).
static bool chart_shape(const ImDrawVert* const v[3], const PixelRect& r) {
    if (r.x1 - r.x0 < 12.f || r.y1 - r.y0 < 12.f) return false;
    const ImU32 rgb = ~IM_COL32_A_MASK;
    for (int k = 0; k < 3; ++k) {
        if ((v[k]->col >> IM_COL32_A_SHIFT) < 128) return false;
        for (int c = 0; c < ImGuiCol_COUNT; ++c)
            if ((v[k]->col & rgb) == (ImGui::GetColorU32(c) & rgb)) return false;
    }
    return true;
}

// Whether a texture coordinate lies in the font atlas's baked thick lines (drawn lines, not glyphs).
static bool baked_line(const ImVec2& uv) {
    const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    float u0 = FLT_MAX, v0 = FLT_MAX, u1 = -FLT_MAX, v1 = -FLT_MAX;
    for (const ImVec4& r : atlas->TexUvLines)
        u0 = std::min(u0, r.x), v0 = std::min(v0, r.y), u1 = std::max(u1, r.z), v1 = std::max(v1, r.w);
    return uv.x >= u0 && uv.x <= u1 && uv.y >= v0 && uv.y <= v1;
}

static bool wanted(Drawn what, bool font_atlas, const ImDrawVert* const v[3], const PixelRect& r) {
    if (!font_atlas) return what != Drawn::Text;
    const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
    const bool solid = v[0]->uv.x == white.x && v[0]->uv.y == white.y;
    if (what == Drawn::Text)
        return !solid && r.x1 - r.x0 <= 64.f && r.y1 - r.y0 <= 64.f;  // a glyph, not a border's long line
    return what == Drawn::PicturesAndCharts && solid && chart_shape(v, r);
}

// Calls `visit(cmd, vertices, rect)` for each triangle of `list` (its rectangle unclipped).
template <class Visit>
static void each_triangle(const ImDrawList* list, Visit&& visit) {
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
        if (cmd.UserCallback) continue;
        for (unsigned i = 0; i + 2 < cmd.ElemCount; i += 3) {  // a triangle of a textured quad spans the quad
            PixelRect r{FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX};
            const ImDrawVert* v[3];
            for (unsigned k = 0; k < 3; ++k) {
                v[k] = &list->VtxBuffer[cmd.VtxOffset + list->IdxBuffer[cmd.IdxOffset + i + k]];
                r = {std::min(r.x0, v[k]->pos.x), std::min(r.y0, v[k]->pos.y), std::max(r.x1, v[k]->pos.x),
                     std::max(r.y1, v[k]->pos.y)};
            }
            visit(cmd, v, r);
        }
    }
}

std::vector<PixelRect> drawn_rects(const ImDrawData* dd, Drawn what) {
    std::vector<PixelRect> rects;
    if (!dd) return rects;
    const ImTextureID font_atlas = ImGui::GetIO().Fonts->TexID;
    for (int l = 0; l < dd->CmdListsCount; ++l)
        each_triangle(dd->CmdLists[l], [&](const ImDrawCmd& cmd, const ImDrawVert* const v[3], PixelRect r) {
            if (!wanted(what, cmd.TextureId == font_atlas, v, r)) return;
            r = {std::max(r.x0, cmd.ClipRect.x), std::max(r.y0, cmd.ClipRect.y), std::min(r.x1, cmd.ClipRect.z),
                 std::min(r.y1, cmd.ClipRect.w)};
            if (r.x1 > r.x0 && r.y1 > r.y0)
                rects.push_back({r.x0 - dd->DisplayPos.x, r.y0 - dd->DisplayPos.y, r.x1 - dd->DisplayPos.x,
                                 r.y1 - dd->DisplayPos.y});
        });
    return rects;
}

// A window's name as its code gives it: "##main/lesson_caption_1A2B3C4D" is "lesson_caption".
static std::string panel_name(const char* name) {
    std::string s = name;
    if (size_t slash = s.rfind('/'); slash != std::string::npos) s = s.substr(slash + 1);
    if (size_t hash = s.rfind('_'); hash != std::string::npos && s.size() - hash == 9) s.resize(hash);
    return s.rfind("##", 0) == 0 ? s.substr(2) : s;
}

// The edges of its region that a glyph straddles by more than a pixel, as bits: 1 left, 2 right, 4 top, 8 bottom.
static int straddled_edges(const PixelRect& r, const ImVec4& clip) {
    auto across = [](float a0, float a1, float edge) { return a0 < edge - 1.f && a1 > edge + 1.f; };
    return (across(r.x0, r.x1, clip.x) ? 1 : 0) | (across(r.x0, r.x1, clip.z) ? 2 : 0) |
           (across(r.y0, r.y1, clip.y) ? 4 : 0) | (across(r.y0, r.y1, clip.w) ? 8 : 0);
}

std::vector<std::string> clipped_text() {
    std::set<std::string> found;
    const ImTextureID font_atlas = ImGui::GetIO().Fonts->TexID;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->Active || w->Hidden || !w->DrawList) continue;
        const int scrolls = (w->ScrollbarX ? 1 | 2 : 0) | (w->ScrollbarY ? 4 | 8 : 0);
        int cut = 0;
        each_triangle(w->DrawList, [&](const ImDrawCmd& cmd, const ImDrawVert* const v[3], const PixelRect& r) {
            if (cmd.TextureId == font_atlas && wanted(Drawn::Text, true, v, r) && !baked_line(v[0]->uv))
                cut |= straddled_edges(r, cmd.ClipRect) & ~scrolls;
        });
        if (w->ScrollMax.x > 1.f && !w->ScrollbarX) cut |= 2;
        if (w->ScrollMax.y > 1.f && !w->ScrollbarY) cut |= 8;
        const std::string name = panel_name(w->Name);
        if (cut & 1) found.insert(name + ": text cut at the left");
        if (cut & 2) found.insert(name + ": text cut at the right");
        if (cut & 4) found.insert(name + ": text cut at the top");
        if (cut & 8) found.insert(name + ": text cut at the bottom");
    }
    return {found.begin(), found.end()};
}

}  // namespace vit::gui
