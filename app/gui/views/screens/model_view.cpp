// The model view (BertViz's, over the image): the selected token's attention
// for every block × every head at once, each cell a small overlay of the
// attention screen's kind (all cells in one texture, attention_atlas: uploaded
// once per token and trace, never per frame, and drawn in one draw call).
// Click a cell to open it large on the attention screen; click a patch of the
// image at the left, or a prefix token's button (CLS, DIST, REG0…), to choose the token.
#include <algorithm>

#include "logic/describe/attention_scale.h"
#include "logic/layout/model_view_layout.h"
#include "views/widgets/views.h"

namespace vit::gui {

// The picture to choose the token on, and a button per prefix token (none without a class token or registers).
static void DrawTokenPicker(ViewContext& ctx, float side) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted("click a patch:");
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.numbers = ctx.grid() <= 8;
    DrawModelPicture(ctx, ps);
    const TokenLayout& layout = ctx.pipeline.layout;
    for (int t = 0; t < layout.count(); ++t) {
        const std::string& name = layout.prefix[static_cast<size_t>(t)];
        const std::string label = layout.count() == 1 ? name + " token" : name;
        if (t > 0) SameLineOrWrap(ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x, 4.f);
        if (ImGui::Button(label.c_str())) select_token(ctx.state, ctx.pipeline, t);
    }
    ImGui::EndGroup();
}

// The question, the colour scale and how to read the grid.
static void DrawModelViewHeader(ViewContext& ctx, int tok) {
    AppState& st = ctx.state;
    ImGui::PushFont(ctx.heading());
    ImGui::TextWrapped("Where does %s look, in every block and every head?", ctx.name_of_token(tok).c_str());
    ImGui::PopFont();
    AttentionScaleCombo(st);
    Note("Rows are blocks, columns are heads; each map is the token's attention over the image: " +
         attention_scale_rule(st.attention_scale) + ". Click a map to open it large.");
    if (ctx.token_dropped(tok)) DroppedTokenNote(ctx, tok);
    StreamBlocksNote(ctx);
}

// Where the grid is drawn: its layout, its top-left corner on the screen and the draw list.
struct GridCanvas {
    const ModelGridLayout& g;
    ImVec2 o;
    ImDrawList* dl;
    ImVec2 at(const LayoutRect& r) const { return ImVec2(o.x + r.x, o.y + r.y); }
};

// The head numbers above each band of cells: "head 3", or "3" with one "head" in the corner when cells are narrow.
static void DrawHeadLabels(const GridCanvas& c) {
    const ModelGridLayout& g = c.g;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const bool short_heads = g.cell < ImGui::CalcTextSize("head 00").x;
    for (int band = 0; band < g.bands; ++band) {
        if (short_heads) {
            const float w = ImGui::CalcTextSize("head").x;
            c.dl->AddText(ImVec2(c.o.x + g.head_label(0, band).x - g.gap - w, c.o.y), text, "head");
        }
        for (int h = 0; h < g.heads; ++h) {
            LayoutRect r = g.head_label(h, band);
            std::string name = short_heads ? std::to_string(h) : "head " + std::to_string(h);
            float w = ImGui::CalcTextSize(name.c_str()).x;
            c.dl->AddText(ImVec2(c.o.x + r.x + (r.w - w) / 2, c.o.y + r.y), text, name.c_str());
        }
    }
}

// "block 3" left of each row of cells; under it, with the block-wide scale and room, the top of its scale.
static void DrawBlockLabels(ViewContext& ctx, const GridCanvas& c, int tok) {
    const ModelGridLayout& g = c.g;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const bool block_max =
        ctx.state.attention_scale == AttentionScale::LayerMax && g.cell >= 2.f * ImGui::GetTextLineHeightWithSpacing();
    for (int l = 0; l < g.layers; ++l) {
        LayoutRect r = g.layer_label(l);
        std::string name = "block " + std::to_string(l);
        ImVec2 ts = ImGui::CalcTextSize(name.c_str());
        const float y = c.o.y + r.y + (r.h - ts.y * (block_max ? 2.f : 1.f)) / 2;
        c.dl->AddText(ImVec2(c.o.x + r.x + r.w - ts.x, y), text, name.c_str());
        if (!block_max) continue;
        const std::vector<const float*> maps = layer_attention_maps(ctx, l, tok);
        if (maps.empty()) continue;
        const std::string top =
            "0–" + percent(attention_range(AttentionScale::LayerMax, maps, ctx.grid() * ctx.grid(), 0).hi);
        const float w = ImGui::CalcTextSize(top.c_str()).x;
        c.dl->AddText(ImVec2(c.o.x + r.x + r.w - w, y + ts.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), top.c_str());
    }
}

// Every map from one texture (uploaded once per token and trace) in one draw call; then the marks over them:
// the values when asked for, the token's own patch, and the map the attention screen enlarges.
static void DrawCells(ViewContext& ctx, const GridCanvas& c, int tok) {
    const ModelGridLayout& g = c.g;
    const AppState& st = ctx.state;
    const int grid = ctx.grid(), P = ctx.pipeline.layout.count(), own = ctx.pipeline.layout.patch_of(tok);
    const ImTextureID atlas = reinterpret_cast<ImTextureID>(attention_atlas(ctx, tok, g.cell).id);
    for (int l = 0; l < g.layers; ++l)
        for (int h = 0; h < g.heads; ++h) {
            const LayoutRect r = g.cell_rect(l, h);
            c.dl->AddImage(atlas, c.at(r), ImVec2(c.o.x + r.x + r.w, c.o.y + r.y + r.h),
                           ImVec2(float(h) / g.heads, float(l) / g.layers),
                           ImVec2(float(h + 1) / g.heads, float(l + 1) / g.layers));
        }
    for (int l = 0; l < g.layers; ++l)
        for (int h = 0; h < g.heads; ++h) {
            const LayoutRect r = g.cell_rect(l, h);
            const ImVec2 p0 = c.at(r), p1(p0.x + r.w, p0.y + r.h);
            if (const float* row = attention_row(ctx, l, h, tok)) DrawOverlayValues(row + P, grid, p0, g.cell);
            if (own >= 0) {  // the token's own patch
                const float side = g.cell / grid;
                ImVec2 a(p0.x + own % grid * side, p0.y + own / grid * side);
                c.dl->AddRect(a, ImVec2(a.x + side, a.y + side), IM_COL32(255, 200, 0, 255), 0.f, 0, 2.f);
            }
            if (l == st.layer && h == st.head)  // the map the attention screen enlarges
                c.dl->AddRect(ImVec2(p0.x - 2, p0.y - 2), ImVec2(p1.x + 2, p1.y + 2), IM_COL32(255, 200, 0, 255), 0.f,
                              0, 2.f);
        }
}

// The grid as one button `width` wide: the cell under the mouse is outlined, with its weight on the patch
// under the mouse in a tooltip; a click opens that block and head on the attention screen.
static void HandleGridMouse(ViewContext& ctx, const GridCanvas& c, float width, int tok) {
    const ModelGridLayout& g = c.g;
    const ImVec2 o = c.o;
    const int grid = ctx.grid();
    const ImVec2 grid_size(width, g.label_h + g.band_layers * (g.cell + g.gap));
    ImGui::SetCursorScreenPos(o);
    ImGui::InvisibleButton("model view", ImVec2(std::max(grid_size.x, 1.f), std::max(grid_size.y, 1.f)));
    int l = -1, h = -1;
    if (!ImGui::IsItemHovered() ||
        !model_grid_hit(g, ImGui::GetIO().MousePos.x - o.x, ImGui::GetIO().MousePos.y - o.y, l, h))
        return;
    const LayoutRect r = g.cell_rect(l, h);
    const ImVec2 m = ImGui::GetIO().MousePos;
    const float side = g.cell / grid;
    const int px = std::clamp(static_cast<int>((m.x - o.x - r.x) / side), 0, grid - 1);
    const int py = std::clamp(static_cast<int>((m.y - o.y - r.y) / side), 0, grid - 1);
    const int patch = py * grid + px;
    const float* row = attention_row(ctx, l, h, tok);
    c.dl->AddRect(ImVec2(o.x + r.x - 2, o.y + r.y - 2), ImVec2(o.x + r.x + r.w + 2, o.y + r.y + r.h + 2),
                  IM_COL32(255, 255, 255, 255), 0.f, 0, 2.f);
    ImGui::BeginTooltip();
    const TokenLayout& layout = ctx.pipeline.layout;
    ImGui::Text("block %d, head %d: %s gives patch %d %s%s", l, h, ctx.name_of_token(tok).c_str(), patch,
                percent(row[layout.token_of(patch)]).c_str(),
                layout.has_cls() ? (" (CLS " + percent(row[0]) + ")").c_str() : "");
    ImGui::TextDisabled("click: open it large");
    ImGui::EndTooltip();
    if (ImGui::IsItemClicked()) {
        select_layer(ctx.state, ctx.pipeline, l);
        select_head(ctx.state, ctx.pipeline, h);
        ctx.state.screen = Screen::Attention;
    }
}

void DrawModelView(ViewContext& ctx) {
    const Pipeline& p = ctx.pipeline;
    if (p.depth == 0) {
        ImGui::TextDisabled("This model has no encoder blocks, so there is no attention to show.");
        return;
    }
    const int tok = std::clamp(ctx.state.token, 0, p.tokens - 1);
    DrawModelViewHeader(ctx, tok);

    ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float pick = std::min(avail.x * 0.17f, avail.y * 0.5f);
    DrawTokenPicker(ctx, pick);
    ImGui::SameLine(0, 16);

    ModelGridSizes sizes;
    sizes.width = ImGui::GetContentRegionAvail().x;
    sizes.height = avail.y;
    sizes.label_w = std::max(ImGui::CalcTextSize("block 00").x, ImGui::CalcTextSize("0–100%").x) + 10.f;
    sizes.label_h = lh;
    sizes.gap = std::max(3.f, lh * 0.2f);
    const ModelGridLayout g = model_grid_layout(p.depth, p.heads, sizes);
    const GridCanvas canvas{g, ImGui::GetCursorScreenPos(), ImGui::GetWindowDrawList()};
    DrawHeadLabels(canvas);
    DrawBlockLabels(ctx, canvas, tok);
    DrawCells(ctx, canvas, tok);
    HandleGridMouse(ctx, canvas, sizes.width, tok);
}

}  // namespace vit::gui
