// Stage `patches`: the input cut by the patch grid (with each patch's index),
// the patches laid out as numbered tiles, and the flattened N×(C·P·P) matrix;
// hovering a row outlines its tile and its place in the image, and back.
#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "views/widgets/views.h"

namespace vit::gui {

// The flattened N×(C·P·P) matrix, its columns named by pixel, in a box of `size`.
static void DrawFlattenedPatches(ViewContext& ctx, const Tensor& patches, ImVec2 size) {
    const int C = ctx.model.config.channels, P = ctx.model.config.patch_size;
    HeatmapSpec s = stage_spec(ctx, {StageKind::Patches}, patches);
    const auto pixel_name = [C, P](int c) {
        int ch = c / (P * P), y = (c / P) % P, x = c % P;
        return C == 1 ? std::to_string(y) + "," + std::to_string(x)
                      : std::to_string(ch) + "," + std::to_string(y) + "," + std::to_string(x);
    };
    s.labels = {"flattened patches  " + shape_string(patches.shape) + " = (N, C·P·P)", "patch",
                C == 1 ? "pixel (y, x)" : "pixel (channel, y, x)", pixel_name};
    s.token_rows = token_rows(ctx, StageKind::Patches);
    s.layout.size = size;
    DrawTokenHeatmap(ctx, s);
}

// A picture's heading, wrapped to `width` (FLT_MAX: one line); `dim`: in the disabled colour.
static void Heading(const char* text, float width, bool dim) {
    ImGui::PushTextWrapPos(width == FLT_MAX ? -1.f : ImGui::GetCursorPosX() + width);
    if (dim) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text);
    if (dim) ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
}

// The patches as tiles, each drawn from the input's texture with its own UVs, `side` square; hovering
// a tile or clicking it acts on its token. Headings wrap to `side` when `narrow`.
static void DrawPatchTiles(ViewContext& ctx, float side, bool narrow) {
    const Tensor& in = *ctx.tensor({StageKind::Input});
    const int S = static_cast<int>(in.shape[1]), P = ctx.model.config.patch_size, g = ctx.grid(), N = ctx.patches();
    ImGui::BeginGroup();
    char heading[96];
    std::snprintf(heading, sizeof heading, "the %d patches as tiles", N);
    Heading(heading, narrow ? side : FLT_MAX, false);
    std::snprintf(heading, sizeof heading, "row by row: patch p = row · %d + column", g);
    Heading(heading, narrow ? side : FLT_MAX, true);
    CachedTexture tex = model_picture_texture(ctx);
    float gap = std::max(3.f, side / g * 0.12f);
    float tile = (side - gap * (g - 1)) / g;
    ImVec2 o = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    int hovered = -1;
    const TokenLayout& layout = ctx.pipeline.layout;
    for (int p = 0; p < g * g; ++p) {
        int y = p / g, x = p % g;
        ImVec2 a(o.x + x * (tile + gap), o.y + y * (tile + gap)), b(a.x + tile, a.y + tile);
        ImVec2 uv0(float(x * P) / S, float(y * P) / S), uv1(float((x + 1) * P) / S, float((y + 1) * P) / S);
        dl->AddImage(reinterpret_cast<ImTextureID>(tex.id), a, b, uv0, uv1);
        if (ImGui::IsMouseHoveringRect(a, b)) hovered = p;
        const bool linked = ctx.linked_hover == layout.token_of(p) || hovered == p;
        if (linked && ctx.state.token != layout.token_of(p)) dl->AddRect(a, b, IM_COL32(255, 255, 255, 255), 0, 0, 2.f);
        PatchNumber(dl, a, tile, p);
    }
    if (const int sel = layout.patch_of(ctx.state.token);
        sel >= 0 && sel < g * g) {  // the selected tile (on its way from the step before)
        float x = static_cast<float>(sel % g), y = static_cast<float>(sel / g);
        if (const TokenGlide glide = ctx.glide(); glide.to == ctx.state.token) glide.patch(g, x, y, layout.count());
        const ImVec2 a(o.x + x * (tile + gap), o.y + y * (tile + gap));
        dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(a.x + tile + 2, a.y + tile + 2), IM_COL32(255, 200, 0, 255), 0, 0,
                    3.f);
    }
    ImGui::InvisibleButton("tiles", ImVec2(side, side));
    if (hovered >= 0 && ImGui::IsItemHovered()) {
        ctx.state.hover_token = layout.token_of(hovered);
        ImGui::SetTooltip("patch %d = row %d of the flattened matrix (token %d)\nclick: select it", hovered, hovered,
                          ctx.state.hover_token);
        if (ImGui::IsItemClicked()) select_patch(ctx.state, ctx.pipeline, hovered);
    }
    ImGui::EndGroup();
}

void DrawPatchesView(ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    const Tensor& in = *ctx.tensor({StageKind::Input});
    const int S = static_cast<int>(in.shape[1]), P = cfg.patch_size, g = ctx.grid();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    const Tensor* t = ctx.tensor({StageKind::Patches});
    const std::string note = "Each patch is flattened into one row of C·P·P = " + std::to_string(cfg.patch_dim()) +
                             " numbers, channel by channel, then row by row, then column by column — the same order as "
                             "the Conv2d weight (D, C, P, P). Hover a row to find its tile; click to select it.";
    // A matrix of a few columns (the toy's 4) needs little room: the pictures take two thirds of the
    // height (their headings wrapped to their width) and the note stands beside the matrix under them.
    const bool narrow = t && cfg.patch_dim() <= 16;
    float top_h = narrow ? std::min(avail.y * 0.66f, (avail.x - 40.f) * 0.5f + 3 * lh)
                         : std::min(avail.y * 0.46f, avail.x * 0.45f);
    float side = top_h - (narrow ? 3 : 2) * lh;

    ImGui::BeginGroup();
    char heading[96];
    std::snprintf(heading, sizeof heading, "the %d×%d input, cut into a %d×%d grid", S, S, g, g);
    Heading(heading, narrow ? side : FLT_MAX, false);
    std::snprintf(heading, sizeof heading, "of %d×%d-pixel patches", P, P);
    Heading(heading, narrow ? side : FLT_MAX, true);
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.numbers = true;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
    ImGui::SameLine(0, 40);

    DrawPatchTiles(ctx, side, narrow);
    if (!narrow) Note(note);
    if (!t) return;
    ImGui::Spacing();
    if (!narrow) return DrawFlattenedPatches(ctx, *t, ImGui::GetContentRegionAvail());
    const ImVec2 rest = ImGui::GetContentRegionAvail(), at = ImGui::GetCursorScreenPos();
    DrawFlattenedPatches(ctx, *t, ImVec2(rest.x * 0.45f, rest.y));
    ImGui::SetCursorScreenPos(ImVec2(at.x + rest.x * 0.45f + 30.f, at.y));  // beside its box (and its labels)
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x);
    Note(note);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

}  // namespace vit::gui
