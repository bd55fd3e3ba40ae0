// Stage `patch_embed`: patches (N, C·P·P) · Wᵀ (C·P·P, D) + b = (N, D), and a
// check, computed here from the input, that the stride-P convolution gives
// the same matrix (the patch embedding *is* that convolution).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views.h"

namespace vit::gui {

// Conv2d(C, D, kernel_size=P, stride=P) on the input, compared with patch_embed:
// returns {max |conv − patch_embed|}.
static std::vector<float> conv_check(const ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    const Tensor& in = *ctx.tensor("input");
    const Tensor& pe = *ctx.tensor("patch_embed");
    int C = cfg.channels, P = cfg.patch_size, S = static_cast<int>(in.shape[2]), g = S / P, D = cfg.embed_dim;
    float max_diff = 0.f;
    for (int py = 0; py < g; ++py)
        for (int px = 0; px < g; ++px) {
            int p = py * g + px;
            if (p >= pe.rows()) break;
            for (int d = 0; d < D; ++d) {
                double acc = ctx.model.patch_b(d);
                for (int c = 0; c < C; ++c)
                    for (int ky = 0; ky < P; ++ky)
                        for (int kx = 0; kx < P; ++kx)
                            acc += double(ctx.model.patch_w(d, (c * P + ky) * P + kx)) *
                                   in.data[(static_cast<size_t>(c) * S + py * P + ky) * S + px * P + kx];
                max_diff = std::max(max_diff, std::fabs(float(acc) - pe.data[static_cast<size_t>(p) * D + d]));
            }
        }
    return {max_diff};
}

void DrawPatchEmbedView(ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float row_h = (avail.y - 5 * lh) / 2.f;
    float sign_w = 50.f;
    float w = (avail.x - sign_w) / 2.f - 8.f;

    // Row 1: patches · Wᵀ
    const Tensor* patches = ctx.tensor("patches");
    if (patches) {
        HeatmapSpec s = stage_spec(ctx, "patches", *patches);
        s.title = "patches " + shape_string(patches->shape);
        s.row_axis = "patch";
        s.col_axis = "pixel";
        s.token_offset = 1;
        s.highlight_row = ctx.state.token - 1;
        s.linked_row = ctx.linked_hover - 1;
        s.size = ImVec2(w, row_h);
        HeatmapResult r = DrawHeatmap(ctx.cache, s);
        if (r.hovered_row >= 0) ctx.state.hover_token = r.hovered_row + 1;
        if (r.clicked_row >= 0) select_patch(ctx.state, ctx.pipeline, r.clicked_row);
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
    const Tensor& pe = *ctx.tensor("patch_embed");
    DrawTokenMatrix(ctx, "patch_embed", -1, ImVec2(avail.x - 120.f, row_h), "patch_embed " + shape_string(pe.shape),
                    "feature", 1);

    float diff = ctx.derived.get("conv_check", [&] { return conv_check(ctx); })[0];
    Formula(ctx, "patch_embed = patches · Wᵀ + b   ≡   nn.Conv2d(" + std::to_string(cfg.channels) + ", " +
                     std::to_string(cfg.embed_dim) + ", kernel_size=" + std::to_string(cfg.patch_size) + ", stride=" +
                     std::to_string(cfg.patch_size) + ")(x).flatten(2).transpose(1, 2)");
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "Checked on this image: the stride-%d convolution gives the same matrix (max |conv − linear| = %.2g). "
                  "Each row is one patch turned into a %d-number embedding.",
                  cfg.patch_size, diff, cfg.embed_dim);
    Note(buf);
}

}  // namespace vit::gui
