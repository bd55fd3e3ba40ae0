// Stages `block{i}.q`, `.k`, `.v` (H×T×Dh): the queries, keys and values of
// every head side by side, or one head large; and the head selector that the
// attention-matrix views share.
#include <algorithm>
#include <cstdio>

#include "views/widgets/views.h"

namespace vit::gui {

void DrawHeadSelector(ViewContext& ctx, bool allow_all) {
    int H = ctx.pipeline.heads;
    if (H > 6) {  // many heads: "all" and a drop-down instead of a row of buttons
        if (allow_all) {
            if (ImGui::RadioButton("all heads", ctx.state.head < 0)) select_head(ctx.state, ctx.pipeline, -1);
            ImGui::SameLine();
        }
        if (ImGui::RadioButton("one head:", ctx.state.head >= 0 || !allow_all) && ctx.state.head < 0)
            select_head(ctx.state, ctx.pipeline, 0);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.f);
        int h = std::max(0, ctx.state.head);
        std::string preview = "head " + std::to_string(h);
        if (ImGui::BeginCombo("##head", preview.c_str())) {
            for (int i = 0; i < H; ++i) {
                std::string label = "head " + std::to_string(i);
                if (ImGui::Selectable(label.c_str(), i == ctx.state.head)) select_head(ctx.state, ctx.pipeline, i);
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        ImGui::TextDisabled("(key H)");
        return;
    }
    if (allow_all) {
        if (ImGui::RadioButton("all heads", ctx.state.head < 0)) select_head(ctx.state, ctx.pipeline, -1);
        ImGui::SameLine();
    }
    for (int h = 0; h < H; ++h) {
        std::string label = "head " + std::to_string(h);
        bool on = ctx.state.head == h || (!allow_all && ctx.state.head < 0 && h == 0);
        if (ImGui::RadioButton(label.c_str(), on)) select_head(ctx.state, ctx.pipeline, h);
        if (h + 1 < H) ImGui::SameLine();
    }
}

void DrawQkvView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    const auto& cfg = ctx.model.config;
    int H = static_cast<int>(t.shape[0]), Dh = static_cast<int>(t.shape[2]);
    const char* what = stage.kind == StageKind::Q   ? "queries: what each token is looking for"
                       : stage.kind == StageKind::K ? "keys: what each token offers to be found by"
                                                    : "values: what each token hands over when it is attended to";
    DrawHeadSelector(ctx, true);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    const std::string note = std::string("The ") + what + ". Each head works in its own " + std::to_string(Dh) +
                             "-dimensional space (D = " + std::to_string(cfg.embed_dim) + " split " +
                             std::to_string(H) + " ways): head h gets features [h·" + std::to_string(Dh) + ", (h+1)·" +
                             std::to_string(Dh) + ").";
    float h_total = avail.y - FormulaAndNoteHeight(ctx, stage.kind, note) -
                    ImGui::GetTextLineHeight();  // + a colour bar's overhang
    if (ctx.state.head >= 0) {
        int h = ctx.state.head;
        DrawTokenMatrix(
            ctx, stage, h, ImVec2(avail.x, h_total),
            "head " + std::to_string(h) + "  (" + std::to_string(t.shape[1]) + ", " + std::to_string(Dh) + ")",
            TokenColumns::HeadFeature);
    } else {
        const HeadGrid grid = plan_head_grid(ctx, stage, t, ImVec2(avail.x, h_total), 0.f, TokenColumns::Feature);
        const ImVec2 top_left = ImGui::GetCursorScreenPos();
        ImVec2 bottom_right = top_left;
        for (int h = 0; h < H; ++h) {
            if (h % grid.columns) ImGui::SameLine();
            DrawGridHead(ctx, grid, stage, t, h, grid.tile, TokenColumns::Feature);
            bottom_right = ImVec2(std::max(bottom_right.x, ImGui::GetItemRectMax().x),
                                  std::max(bottom_right.y, ImGui::GetItemRectMax().y));
        }
        DrawGridColorBar(ctx, grid, stage, top_left, bottom_right);
    }
    Formula(ctx, stage.kind);
    Note(note);
}

}  // namespace vit::gui
