// Token norms and attention sinks ("Vision Transformers Need Registers", Darcet et
// al. 2024; core/findings/token_norms.h): the chosen block's output norm of every
// patch drawn over the image with the high-norm outliers outlined, the prefix
// tokens' norms (CLS, registers: where the registers take the outliers), and each
// head's sink score, the attention every token receives.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "findings/token_norms.h"
#include "views/screens/findings_common.h"

namespace vit::gui {

namespace {

const char* kFormula =
    "norm[t] = ‖x[t]‖₂ of block b's output;  outlier: norm[t] > 2 × median of the patch norms;  "
    "sink[h, t] = Σ_i attn_h[i, t]  (how much token t receives; T queries in all)";
const char* kPytorch = "x.norm(dim=-1);  x.norm(dim=-1) > 2 * x[p:].norm(dim=-1).median();  attn.sum(dim=-2)";

// "CLS", "REG0"…, then "patch i": the names of the prefix rows this view knows.
std::string prefix_name(int t) { return t == 0 ? "CLS" : "REG" + std::to_string(t - 1); }

// The norms of the patches in image order, on the viridis scale of their own range.
RgbaImage norm_pixels(const std::vector<float>& norms, const PatchTokens& tokens) {
    std::vector<float> grid(tokens.grid * tokens.grid, 0.f);
    std::vector<uint8_t> alpha(grid.size(), 0);
    for (size_t i = 0; i < tokens.patches.size(); ++i) {
        grid[tokens.patches[i]] = norms[tokens.prefix + i];
        alpha[tokens.patches[i]] = 200;
    }
    RgbaImage img = render_matrix(grid.data(), tokens.grid, tokens.grid, Colormap::Sequential);
    for (size_t p = 0; p < alpha.size(); ++p) img.pixels[4 * p + 3] = alpha[p];
    return img;
}

// The median and the outliers' count and the prefix tokens' norms ("CLS 34.9, REG0 35.2, …", wrapped).
void PrefixNorms(const std::vector<float>& norms, const std::vector<uint8_t>& outliers, const PatchTokens& tokens,
                 float median) {
    int count = 0;
    for (size_t t = tokens.prefix; t < norms.size(); ++t) count += outliers[t];
    ImGui::TextWrapped("median patch norm %.3g; %d patch%s above %.3g (framed in red)", median, count,
                       count == 1 ? "" : "es", kOutlierFactor * median);
    std::string prefix = "norms of the prefix tokens:";
    for (int t = 0; t < tokens.prefix; ++t)
        prefix += std::string(t ? ", " : " ") + prefix_name(t) + " " + short_number(norms[t]) +
                  (outliers[t] ? " (above the limit)" : "");
    ImGui::TextWrapped("%s", prefix.c_str());
}

// The chosen block's patch norms over the picture (outliers framed in red), `side` px, with their colour bar.
void NormsMap(ViewContext& ctx, const StageRef& out, const std::vector<float>& norms,
              const std::vector<uint8_t>& outliers, const PatchTokens& tokens, float side) {
    std::vector<uint8_t> marked(tokens.grid * tokens.grid, 0);
    for (size_t i = 0; i < tokens.patches.size(); ++i) marked[tokens.patches[i]] = outliers[tokens.prefix + i];
    FindingsTitle(ctx, "‖x‖ per patch, " + stage_id(out), "red frame: > 2 × median", side);
    DrawPatchColours(
        ctx, texture_key(ctx, out, -1, Colormap::Sequential, Purpose::TokenNorms),
        [&] { return norm_pixels(norms, tokens); }, side, marked, IM_COL32(255, 40, 40, 255),
        [&](int p) {
            const auto at = std::find(tokens.patches.begin(), tokens.patches.end(), p);
            if (at == tokens.patches.end()) return std::string("dropped");
            return "norm " + short_number(norms[tokens.prefix + (at - tokens.patches.begin())]);
        });
    std::vector<float> patch_norms(norms.begin() + tokens.prefix, norms.end());
    const float lo = patch_norms.empty() ? 0.f : *std::min_element(patch_norms.begin(), patch_norms.end());
    const float hi = patch_norms.empty() ? 1.f : *std::max_element(patch_norms.begin(), patch_norms.end());
    ImGui::Dummy(ImVec2(side, 4.f));
    DrawColorBarHorizontal(ctx.cache, Colormap::Sequential, {lo, hi > lo ? hi : lo + 1e-6f},
                           ImGui::GetCursorScreenPos(), side, 14.f);
    ImGui::Dummy(ImVec2(side, 14.f + ImGui::GetTextLineHeightWithSpacing()));
}

// Each head's sink scores, a row per head at least a text line tall (H rows of T columns), with its colour bar.
void SinkScores(ViewContext& ctx, const StageRef& attn, const Mat& sinks, float width) {
    const float lh = ImGui::GetTextLineHeight(), row_h = std::max(18.f, lh);
    const int heads = static_cast<int>(sinks.rows());
    FindingsTitle(ctx, "sink score: attention received", stage_id(attn) + " column sums, a row per head", width);
    DrawPlainMatrix(ctx, texture_key(ctx, attn, -1, Colormap::Sequential, Purpose::SinkScores), sinks.data(), heads,
                    static_cast<int>(sinks.cols()), ImVec2(width, heads * row_h + 2.f * lh + 8.f), "", "head",
                    "token (0 = CLS)", Colormap::Sequential, row_h);
}

}  // namespace

void DrawTokenNormsScreen(ViewContext& ctx) {
    FindingsHeading(ctx, "Token norms and attention sinks (Darcet et al. 2024)");
    if (!FindingsBlockChooser(ctx)) return;
    const StageRef out{StageKind::Out, ctx.state.layer}, attn{StageKind::Attn, ctx.state.layer};
    const Tensor* x = ctx.tensor(out);
    const Tensor* a = ctx.tensor(attn);
    if (!x || !a) return (void)ImGui::TextDisabled("The trace has no %s.", stage_id(out).c_str());
    const PatchTokens tokens = findings_tokens(ctx);
    const std::vector<float> norms = token_norms(*x);
    const std::vector<uint8_t> outliers = high_norm_outliers(norms, tokens);
    const float formula_h = FindingsFormulaHeight(ctx, kFormula, kPytorch);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float top = ImGui::GetCursorScreenPos().y, lh = ImGui::GetTextLineHeightWithSpacing(), gap = 24.f;
    // The map takes the height the formula leaves (less its title and colour bar), at most 45 % of the width.
    const float side = std::max(80.f, std::min(avail.x * 0.45f, avail.y - formula_h - 4.f * lh - 24.f));
    ImGui::BeginGroup();
    NormsMap(ctx, out, norms, outliers, tokens, side);
    ImGui::EndGroup();
    const float right_w = avail.x - ImGui::GetItemRectSize().x - gap;
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    SinkScores(ctx, attn, attention_sink_scores(*a), right_w);
    PrefixNorms(norms, outliers, tokens, median_patch_norm(norms, tokens));
    // The note where it fits above the formula (not on short windows, the lesson caption below).
    const char* note =
        "A sink: a token most queries attend to (column sum far above 1). Large ViTs trained long make a few "
        "background patches sinks with huge norms; registers take that role.";
    const float bottom = top + avail.y - formula_h - ImGui::GetStyle().ItemSpacing.y;
    if (ImGui::GetCursorScreenPos().y + WrappedHeight(note, right_w) <= bottom) Note(note);
    ImGui::EndGroup();
    FindingsFormula(ctx, kFormula, kPytorch);
}

}  // namespace vit::gui
