// Stage `patches`: the input cut by the patch grid (with each patch's index),
// the patches laid out as numbered tiles, and the flattened N×(C·P·P) matrix;
// hovering a row outlines its tile and its place in the image, and back.
#include <algorithm>

#include "views/widgets/views.h"

namespace vit::gui {

void DrawPatchesView(ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    const Tensor& in = *ctx.tensor({StageKind::Input});
    int S = static_cast<int>(in.shape[1]), P = cfg.patch_size, g = ctx.grid(), N = ctx.patches();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float top_h = std::min(avail.y * 0.46f, avail.x * 0.45f);
    float side = top_h - 2 * lh;

    ImGui::BeginGroup();
    ImGui::Text("the %d×%d input, cut into a %d×%d grid", S, S, g, g);
    ImGui::TextDisabled("of %d×%d-pixel patches", P, P);
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.numbers = true;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
    ImGui::SameLine(0, 40);

    // The tiles: each patch drawn from the same texture with its own UVs.
    ImGui::BeginGroup();
    ImGui::Text("the %d patches as tiles", N);
    ImGui::TextDisabled("row by row: patch p = row · %d + column", g);
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
    if (const int sel = layout.patch_of(ctx.state.token); sel >= 0 && sel < g * g) {  // the selected tile (on its way from the step before)
        float x = static_cast<float>(sel % g), y = static_cast<float>(sel / g);
        if (const TokenGlide glide = ctx.glide(); glide.to == ctx.state.token) glide.patch(g, x, y, layout.count());
        const ImVec2 a(o.x + x * (tile + gap), o.y + y * (tile + gap));
        dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(a.x + tile + 2, a.y + tile + 2), IM_COL32(255, 200, 0, 255), 0, 0, 3.f);
    }
    ImGui::InvisibleButton("tiles", ImVec2(side, side));
    if (hovered >= 0 && ImGui::IsItemHovered()) {
        ctx.state.hover_token = layout.token_of(hovered);
        ImGui::SetTooltip("patch %d = row %d of the matrix below (token %d)\nclick: select it", hovered, hovered,
                          ctx.state.hover_token);
        if (ImGui::IsItemClicked()) select_patch(ctx.state, ctx.pipeline, hovered);
    }
    ImGui::EndGroup();
    Note("Each patch is flattened into one row of C·P·P = " + std::to_string(cfg.patch_dim()) +
         " numbers, channel by channel, then row by row, then column by column — the same order as the "
         "Conv2d weight (D, C, P, P). Hover a row to find its tile; click to select it.");

    ImGui::Spacing();
    int C = cfg.channels;
    const Tensor* t = ctx.tensor({StageKind::Patches});
    if (!t) return;
    HeatmapSpec s = stage_spec(ctx, {StageKind::Patches}, *t);
    const auto pixel_name = [C, P](int c) {
        int ch = c / (P * P), y = (c / P) % P, x = c % P;
        return C == 1 ? std::to_string(y) + "," + std::to_string(x)
                      : std::to_string(ch) + "," + std::to_string(y) + "," + std::to_string(x);
    };
    s.labels = {"flattened patches  " + shape_string(t->shape) + " = (N, C·P·P)", "patch",
                C == 1 ? "pixel (y, x)" : "pixel (channel, y, x)", pixel_name};
    s.token_rows = token_rows(ctx, StageKind::Patches);
    s.layout.size = ImGui::GetContentRegionAvail();
    DrawTokenHeatmap(ctx, s);
}

}  // namespace vit::gui
