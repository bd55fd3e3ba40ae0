// The loaded model's half and the comparison model's half (see comparison_half.h).
#include "views/screens/comparison_half.h"

#include <algorithm>
#include <cmath>

#include "logic/describe/attention_scale.h"

namespace vit::gui {

namespace {

std::string block_of(const ViewContext& ctx) {
    return "block " + std::to_string(ctx.state.layer) + " of 0–" + std::to_string(ctx.pipeline.depth - 1);
}

// Wrapped text in `colour`, in `font` (no word is shrunk or cut, however long the model's name).
void WrappedLine(ImFont* font, ImU32 colour, const std::string& text) {
    ImGui::PushFont(font);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// One half: a child window of `size` with the model's name (heading), its block (in the formulas'
// blue: not dimmed, it says which block this half shows), the note (amber), then `draw`.
void DrawHalf(ViewContext* views, const char* id, ImVec2 size, const std::string& name, const std::string& block,
              const std::string& note, const std::function<void(ViewContext&)>& draw, const ViewContext& fonts_of) {
    ImGui::BeginChild(id, size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    WrappedLine(fonts_of.heading(), ImGui::GetColorU32(ImGuiCol_Text), name);
    WrappedLine(ImGui::GetFont(), IM_COL32(150, 210, 255, 255), block);
    if (!note.empty()) WrappedLine(ImGui::GetFont(), IM_COL32(255, 200, 90, 255), note);
    if (views) draw(*views);
    ImGui::EndChild();
}

}  // namespace

void DrawComparisonHalves(ViewContext& main, ImVec2 size, const std::function<void(ViewContext&)>& draw_loaded,
                          const std::function<void(ViewContext&)>& draw_compared) {
    const ComparisonSide& side = *main.comparison;
    const float gap = ImGui::GetFontSize() * 1.2f;
    const ImVec2 half((size.x - gap) * 0.5f, size.y);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    DrawHalf(&main, "loaded_half", half, side.loaded_name, block_of(main), "", draw_loaded, main);
    ImGui::SameLine(0, gap);
    std::string subtitle = "its block at the same relative depth";
    if (side.views) {
        const ViewContext& c = *side.views;
        subtitle = c.pipeline.depth > 0 ? block_of(c) + ": the same relative depth as block " +
                                              std::to_string(main.state.layer) + " on the left"
                                        : "no encoder blocks";
    }
    DrawHalf(side.views, "comparison_half", half, side.name, subtitle, side.note, draw_compared, main);
    // The line between the halves.
    const float x = at.x + half.x + gap * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, at.y), ImVec2(x, at.y + size.y), ImGui::GetColorU32(ImGuiCol_Separator), 2.f);
}

void DrawComparisonClsAttention(ViewContext& cmp) {
    const Pipeline& p = cmp.pipeline;
    const int layer = cmp.state.layer, N = cmp.patches();
    if (p.depth == 0) return (void)ImGui::TextWrapped("This model has no encoder blocks, so there is no attention to show.");
    if (!p.layout.has_cls())
        return (void)ImGui::TextWrapped("This model has no CLS token (its head pools the patches): no CLS attention to show.");
    const std::vector<const float*> maps = layer_attention_maps(cmp, layer, 0);
    if (maps.empty()) return (void)ImGui::TextDisabled("The trace has no block %d attention.", layer);
    const AttentionScale scale = cmp.state.attention_scale;
    const bool own_bars = scale == AttentionScale::EachMap;
    const Range shared = attention_range(scale, maps, N, 0);
    const float gap = std::round(ImGui::GetFontSize() * 0.6f), spacing = ImGui::GetStyle().ItemSpacing.y;
    const float title_h = ImGui::GetFontSize() * 1.3f + 4.f, bar_h = own_bars ? 20.f + ImGui::GetTextLineHeight() : 0.f;
    const float bar_w = own_bars ? 0.f : ImGui::CalcTextSize("100%").x + 16.f + 8.f + 2 * gap;
    const ImVec2 avail(ImGui::GetContentRegionAvail().x - bar_w, ImGui::GetContentRegionAvail().y);
    const int H = static_cast<int>(maps.size()), cols = best_columns(H, avail, 1.f, gap, title_h + bar_h + 3 * spacing);
    const int rows = (H + cols - 1) / cols;
    const float side = std::max(40.f, std::min(avail.x / cols - gap, avail.y / rows - title_h - bar_h - 3 * spacing));
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImVec2 corner = top;
    for (int h = 0; h < H; ++h) {
        if (h % cols) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        FittedText(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), side, "head " + std::to_string(h) + " · CLS",
                   ImGui::GetColorU32(ImGuiCol_Text));
        ImGui::Dummy(ImVec2(side, title_h));
        PictureSpec ps;
        ps.size = ImVec2(side, side);
        ps.grid = ps.clickable = ps.show_selection = false;
        ps.overlay = maps[h];
        ps.overlay_key = texture_key(cmp, {StageKind::Attn, layer}, h, Colormap::Sequential,
                                     std::string("compared cls|") + attention_scale_name(scale));
        ps.overlay_range = attention_range(scale, maps, N, h);
        ps.overlay_alpha = 0.72f;
        ps.overlay_bar = own_bars;
        DrawModelPicture(cmp, ps);
        ImGui::EndGroup();
        corner = ImVec2(std::max(corner.x, ImGui::GetItemRectMax().x), std::max(corner.y, ImGui::GetItemRectMax().y));
    }
    if (!own_bars)  // the block's one colour bar, as tall as the tiles
        DrawColorBar(cmp.cache, Colormap::Sequential, shared, ImVec2(corner.x + gap, top.y + title_h), 16.f,
                     std::max(corner.y - top.y - title_h, 4 * ImGui::GetTextLineHeightWithSpacing()), percent);
}

}  // namespace vit::gui
