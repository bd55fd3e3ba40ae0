// Patch features as RGB: the chosen block's patch tokens projected on their first
// three principal components, each min-max scaled to a colour channel, or DINOv2's
// two-step form (first component thresholded to find the foreground, a second PCA
// of the foreground alone); core/findings/pca.h. Jointly over several images:
// findings_joint.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views/screens/findings_common.h"
#include "views/screens/findings_pca.h"

namespace vit::gui {

const char* const kPcaFormula =
    "z = (X − mean(X)) · V[:, :3]   (X: the block's N patch rows, V: right singular vectors);  "
    "rgb[i, c] = (z[i, c] − min_c) / (max_c − min_c).  Two-step: foreground = minmax(z[:, 0]) ≥ t, "
    "then the same on the foreground rows only";
const char* const kPcaPytorch =
    "U, S, V = torch.pca_lowrank(x[p:], q=3); z = (x[p:] − x[p:].mean(0)) @ V; rgb = (z − z.min(0)[0]) / (z.max(0)[0] "
    "− z.min(0)[0])";

namespace {

void Controls(ViewContext& ctx) {
    FindingsOptions& o = ctx.state.findings;
    const char* two_step = "DINOv2 two-step (foreground only)";
    const char* joint = "joint over images";
    SameLineOrWrap(CheckboxWidth(two_step) + 10.f, 20.f);
    ImGui::Checkbox(two_step, &o.two_step);
    SameLineOrWrap(CheckboxWidth(joint), 20.f);
    ImGui::Checkbox(joint, &o.joint);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("one PCA fitted on this image and the gallery's (or --pca-images)");
    if (!o.two_step) return;
    SameLineOrWrap(180.f + ImGui::CalcTextSize("threshold t").x, 20.f);
    ImGui::SetNextItemWidth(180.f);
    ImGui::SliderFloat("threshold t", &o.threshold, 0.05f, 0.95f, "%.2f");
}

}  // namespace

std::vector<PatchColours> cached_pca_colours(ViewContext& ctx, CacheKey key, const std::vector<PatchTokens>& tokens,
                                             const std::function<std::vector<PatchColours>()>& compute) {
    // Packed as [rgb (3 per cell), foreground (1 per cell)] per image, then the shares. The key
    // holds every image's grid: the same images passed again at another size unpack otherwise.
    for (const PatchTokens& t : tokens) key.params.push_back(t.grid);
    const std::vector<float>& packed = ctx.derived.get(key, [&] {
        std::vector<float> out;
        const std::vector<PatchColours> colours = compute();
        for (const PatchColours& c : colours) {
            out.insert(out.end(), c.rgb.begin(), c.rgb.end());
            out.insert(out.end(), c.foreground.begin(), c.foreground.end());
        }
        if (!colours.empty()) out.insert(out.end(), colours[0].share.begin(), colours[0].share.end());
        return out;
    });
    size_t cells_of_all = 0;
    for (const PatchTokens& t : tokens) cells_of_all += static_cast<size_t>(t.grid) * t.grid;
    if (packed.size() < 4 * cells_of_all) return compute();  // packed for other grids: never read past it
    std::vector<PatchColours> out(tokens.size());
    auto at = packed.begin();
    for (size_t i = 0; i < tokens.size(); ++i) {
        const size_t cells = static_cast<size_t>(tokens[i].grid) * tokens[i].grid;
        out[i].rgb.assign(at, at + 3 * cells);
        out[i].foreground.assign(at + 3 * cells, at + 4 * cells);
        at += 4 * cells;
    }
    for (PatchColours& c : out) c.share.assign(at, packed.end());
    return out;
}

RgbaImage pca_colour_pixels(const PatchColours& colours, int grid) {
    const int cells = grid * grid;
    std::vector<Rgb> rgb(cells);
    auto byte = [](float v) { return static_cast<uint8_t>(std::lround(255.f * v)); };
    for (int p = 0; p < cells; ++p)
        rgb[p] = {byte(colours.rgb[3 * p]), byte(colours.rgb[3 * p + 1]), byte(colours.rgb[3 * p + 2])};
    return patch_colour_pixels(rgb, std::vector<uint8_t>(cells, 255), grid);
}

std::string pca_shares_line(const PatchColours& colours) {
    if (colours.share.size() != 3) return "";
    char line[96];
    std::snprintf(line, sizeof line, "r, g, b = components 1, 2, 3 (%.0f, %.0f, %.0f %% of variance)",
                  100 * colours.share[0], 100 * colours.share[1], 100 * colours.share[2]);
    return line;
}

std::string pca_patch_tooltip(const PatchColours& colours, int p) {
    char t[96];
    std::snprintf(t, sizeof t, "r %.2f  g %.2f  b %.2f%s", colours.rgb[3 * p], colours.rgb[3 * p + 1],
                  colours.rgb[3 * p + 2], colours.foreground[p] ? "" : "  (background)");
    return t;
}

void DrawPatchFeaturesScreen(ViewContext& ctx, const JointPasses* joint) {
    FindingsHeading(ctx, "Patch features as colours (PCA)");
    if (!FindingsBlockChooser(ctx)) return;
    Controls(ctx);
    const StageRef stage{StageKind::Out, ctx.state.layer};
    const Tensor* x = ctx.tensor(stage);
    if (!x) return (void)ImGui::TextDisabled("The trace has no %s.", stage_id(stage).c_str());
    const PatchTokens tokens = findings_tokens(ctx);
    const FindingsOptions& o = ctx.state.findings;
    if (o.joint) return DrawJointPatchFeatures(ctx, stage, *x, tokens, joint);
    const std::vector<double> options = {o.two_step ? 1.0 : 0.0, o.threshold};
    const PatchColours colours = cached_pca_colours(ctx, derived_key(stage, Purpose::PatchPca, options), {tokens}, [&] {
        return std::vector<PatchColours>{patch_pca_colours(*x, tokens, o.two_step, o.threshold)};
    })[0];
    const float formula_h =
        FindingsFormulaHeight(ctx, kPcaFormula, kPcaPytorch) + 3.5f * ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = 24.f, side = std::max(80.f, std::min((avail.x - gap) / 2,
                                                           avail.y - formula_h - 3.f * ImGui::GetTextLineHeight()));
    ImGui::BeginGroup();
    FindingsTitle(ctx, "the image", "patch grid " + std::to_string(tokens.grid) + " × " + std::to_string(tokens.grid),
                  side);
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.clickable = false;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    FindingsTitle(ctx, "PCA colours of " + stage_id(stage),
                  o.two_step ? "black: background (component 1 < t)" : pca_shares_line(colours),
                  std::max(side, (avail.x - gap) / 2));
    DrawPatchColours(
        ctx, texture_key(ctx, stage, -1, Colormap::Sequential, Purpose::PatchPca, options),
        [&] { return pca_colour_pixels(colours, tokens.grid); }, side, {}, 0,
        [&](int p) { return pca_patch_tooltip(colours, p); });
    ImGui::EndGroup();
    Note(
        "Patches of the same colour have similar features. In DINO/DINOv2 the parts of an object share colours "
        "across images; prefix tokens (CLS, registers) are left out of the PCA.");
    FindingsFormula(ctx, kPcaFormula, kPcaPytorch);
}

}  // namespace vit::gui
