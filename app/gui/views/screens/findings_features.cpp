// Patch features as RGB: the chosen block's patch tokens projected on their first
// three principal components, each min-max scaled to a colour channel, or DINOv2's
// two-step form (first component thresholded to find the foreground, a second PCA
// of the foreground alone); core/findings/pca.h.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "findings/pca.h"
#include "views/screens/findings_common.h"

namespace vit::gui {

namespace {

const char* kFormula =
    "z = (X − mean(X)) · V[:, :3]   (X: the block's N patch rows, V: right singular vectors);  "
    "rgb[i, c] = (z[i, c] − min_c) / (max_c − min_c).  Two-step: foreground = minmax(z[:, 0]) ≥ t, "
    "then the same on the foreground rows only";
const char* kPytorch =
    "U, S, V = torch.pca_lowrank(x[p:], q=3); z = (x[p:] − x[p:].mean(0)) @ V; rgb = (z − z.min(0)[0]) / (z.max(0)[0] − z.min(0)[0])";

void Controls(ViewContext& ctx) {
    FindingsOptions& o = ctx.state.findings;
    ImGui::SameLine(0, 30.f);
    ImGui::Checkbox("DINOv2 two-step (foreground only)", &o.two_step);
    if (!o.two_step) return;
    ImGui::SameLine(0, 20.f);
    ImGui::SetNextItemWidth(180.f);
    ImGui::SliderFloat("threshold t", &o.threshold, 0.05f, 0.95f, "%.2f");
}

// The colours of `x` (PCA once per trace and setting, `what`), kept packed as
// [rgb (3 per cell), foreground (1 per cell), shares].
PatchColours cached_colours(ViewContext& ctx, const StageRef& stage, const Tensor& x, const PatchTokens& tokens,
                            const std::string& what) {
    const FindingsOptions& o = ctx.state.findings;
    const std::vector<float>& packed = ctx.derived.get(derived_key(stage, what), [&] {
        const PatchColours c = patch_pca_colours(x, tokens, o.two_step, o.threshold);
        std::vector<float> out = c.rgb;
        out.insert(out.end(), c.foreground.begin(), c.foreground.end());
        out.insert(out.end(), c.share.begin(), c.share.end());
        return out;
    });
    const size_t cells = static_cast<size_t>(tokens.grid) * tokens.grid;
    PatchColours c;
    c.rgb.assign(packed.begin(), packed.begin() + 3 * cells);
    c.foreground.assign(packed.begin() + 3 * cells, packed.begin() + 4 * cells);
    c.share.assign(packed.begin() + 4 * cells, packed.end());
    return c;
}

}  // namespace

void DrawPatchFeaturesScreen(ViewContext& ctx) {
    FindingsHeading(ctx, "Patch features as colours (PCA)");
    if (!FindingsBlockChooser(ctx)) return;
    Controls(ctx);
    const StageRef stage{StageKind::Out, ctx.state.layer};
    const Tensor* x = ctx.tensor(stage);
    if (!x) return (void)ImGui::TextDisabled("The trace has no %s.", stage_id(stage).c_str());
    const PatchTokens tokens = findings_tokens(ctx);
    const FindingsOptions& o = ctx.state.findings;
    char what[64];
    std::snprintf(what, sizeof what, "pca %d %.3f", o.two_step ? 1 : 0, o.threshold);
    const PatchColours colours = cached_colours(ctx, stage, *x, tokens, what);
    const int cells = tokens.grid * tokens.grid;
    auto make = [&] {
        std::vector<Rgb> rgb(cells);
        for (int p = 0; p < cells; ++p)
            rgb[p] = {static_cast<uint8_t>(std::lround(255.f * colours.rgb[3 * p])),
                      static_cast<uint8_t>(std::lround(255.f * colours.rgb[3 * p + 1])),
                      static_cast<uint8_t>(std::lround(255.f * colours.rgb[3 * p + 2]))};
        return patch_colour_pixels(rgb, std::vector<uint8_t>(cells, 255), tokens.grid);
    };
    const float formula_h = FindingsFormulaHeight(ctx, kFormula, kPytorch) + 3.5f * ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = 24.f, side = std::max(80.f, std::min((avail.x - gap) / 2, avail.y - formula_h - 3.f * ImGui::GetTextLineHeight()));
    char shares[96] = "";
    if (colours.share.size() == 3)
        std::snprintf(shares, sizeof shares, "r, g, b = components 1, 2, 3 (%.0f, %.0f, %.0f %% of variance)",
                      100 * colours.share[0], 100 * colours.share[1], 100 * colours.share[2]);
    ImGui::BeginGroup();
    FindingsTitle(ctx, "the image", "patch grid " + std::to_string(tokens.grid) + " × " + std::to_string(tokens.grid), side);
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.clickable = false;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    FindingsTitle(ctx, "PCA colours of " + stage_id(stage), o.two_step ? "black: background (component 1 < t)" : shares,
                  std::max(side, (avail.x - gap) / 2));
    DrawPatchColours(ctx, texture_key(ctx, stage, -1, Colormap::Sequential, what), make, side, {}, 0,
                     [&](int p) {
                         char t[96];
                         std::snprintf(t, sizeof t, "r %.2f  g %.2f  b %.2f%s", colours.rgb[3 * p], colours.rgb[3 * p + 1],
                                       colours.rgb[3 * p + 2], colours.foreground[p] ? "" : "  (background)");
                         return std::string(t);
                     });
    ImGui::EndGroup();
    Note("Patches of the same colour have similar features. In DINO/DINOv2 the parts of an object share colours "
         "across images; prefix tokens (CLS, registers) are left out of the PCA.");
    FindingsFormula(ctx, kFormula, kPytorch);
}

}  // namespace vit::gui
