// Stages `block{i}.scores` and `.attn` (H×T×T): one T×T matrix per head, query
// tokens as rows and key tokens as columns; for `attn` the row sums are shown
// next to it in grey, outside the weights' colour scale (softmax makes every row sum to 1).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views/widgets/views.h"

namespace vit::gui {

// Row sums of every head, H×T.
static std::vector<float> row_sums(const Tensor& t) {
    int H = static_cast<int>(t.shape[0]), T = static_cast<int>(t.shape[1]), K = static_cast<int>(t.shape[2]);
    std::vector<float> out(static_cast<size_t>(H) * T);
    for (int h = 0; h < H; ++h)
        for (int r = 0; r < T; ++r) {
            double s = 0;
            for (int c = 0; c < K; ++c) s += t.data[(static_cast<size_t>(h) * T + r) * K + c];
            out[static_cast<size_t>(h) * T + r] = static_cast<float>(s);
        }
    return out;
}

// Each query row's sum beside head `head`'s matrix (whose cells `m` says where they are), in a
// neutral grey outside the weights' colour scale: the sums are 1, beyond the weights' bar, so
// a colour would claim more than the bar shows. The sum written in each row tall enough for it.
static void DrawRowSums(ViewContext& ctx, const std::vector<float>& sums, int head, int T, float width,
                        const HeatmapResult& m) {
    const float* head_sums = sums.data() + static_cast<size_t>(head) * T;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float lh = ImGui::GetTextLineHeight(), ch = m.cell_h, w = std::max(10.f, width - 10.f);
    const ImVec2 p0(at.x, m.cells_min.y), p1(at.x + w, m.cells_max.y);
    dl->AddText(ImVec2(p0.x + 2.f, p0.y - lh - 2.f), IM_COL32(200, 200, 210, 255), "Σ");
    dl->AddRectFilled(p0, p1, IM_COL32(70, 70, 78, 255));
    const bool write = ctx.state.show_numbers && ch >= 0.8f * lh;
    for (int r = 0; r < T && write; ++r) {
        char b[16];
        std::snprintf(b, sizeof b, "%.2f", head_sums[r]);
        const ImVec2 ts = ImGui::CalcTextSize(b);
        const float scale = std::min({1.f, ch / lh, (w - 4.f) / ts.x});
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale,
                    ImVec2(p0.x + (w - ts.x * scale) * 0.5f, p0.y + (r + 0.5f) * ch - lh * scale * 0.5f),
                    IM_COL32(235, 235, 240, 255), b);
    }
    dl->AddRect(p0, p1, IM_COL32(170, 170, 180, 255));
    const int selected = token_rows(ctx, StageKind::Attn).selected;
    if (selected >= 0 && selected < T)
        dl->AddRect(ImVec2(p0.x - 1, p0.y + selected * ch - 1.5f), ImVec2(p1.x + 1, p0.y + (selected + 1) * ch + 1.5f),
                    IM_COL32(255, 200, 0, 255), 0.f, 0, 3.f);
    if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(p0, p1) && ch > 0.f) {
        const int r = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.y - p0.y) / ch), 0, T - 1);
        ImGui::SetTooltip("row %d sums to %.6g (softmax: always 1; grey, outside the weights' colour scale)", r,
                          head_sums[r]);
    }
    ImGui::Dummy(ImVec2(width, p1.y - at.y));
}

void DrawAttentionMatrixView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    int H = static_cast<int>(t.shape[0]), T = static_cast<int>(t.shape[1]);
    bool is_attn = stage.kind == StageKind::Attn;
    const std::vector<float>* sums = nullptr;
    float worst = 0.f;
    if (is_attn) {
        sums = &ctx.derived.get(derived_key(stage, Purpose::RowSums), [&] { return row_sums(t); });
        for (float v : *sums) worst = std::max(worst, std::fabs(v - 1.f));
    }
    DrawHeadSelector(ctx, true);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    int Dh = ctx.model.config.head_dim();
    char note[320];
    if (is_attn) {
        std::snprintf(note, sizeof note,
                      "Row r says how much query token r takes from each key token. Every row sums to 1 "
                      "(largest deviation here %.0e): attention is a weighted average.",
                      worst);
    } else {
        std::snprintf(note, sizeof note,
                      "Row r, column c: how well query r matches key c (a dot product), divided by √Dh = %.3g, so the "
                      "numbers stay in a range where softmax still has a choice to make.",
                      std::sqrt(double(Dh)));
    }
    float h_total = avail.y - FormulaAndNoteHeight(ctx, stage.kind, note) -
                    ImGui::GetTextLineHeight();  // + a colour bar's overhang
    float sum_w = is_attn ? (T <= 16 ? 80.f : 40.f) : 0.f;
    if (ctx.state.head >= 0) {
        const int h = ctx.state.head;
        HeatmapResult m = DrawTokenMatrix(
            ctx, stage, h, ImVec2(avail.x - sum_w, h_total),
            "head " + std::to_string(h) + ": a row per query token, a column per key token", TokenColumns::KeyToken);
        if (is_attn) {
            ImGui::SameLine(0, 4);
            DrawRowSums(ctx, *sums, h, T, sum_w, m);
        }
    } else {
        const HeadGrid grid =
            plan_head_grid(ctx, stage, t, ImVec2(avail.x, h_total), sum_w + 4.f, TokenColumns::KeyToken);
        const ImVec2 top_left = ImGui::GetCursorScreenPos();
        ImVec2 bottom_right = top_left;
        for (int h = 0; h < H; ++h) {
            if (h % grid.columns) ImGui::SameLine();
            ImGui::BeginGroup();
            HeatmapResult m = DrawGridHead(ctx, grid, stage, t, h, ImVec2(grid.tile.x - sum_w - 4.f, grid.tile.y),
                                           TokenColumns::KeyToken);
            if (is_attn) {
                ImGui::SameLine(0, 4);
                DrawRowSums(ctx, *sums, h, T, sum_w, m);
            }
            ImGui::EndGroup();
            bottom_right = ImVec2(std::max(bottom_right.x, ImGui::GetItemRectMax().x),
                                  std::max(bottom_right.y, ImGui::GetItemRectMax().y));
        }
        DrawGridColorBar(ctx, grid, stage, top_left, bottom_right);
    }
    Formula(ctx, stage.kind);
    Note(note);
}

}  // namespace vit::gui
