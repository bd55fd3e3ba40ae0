// Stages `block{i}.scores` and `.attn` (H×T×T): one T×T matrix per head, query
// tokens as rows and key tokens as columns; for `attn` the row sums are shown
// next to it (softmax makes every row sum to 1).
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

// `compact`: beside a compact grid head (no axes), so its title names the column instead of a tick.
static void DrawRowSums(ViewContext& ctx, const StageRef& stage, const std::vector<float>& sums, int head, int T, ImVec2 size,
                        float cell_h, bool compact) {
    HeatmapSpec s;
    const float* head_sums = sums.data() + static_cast<size_t>(head) * T;
    s.matrix = {texture_key(ctx, stage, head, Colormap::Sequential, "row sums"), head_sums, T, 1, Colormap::Sequential,
                {0.f, 1.f}};
    const auto sum_text = [](float v) {
        char b[16];
        std::snprintf(b, sizeof b, "%.3f", v);
        return std::string(b);
    };
    s.labels = {" ", "", "", [](int) { return std::string("Σ"); }, sum_text};
    s.token_rows = token_rows(ctx, stage.kind);  // the selected row outlined (gliding with the matrix's between lesson steps)
    s.layout = side_column(size, size.x - 10.f, cell_h, ctx.state.show_numbers);
    if (compact) {
        s.labels.title = "Σ";
        s.layout.axes = false;
    }
    DrawHeatmap(ctx.cache, s);
}

void DrawAttentionMatrixView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    int H = static_cast<int>(t.shape[0]), T = static_cast<int>(t.shape[1]);
    bool is_attn = stage.kind == StageKind::Attn;
    const std::vector<float>* sums = nullptr;
    float worst = 0.f;
    if (is_attn) {
        sums = &ctx.derived.get(derived_key(stage, "row sums"), [&] { return row_sums(t); });
        for (float v : *sums) worst = std::max(worst, std::fabs(v - 1.f));
    }
    DrawHeadSelector(ctx, true);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    int Dh = ctx.model.config.head_dim();
    char note[320];
    if (is_attn) {
        std::snprintf(note, sizeof note,
                      "Row r says how much query token r takes from each key token. Every row sums to 1 "
                      "(largest deviation here %.0e): attention is a weighted average.", worst);
    } else {
        std::snprintf(note, sizeof note,
                      "Row r, column c: how well query r matches key c (a dot product), divided by √Dh = %.3g, so the "
                      "numbers stay in a range where softmax still has a choice to make.", std::sqrt(double(Dh)));
    }
    float h_total = avail.y - FormulaAndNoteHeight(ctx, stage.kind, note) - ImGui::GetTextLineHeight();  // + a colour bar's overhang
    float sum_w = is_attn ? (T <= 16 ? 80.f : 40.f) : 0.f;
    if (ctx.state.head >= 0) {
        const int h = ctx.state.head;
        HeatmapResult m = DrawTokenMatrix(ctx, stage, h, ImVec2(avail.x - sum_w, h_total),
                                          "head " + std::to_string(h) + ": query token ↓ attends to key token →", "key token");
        if (is_attn) {
            ImGui::SameLine(0, 4);
            DrawRowSums(ctx, stage, *sums, h, T, ImVec2(sum_w, h_total), m.cell_h, false);
        }
    } else {
        const HeadGrid grid = plan_head_grid(ctx, stage, t, ImVec2(avail.x, h_total), sum_w + 4.f, "key token");
        const ImVec2 top_left = ImGui::GetCursorScreenPos();
        ImVec2 bottom_right = top_left;
        for (int h = 0; h < H; ++h) {
            if (h % grid.columns) ImGui::SameLine();
            ImGui::BeginGroup();
            HeatmapResult m = DrawGridHead(ctx, grid, stage, t, h, ImVec2(grid.tile.x - sum_w - 4.f, grid.tile.y), "key token");
            if (is_attn) {
                ImGui::SameLine(0, 4);
                DrawRowSums(ctx, stage, *sums, h, T, ImVec2(sum_w, grid.tile.y), m.cell_h, grid.compact);
            }
            ImGui::EndGroup();
            bottom_right = ImVec2(std::max(bottom_right.x, ImGui::GetItemRectMax().x), std::max(bottom_right.y, ImGui::GetItemRectMax().y));
        }
        DrawGridColorBar(ctx, grid, stage, top_left, bottom_right);
    }
    Formula(ctx, stage.kind);
    Note(note);
}

}  // namespace vit::gui
