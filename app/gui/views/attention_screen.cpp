// The attention screen: for the chosen layer, where the selected token looks —
// its attention row over the image for every head side by side, the mean over
// heads, and attention rollout through all layers. Click a patch to choose the
// token; "CLS only" shows the CLS token's attention, as in the DINO paper.
// Beside them the occlusion map (Ask panel): where masking hurts the answer.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ask_overlays.h"
#include "token_order.h"
#include "views.h"

namespace vit::gui {

static void DrawMap(ViewContext& ctx, const std::string& title, const std::string& subtitle, const float* overlay,
                    const std::string& key, float side, bool clickable) {
    ImGui::BeginGroup();
    // Titles are drawn, not laid out, so every tile is exactly `side` wide.
    ImVec2 at = ImGui::GetCursorScreenPos();
    float lh = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(at, ImVec2(at.x + side, at.y + 2 * lh + 4), true);
    dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), title.c_str());
    dl->AddText(ImVec2(at.x, at.y + lh), ImGui::GetColorU32(ImGuiCol_TextDisabled), subtitle.c_str());
    dl->PopClipRect();
    ImGui::Dummy(ImVec2(side, 2 * lh));
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.grid = false;
    ps.overlay = overlay;
    ps.overlay_key = key;
    ps.overlay_alpha = 0.72f;
    ps.clickable = clickable;
    ps.show_selection = true;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
}

void DrawAttentionScreen(ViewContext& ctx) {
    const Pipeline& p = ctx.pipeline;
    if (p.depth == 0) {
        ImGui::TextDisabled("This model has no encoder blocks, so there is no attention to show.");
        return;
    }
    AppState& st = ctx.state;
    select_layer(st, p, st.layer);
    int layer = st.layer, T = p.tokens, N = ctx.patches(), H = p.heads;
    int tok = std::clamp(attention_token(st), 0, T - 1);

    // Controls.
    ImGui::PushFont(ctx.heading());
    ImGui::Text("Where does %s look?", token_name(tok).c_str());
    ImGui::PopFont();
    ImGui::AlignTextToFramePadding();
    ImGui::Text("layer");
    ImGui::SameLine();
    if (ImGui::ArrowButton("layer_prev", ImGuiDir_Left)) select_layer(st, p, layer - 1);
    ImGui::SameLine();
    ImGui::Text("block %d of %d", layer, p.depth);
    ImGui::SameLine();
    if (ImGui::ArrowButton("layer_next", ImGuiDir_Right)) select_layer(st, p, layer + 1);
    ImGui::SameLine(0, 30);
    bool cls = st.cls_only;
    if (ImGui::Checkbox("CLS only (DINO)", &cls)) toggle_cls_attention(st, p);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the CLS token's attention in the last layer (key C)");
    if (ctx.ask_open) {
        ImGui::SameLine(0, 30);
        ImGui::Checkbox("Ask the model", ctx.ask_open);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Mask or drop patches, silence heads, remove positions (the Ask panel)");
    }
    Note("Click a patch to choose the token. Each map is that token's attention row over the " + std::to_string(N) +
         " patches, in % (what it gives to CLS is written under each title); colours are stretched from each map's own minimum "
         "(dark) to its maximum (bright): the bar under each map gives the real range.");
    if (ctx.ask && ctx.ask->occlusion)
        Note("Last map: the occlusion map, how much the answer's probability falls when that patch alone is masked "
             "(bright: the answer rests there). Where it differs from attention, attention is not importance. "
             "Right-click a head to silence it.");

    layer = st.layer;
    const StageRef attn_stage{StageKind::Attn, layer};
    const Tensor* attn = ctx.tensor(attn_stage);
    const Tensor* roll = ctx.tensor({StageKind::Rollout});
    if (!attn) return;
    // Permuted or dropped tokens (Ask panel): rows and columns back in image order, zeros where dropped.
    const std::vector<int>& kept = ctx.trace.token_patches();
    const bool reordered = tokens_reordered(kept, N);
    auto in_image_order = [&](const StageRef& stage, const Tensor& t) {
        return reordered ? ctx.derived.get(derived_key(stage, "image order"), [&] { return square_in_image_order(t, kept, N); }).data()
                         : t.data.data();
    };
    const float* attn_data = in_image_order(attn_stage, *attn);
    const float* roll_data = roll ? in_image_order({StageKind::Rollout}, *roll) : nullptr;
    auto row = [&](int h) { return attn_data + (static_cast<size_t>(h) * T + tok) * T; };
    const std::string row_name = "row " + std::to_string(tok);
    const std::vector<float>& mean = ctx.derived.get(derived_key(attn_stage, "head mean " + row_name), [&] {
        std::vector<float> m(T, 0.f);
        for (int h = 0; h < H; ++h)
            for (int c = 0; c < T; ++c) m[c] += row(h)[c] / H;
        return m;
    });

    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    // The picture to click on, then the maps in the best-fitting grid.
    float pick = std::min(avail.x * 0.26f, avail.y - lh);
    ImGui::BeginGroup();
    ImGui::TextUnformatted(ctx.ask_painting() ? "paint: drag to mask, right-drag to clear" : "the image: click a patch");
    PictureSpec ps;
    ps.size = ImVec2(pick, pick);
    ps.numbers = ctx.grid() <= 8;
    ps.clickable = !ctx.ask_painting();
    const PictureResult picked = DrawModelPicture(ctx, ps);
    DrawPatchMarks(st.ask, picked.p0, picked.p1, ctx.grid());
    if (ctx.ask_painting()) PaintPatches(st.ask, picked);
    ImGui::EndGroup();
    ImGui::SameLine(0, 24);

    const OcclusionMap* occ = ctx.ask && ctx.ask->occlusion ? &*ctx.ask->occlusion : nullptr;
    const int roll_tile = roll ? H + 1 : -1;
    int n = H + 1 + (roll ? 1 : 0) + (occ ? 1 : 0);
    float W = ImGui::GetContentRegionAvail().x, Hh = avail.y;
    float best = 0.f;
    int best_cols = n;
    for (int cols = 1; cols <= n; ++cols) {
        int rows = (n + cols - 1) / cols;
        float side = std::min(W / cols - 14.f, Hh / rows - 3 * lh - 36.f);
        if (side > best) best = side, best_cols = cols;
    }
    float side = std::max(best, 40.f);
    ImGui::BeginGroup();
    for (int i = 0; i < n; ++i) {
        if (i % best_cols) ImGui::SameLine(0, 14);
        if (i < H) {
            DrawMap(ctx, "head " + std::to_string(i), "to CLS: " + percent(row(i)[0]), row(i) + 1,
                    texture_key(ctx, attn_stage, i, Colormap::Sequential, row_name),
                    side, true);
            if (head_silenced(st.ask, layer, i)) DrawSilencedVeil();
            if (ImGui::IsMouseHoveringRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()) &&
                ImGui::IsMouseClicked(ImGuiMouseButton_Right))  // right-click silences the head (Ask panel)
                set_head_silenced(st.ask, layer, i, !head_silenced(st.ask, layer, i));
        } else if (i == H) {
            DrawMap(ctx, "mean of " + std::to_string(H) + " heads", "to CLS: " + percent(mean[0]), mean.data() + 1,
                    texture_key(ctx, attn_stage, -1, Colormap::Sequential, "head mean " + row_name), side, true);
        } else if (i == roll_tile) {
            DrawMap(ctx, stage_id(StageKind::Rollout), p.depth == 1 ? "the only block" : "blocks 0…" + std::to_string(p.depth - 1),
                    roll_data + static_cast<size_t>(tok) * T + 1,
                    texture_key(ctx, {StageKind::Rollout}, -1, Colormap::Sequential, row_name), side, true);
        } else {
            const std::vector<float>& importance = ctx.derived.get("occlusion importance", [&] {
                std::vector<float> drop(occ->probabilities.size());
                for (size_t q = 0; q < drop.size(); ++q) drop[q] = occ->top_probability - occ->probabilities[q];
                return drop;
            });
            const std::string& top = ctx.model.config.labels[occ->top_class];
            DrawMap(ctx, "occlusion map", "p(" + top + ") lost if masked", importance.data(),
                    texture_key(ctx, {StageKind::Probs}, -1, Colormap::Sequential, "occlusion"), side, true);
        }
    }
    ImGui::EndGroup();
}

}  // namespace vit::gui
