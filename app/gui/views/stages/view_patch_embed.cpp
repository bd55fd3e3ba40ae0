// Stage `patch_embed`: patches (N, C·P·P) · Wᵀ (C·P·P, D) + b = (N, D), and the
// core's check that the stride-P convolution gives the same matrix (the patch
// embedding *is* that convolution), computed once per trace.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pass/conv_check.h"
#include "views/widgets/views.h"

namespace vit::gui {

void DrawPatchEmbedView(ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float diff = ctx.derived.get(derived_key({StageKind::PatchEmbed}, "convolution difference"), [&] {
        return std::vector<float>{patch_embed_conv_difference(ctx.model, ctx.trace)};
    })[0];
    char note[240];
    std::snprintf(note, sizeof note,
                  "Checked on this image: the stride-%d convolution gives the same matrix (max |conv − linear| = %.2g). "
                  "Each row is one patch turned into a %d-number embedding.",
                  cfg.patch_size, diff, cfg.embed_dim);
    // Two rows of matrices share what the formula and the note leave.
    float row_h = (avail.y - FormulaAndNoteHeight(ctx, StageKind::PatchEmbed, note) - lh) / 2.f;
    float sign_w = 50.f;
    float w = (avail.x - sign_w) / 2.f - 8.f;

    // Row 1: patches · Wᵀ
    const Tensor* patches = ctx.tensor({StageKind::Patches});
    if (patches) {
        HeatmapSpec s = stage_spec(ctx, {StageKind::Patches}, *patches);
        s.labels = {"patches " + shape_string(patches->shape), "patch", "pixel"};
        s.token_rows = token_rows(ctx, StageKind::Patches);
        s.layout.size = ImVec2(w, row_h);
        DrawTokenHeatmap(ctx, s);
        ImGui::SameLine();
    }
    OperatorSign(ctx, "·", row_h * 0.6f);
    ImGui::SameLine();
    const std::vector<float>& wt = ctx.derived.get("patch_w_T", [&] {
        const Mat& W = ctx.model.patch_w;  // D × CPP
        std::vector<float> out(static_cast<size_t>(W.size()));
        for (int r = 0; r < W.cols(); ++r)
            for (int c = 0; c < W.rows(); ++c) out[static_cast<size_t>(r) * W.rows() + c] = W(c, r);
        return out;
    });
    char title[96];
    std::snprintf(title, sizeof title, "Wᵀ (%d, %d), learned weights", cfg.patch_dim(), cfg.embed_dim);
    DrawPlainMatrix(ctx, "weights:patch_w_T", wt.data(), cfg.patch_dim(), cfg.embed_dim, ImVec2(w, row_h), title, "pixel",
                    "feature");

    // Row 2: = patch_embed
    OperatorSign(ctx, "+ b =", row_h * 0.6f);
    ImGui::SameLine();
    const Tensor& pe = *ctx.tensor({StageKind::PatchEmbed});
    DrawTokenMatrix(ctx, {StageKind::PatchEmbed}, -1, ImVec2(avail.x - 120.f, row_h), "patch_embed " + shape_string(pe.shape));

    Formula(ctx, StageKind::PatchEmbed);
    Note(note);
}

}  // namespace vit::gui
