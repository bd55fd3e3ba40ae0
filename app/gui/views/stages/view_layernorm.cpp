// LayerNorm stages (`block{i}.ln1`, `block{i}.ln2`, `norm`): the tokens before
// and after, each with every token's mean and standard deviation over its D
// features, so students see each row pulled to mean 0, std 1 (then γ, β).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views/widgets/views.h"

namespace vit::gui {

// Per row of a T×D stage: {mean, std} (biased std, as LayerNorm uses), T×2.
static std::vector<float> row_stats(const Tensor& t) {
    int rows = static_cast<int>(t.rows()), cols = static_cast<int>(t.cols());
    std::vector<float> out(static_cast<size_t>(rows) * 2);
    for (int r = 0; r < rows; ++r) {
        double s = 0, ss = 0;
        for (int c = 0; c < cols; ++c) s += t.data[static_cast<size_t>(r) * cols + c];
        double mean = s / cols;
        for (int c = 0; c < cols; ++c) {
            double d = t.data[static_cast<size_t>(r) * cols + c] - mean;
            ss += d * d;
        }
        out[r * 2] = static_cast<float>(mean);
        out[r * 2 + 1] = static_cast<float>(std::sqrt(ss / cols));
    }
    return out;
}

static void DrawSide(ViewContext& ctx, const StageRef& stage, const std::string& title, ImVec2 size) {
    const Tensor* t = ctx.tensor(stage);
    if (!t) return;
    int T = static_cast<int>(t->rows());
    bool small = T <= 16;
    // Each of the two columns wide enough for its label ("mean", "std") and, with few tokens, its numbers.
    const float label_w = ImGui::CalcTextSize("mean").x + 16.f;
    float stats_w = 2 * (small ? std::max(label_w, ImGui::GetFontSize() * 3.6f) : label_w) + 10.f;
    // The final norm's CLS row is what a token-pooling head reads (an averaging head reads every patch row).
    const ModelConfig& cfg = ctx.model.config;
    const bool cls_read = stage.kind == StageKind::Norm && cfg.class_token && cfg.global_pool == GlobalPool::Token;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    HeatmapResult m = DrawTokenMatrix(ctx, stage, -1, ImVec2(size.x - stats_w, size.y),
                                      title + " " + shape_string(t->shape), TokenColumns::Feature, 0, cls_read ? 0 : -1,
                                      !cls_read             ? ""
                                      : cfg.num_classes > 0 ? "CLS → classifier"
                                                            : "CLS = the image's features");
    // Beside the matrix, but inside `size` even when the matrix's title is wider than it.
    const float stats_x = std::min(ImGui::GetItemRectMax().x + 4.f, origin.x + size.x - stats_w);
    ImGui::SameLine(0, 4);
    ImGui::SetCursorScreenPos(ImVec2(stats_x, origin.y));
    const std::vector<float>& st =
        ctx.derived.get(derived_key(stage, Purpose::RowStats), [&] { return row_stats(*t); });
    HeatmapSpec s;
    s.matrix = {texture_key(ctx, stage, -1, Colormap::Diverging, Purpose::RowStats), st.data(), T, 2,
                Colormap::Diverging};
    const auto stat_text = [](float v) {
        char b[16];
        std::snprintf(b, sizeof b, "%.2f", std::fabs(v) < 0.005f ? 0.f : v);
        return std::string(b);
    };
    s.labels = {" ", "", "", [](int c) { return std::string(c == 0 ? "mean" : "std"); }, stat_text};
    s.token_rows = token_rows(ctx, stage.kind);
    s.layout = side_column(ImVec2(stats_w, size.y), (stats_w - 10.f) / 2.f, m.cell_h > 0 ? m.cell_h : 0.f,
                           ctx.state.show_numbers);
    DrawTokenHeatmap(ctx, s);
}

// What leaves the final norm for the head, for the model's token layout.
static std::string final_norm_note(const ModelConfig& c) {
    if (c.fc_norm)
        return "The final LayerNorm is an identity here (timm fc_norm): the tokens pass unchanged, and the LayerNorm "
               "comes after pooling (stage pool_norm).";
    if (c.global_pool == GlobalPool::Avg)
        return "The final LayerNorm. The head reads " + pooled_tokens(c) + " (stage pool), not one row.";
    if (c.dist_token && c.num_classes > 0)
        return "The final LayerNorm. Row 0 (CLS) goes on to the class head and row 1 (DIST) to the distillation head.";
    if (c.num_classes > 0) return "The final LayerNorm. Only row 0 (the CLS token) goes on to the classifier head.";
    return "The final LayerNorm. This model has no classifier head (like DINO): row 0, the CLS token, is the image's "
           "feature vector.";
}

void DrawLayerNormView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const std::string& id = ctx.stage_id();
    const StageRef in = *stage_input(stage, ctx.pipeline.depth, ctx.model.config.norm_pre);
    const std::string in_id = stage_id(in);
    const std::string note =
        stage.kind == StageKind::Norm
            ? final_norm_note(ctx.model.config)
            : "Every row is shifted to mean 0 and scaled to standard deviation 1, then multiplied by the "
              "learned γ and shifted by β (so 'after' is exactly 0 and 1 only when γ = 1 and β = 0).";
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    const float footer = lh + FormulaAndNoteHeight(ctx, stage.kind, note);  // the token's statistics, formula, note
    if (ctx.pipeline.tokens <= 32) {                     // few tokens: before above after, each the full width
        float h = (avail.y - footer - 2.6f * lh) / 2.f;  // the operator sign line and the spacing between items
        DrawSide(ctx, in, "before: " + in_id, ImVec2(avail.x - 10.f, h));
        OperatorSign(ctx, "↓ LayerNorm", lh * 1.2f);
        DrawSide(ctx, stage, "after: " + id, ImVec2(avail.x - 10.f, h));
    } else {
        float h = avail.y - footer;
        float half = (avail.x - OperatorSignWidth(ctx, "→")) / 2.f - 2.f;
        DrawSide(ctx, in, "before: " + in_id, ImVec2(half, h));
        ImGui::SameLine();
        OperatorSign(ctx, "→", h * 0.5f);
        ImGui::SameLine();
        DrawSide(ctx, stage, "after: " + id, ImVec2(half, h));
    }

    const Tensor* before = ctx.tensor(in);
    const Tensor* after = ctx.tensor(stage);
    if (before && after) {
        const auto& sb = ctx.derived.get(derived_key(in, Purpose::RowStats), [&] { return row_stats(*before); });
        const auto& sa = ctx.derived.get(derived_key(stage, Purpose::RowStats), [&] { return row_stats(*after); });
        const int t = ctx.row_map(stage.kind).row_of_token(ctx.state.token);
        char buf[240];
        auto z = [](float v) { return std::fabs(v) < 5e-4f ? 0.f : v; };  // no "-0.000"
        if (t < 0 || t >= std::min(before->rows(), after->rows()))
            std::snprintf(buf, sizeof buf, "%s: dropped, the encoder never sees it",
                          ctx.name_of_token(ctx.state.token).c_str());
        else
            std::snprintf(buf, sizeof buf, "%s:  before mean %.3f, std %.3f   →   after mean %.3f, std %.3f",
                          ctx.name_of_token(ctx.state.token).c_str(), z(sb[t * 2]), z(sb[t * 2 + 1]), z(sa[t * 2]),
                          z(sa[t * 2 + 1]));
        ImGui::TextColored(ImVec4(1.f, 0.78f, 0.f, 1.f), "%s", buf);
    }
    Formula(ctx, stage.kind);
    Note(note);
}

}  // namespace vit::gui
