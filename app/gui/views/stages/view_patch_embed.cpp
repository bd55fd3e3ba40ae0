// Stage `patch_embed`: patches (N, C·P·P) · Wᵀ (C·P·P, D) + b = (N, D), the bias under
// Wᵀ's columns (a small model's numbers large enough to redo the sum), and the
// core's check that the stride-P convolution gives the same matrix (the patch
// embedding *is* that convolution), computed once per trace.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "explain/conv_check.h"
#include "views/widgets/views.h"

namespace vit::gui {

// Two decimals: a small weight matrix's numbers large enough to redo the sum by hand.
static std::string two_decimals(float v) {
    char b[16];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}

// Wᵀ (C·P·P, D) and under it the bias b (1, D), its columns under Wᵀ's, in a box of `size`.
// `small`: the weights hold their numbers, written with two decimals.
static void DrawWeightsAndBias(ViewContext& ctx, ImVec2 size, bool small) {
    const auto& cfg = ctx.model.config;
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const std::vector<float>& wt = ctx.derived.get(derived_key({StageKind::PatchEmbed}, Purpose::PatchWeights), [&] {
        const Mat& W = ctx.model.patch_w;  // D × CPP
        std::vector<float> out(static_cast<size_t>(W.size()));
        for (int r = 0; r < W.cols(); ++r)
            for (int c = 0; c < W.rows(); ++c) out[static_cast<size_t>(r) * W.rows() + c] = W(c, r);
        return out;
    });
    char title[96];
    std::snprintf(title, sizeof title, "weights Wᵀ (%d, %d)", cfg.patch_dim(), cfg.embed_dim);
    // The bias row takes one cell row of a small matrix's height, else a line; its title a line more.
    const float bias_h = (small ? size.y / (cfg.patch_dim() + 3.f) : lh) + 2.f * lh;
    ImGui::BeginGroup();
    HeatmapSpec w = plain_matrix_spec(
        ctx, texture_key(ctx, {StageKind::PatchEmbed}, -1, Colormap::Diverging, Purpose::PatchWeights), wt.data(),
        cfg.patch_dim(), cfg.embed_dim, ImVec2(size.x, size.y - bias_h), title, "pixel", "feature");
    if (small) w.labels.format = two_decimals, w.layout.wide_cells = 2.f;  // "-0.50" fits a cell's width
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const HeatmapResult cells = DrawHeatmap(ctx.cache, w);
    ImGui::SetCursorScreenPos(ImVec2(cells.cells_min.x, ImGui::GetCursorScreenPos().y));
    HeatmapSpec b = plain_matrix_spec(
        ctx, texture_key(ctx, {StageKind::PatchEmbed}, -1, Colormap::Diverging, Purpose::PatchBias),
        ctx.model.patch_b.data(), 1, cfg.embed_dim, ImVec2(size.x - (cells.cells_min.x - origin.x), bias_h),
        "+ b (" + std::to_string(cfg.embed_dim) + "), learned bias", "", "");
    b.layout.axes = false;
    b.layout.cell_w = cells.cell_w;
    b.layout.cell_h = small ? cells.cell_h : lh;
    if (small) b.labels.format = two_decimals;
    DrawHeatmap(ctx.cache, b);
    ImGui::EndGroup();
}

// The share of the matrices' height the top row (patches · Wᵀ + b) takes: the larger when Wᵀ holds its
// numbers (a small model's: Wᵀ and its bias need rows tall enough for their numbers, as the result does);
// else the result's (its cells are the larger per unit of height).
static float top_row_share(bool small) { return small ? 0.55f : 0.45f; }

void DrawPatchEmbedView(ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float diff = ctx.derived.get(derived_key({StageKind::PatchEmbed}, Purpose::ConvolutionDifference), [&] {
        return std::vector<float>{patch_embed_conv_difference(ctx.model, ctx.trace)};
    })[0];
    char note[240];
    std::snprintf(note, sizeof note,
                  "Each row: one patch's %d-number embedding. The stride-%d convolution gives the same matrix "
                  "(max |conv − linear| = %.2g).",
                  cfg.embed_dim, cfg.patch_size, diff);
    // A small model's weights hold their numbers: the patches take only their share of the width.
    const bool small = cfg.patch_dim() <= 16 && cfg.embed_dim <= 16;
    // Two rows of matrices share what the formula and the note leave: patches · (Wᵀ over + b), then = the
    // result.
    const float rows_h = avail.y - FormulaAndNoteHeight(ctx, StageKind::PatchEmbed, note) - lh;
    const float row_h = rows_h * top_row_share(small), result_h = rows_h - row_h;
    const float sign_w = OperatorSignWidth(ctx, "·");
    const float patches_share = small ? (cfg.patch_dim() + 2.f) / (cfg.patch_dim() + cfg.embed_dim + 6.f) : 0.5f;
    const float patches_w = (avail.x - sign_w) * patches_share - 8.f;

    // Row 1: patches · Wᵀ, with the bias under Wᵀ's columns
    const Tensor* patches = ctx.tensor({StageKind::Patches});
    if (patches) {
        HeatmapSpec s = stage_spec(ctx, {StageKind::Patches}, *patches);
        s.labels = {"patches " + shape_string(patches->shape), "patch", "pixel"};
        s.token_rows = token_rows(ctx, StageKind::Patches);
        s.layout.size = ImVec2(patches_w, row_h);
        DrawTokenHeatmap(ctx, s);
        ImGui::SameLine();
    }
    OperatorSign(ctx, "·", row_h * 0.6f);
    ImGui::SameLine();
    DrawWeightsAndBias(ctx, ImVec2(avail.x - patches_w - sign_w - 8.f, row_h), small);

    // Row 2: = patch_embed
    OperatorSign(ctx, "=", result_h * 0.6f);
    ImGui::SameLine();
    const Tensor& pe = *ctx.tensor({StageKind::PatchEmbed});
    DrawTokenMatrix(ctx, {StageKind::PatchEmbed}, -1, ImVec2(avail.x - OperatorSignWidth(ctx, "=") - 8.f, result_h),
                    "patch_embed " + shape_string(pe.shape));

    Formula(ctx, StageKind::PatchEmbed);
    Note(note);
}

}  // namespace vit::gui
