// DINO's attention masks (Caron et al. 2021; core/findings/cls_mask.h): for each
// head of the chosen block, the smallest set of patches holding a share of the CLS
// token's attention, shown as the image with the rest darkened; with a comparison model,
// its masks beside the loaded model's (comparison_half.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "findings/cls_mask.h"
#include "views/screens/comparison_half.h"
#include "views/screens/findings_common.h"

namespace vit::gui {

namespace {

const char* kFormula =
    "a = attn_h[0, p:] / Σ attn_h[0, p:];  sort ascending;  keep where cumsum(a) > 1 − share  "
    "(the top patches holding `share` of the CLS attention)";
const char* kPytorch =
    "val, idx = torch.sort(a); val /= val.sum(); keep = (torch.cumsum(val, 0) > 1 - share)[torch.argsort(idx)]";

// Kept patches clear, the rest covered dark.
RgbaImage mask_pixels(const std::vector<uint8_t>& keep, int grid) {
    std::vector<uint8_t> alpha(keep.size());
    for (size_t p = 0; p < keep.size(); ++p) alpha[p] = keep[p] ? 0 : 215;
    return patch_colour_pixels(std::vector<Rgb>(keep.size(), Rgb{10, 10, 30}), alpha, grid);
}

// One model's masks, one per head of its block, as large as they fit in `avail`.
void DrawMaskGrid(ViewContext& ctx, ImVec2 avail) {
    const float mass = ctx.state.findings.mass;
    const StageRef attn{StageKind::Attn, ctx.state.layer};
    const Tensor* a = ctx.tensor(attn);
    const PatchTokens tokens = findings_tokens(ctx);
    if (ctx.pipeline.depth <= 0)
        return (void)ImGui::TextWrapped("This model has no encoder block: no attention to mask.");
    if (!a) return (void)ImGui::TextDisabled("The trace has no %s.", stage_id(attn).c_str());
    if (tokens.prefix < 1 || !ctx.pipeline.layout.has_cls())
        return (void)ImGui::TextWrapped("This model has no CLS token: no CLS attention to mask.");
    const auto masks = cls_attention_masks(*a, tokens, mass);
    const int H = static_cast<int>(masks.size());
    const float lh = ImGui::GetTextLineHeightWithSpacing(), gap = 14.f;
    const int cols = best_columns(H, avail, 1.f, gap, 2.6f * lh);
    const int rows = (H + cols - 1) / cols;
    const float side = std::max(60.f, std::min(avail.x / cols - gap, avail.y / rows - 2.6f * lh));
    for (int h = 0; h < H; ++h) {
        const int kept = static_cast<int>(std::count(masks[h].begin(), masks[h].end(), 1));
        ImGui::BeginGroup();
        FindingsTitle(ctx, "head " + std::to_string(h),
                      std::to_string(kept) + (kept == 1 ? " patch: " : " patches: ") + percent(mass), side);
        DrawPatchColours(
            ctx, texture_key(ctx, attn, h, Colormap::Sequential, Purpose::ClsMask, {mass}),
            [&] { return mask_pixels(masks[h], tokens.grid); }, side);
        ImGui::EndGroup();
        if ((h + 1) % cols) ImGui::SameLine(0, gap);
    }
}

}  // namespace

void DrawClsMaskScreen(ViewContext& ctx) {
    FindingsHeading(ctx, ctx.comparison ? "DINO's CLS attention masks, one per head, two models side by side"
                                        : "DINO's CLS attention masks, one per head");
    if (!FindingsBlockChooser(ctx)) return;
    FindingsOptions& o = ctx.state.findings;
    const float slider_w = 200.f;  // with its name, on the next line where the block's slider leaves too little
    SameLineOrWrap(slider_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("share of the mass").x, 30.f);
    ImGui::SetNextItemWidth(slider_w);
    ImGui::SliderFloat("share of the mass", &o.mass, 0.1f, 0.95f, "%.2f");
    const float formula_h = FindingsFormulaHeight(ctx, kFormula, kPytorch) + ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y - formula_h);
    const auto grid = [](ViewContext& half) { DrawMaskGrid(half, ImGui::GetContentRegionAvail()); };
    if (ctx.comparison) DrawComparisonHalves(ctx, avail, grid, grid);
    else DrawMaskGrid(ctx, avail);
    FindingsFormula(ctx, kFormula, kPytorch);
}

}  // namespace vit::gui
