// The MLP stages `block{i}.fc1`, its activation (`gelu`, `quick_gelu`,
// `swiglu`) and `.mlp_out`: D → M → D per token; for GELU and SwiGLU the
// activation's curve drawn with the selected token's fc1 values on it.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pass/layers.h"
#include "views/widgets/views.h"

namespace vit::gui {

// An activation's curve: its name, the core function the forward pass uses, and what the dots are.
struct ActivationCurve {
    const char* formula;
    void (*apply)(const ConstMatRef&, MatMap);
    const char* dots;  // "the N <dots> of <token>"
};

// The curve (and ReLU dashed, for comparison) with the selected token's
// pre-activations `pre` (count of them) as dots on it; the hovered one larger.
// `whose`: the token's name.
static void DrawActivationCurve(const ActivationCurve& curve, const float* pre, int count, const std::string& whose,
                                int hovered, ImVec2 size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + size.x, p0.y + size.y);
    dl->AddRectFilled(p0, p1, IM_COL32(25, 25, 32, 255));
    float reach = 4.f;  // the x range covers the token's values (up to ±10)
    for (int m = 0; m < count; ++m) reach = std::max(reach, std::min(10.f, std::ceil(std::fabs(pre[m]))));
    const float x_lo = -reach, x_hi = reach, y_lo = -0.25f * reach, y_hi = reach;
    auto to_screen = [&](float x, float y) {
        return ImVec2(p0.x + (x - x_lo) / (x_hi - x_lo) * size.x, p1.y - (y - y_lo) / (y_hi - y_lo) * size.y);
    };
    int step = reach > 6 ? 2 : 1;
    for (int i = -int(reach); i <= int(reach); i += step) {
        dl->AddLine(to_screen(float(i), y_lo), to_screen(float(i), y_hi), IM_COL32(60, 60, 70, 255));
        const std::string label = std::to_string(i);  // right of its line; the last one inside the frame
        const float x = std::min(to_screen(float(i), 0).x + 2, p1.x - ImGui::CalcTextSize(label.c_str()).x - 2);
        dl->AddText(ImVec2(x, to_screen(0, 0).y + 2), IM_COL32(150, 150, 160, 255), label.c_str());
    }
    for (int i = 0; i <= int(y_hi); i += step)
        dl->AddLine(to_screen(x_lo, float(i)), to_screen(x_hi, float(i)), IM_COL32(60, 60, 70, 255));
    dl->AddLine(to_screen(x_lo, 0), to_screen(x_hi, 0), IM_COL32(160, 160, 170, 255), 1.5f);
    dl->AddLine(to_screen(0, y_lo), to_screen(0, y_hi), IM_COL32(160, 160, 170, 255), 1.5f);
    for (float x = x_lo; x < 0; x += reach / 16.f)  // ReLU, dashed
        dl->AddLine(to_screen(x, 0), to_screen(x + reach / 32.f, 0), IM_COL32(140, 140, 140, 255), 3.f);
    dl->AddLine(to_screen(0, 0), to_screen(reach, reach), IM_COL32(140, 140, 140, 200), 2.f);
    constexpr int kSamples = 161;
    Mat xs(1, kSamples), ys(1, kSamples);
    for (int i = 0; i < kSamples; ++i) xs(0, i) = x_lo + (x_hi - x_lo) * i / (kSamples - 1.f);
    curve.apply(xs, MatMap(ys.data(), 1, kSamples));
    ImVec2 pts[kSamples];
    for (int i = 0; i < kSamples; ++i) pts[i] = to_screen(xs(0, i), ys(0, i));
    dl->AddPolyline(pts, kSamples, IM_COL32(90, 200, 255, 255), 0, 3.f);
    // The selected token's pre-activations on the curve.
    Mat dot_x = Eigen::Map<const Mat>(pre, 1, count), dot_y(1, count);
    curve.apply(dot_x, MatMap(dot_y.data(), 1, count));
    dl->PushClipRect(p0, p1, true);
    for (int m = 0; m < count; ++m)
        dl->AddCircleFilled(to_screen(pre[m], dot_y(0, m)), 4.f, IM_COL32(255, 200, 0, 200));
    if (hovered >= 0 && hovered < count)
        dl->AddCircle(to_screen(pre[hovered], dot_y(0, hovered)), 9.f, IM_COL32(255, 255, 255, 255), 0, 2.5f);
    dl->PopClipRect();
    const float line = ImGui::GetTextLineHeight();
    dl->AddText(ImVec2(p0.x + 8, p0.y + 6), IM_COL32(90, 200, 255, 255), curve.formula);
    dl->AddText(ImVec2(p0.x + 8, p0.y + 6 + line), IM_COL32(160, 160, 160, 255), "ReLU, for comparison");
    dl->AddText(ImVec2(p0.x + 8, p0.y + 6 + 2 * line), IM_COL32(255, 200, 0, 255),
                ("dots: the " + std::to_string(count) + " " + curve.dots + " of " + whose).c_str());
    ImGui::Dummy(size);
}

// The note under an MLP-side stage drawn as input → output.
static std::string mlp_note(StageKind kind, const ModelConfig& cfg) {
    const std::string D = std::to_string(cfg.embed_dim), M = std::to_string(cfg.mlp_dim);
    switch (kind) {
        case StageKind::Fc1:
            if (cfg.activation == Activation::SwiGlu)
                return "The MLP works on each token separately (no mixing between tokens here). fc1 widens every "
                       "token from D = " +
                       D + " to 2 × M = " + std::to_string(cfg.fc1_dim()) +
                       " numbers: the left M are SwiGLU's gates, the right M its values.";
            return "The MLP works on each token separately (no mixing between tokens here). fc1 widens every token "
                   "from D = " +
                   D + " to M = " + M + " hidden features.";
        case StageKind::QuickGelu:
            return "QuickGELU, x * sigmoid(1.702 x): OpenAI CLIP's cheaper stand-in for GELU, applied to each of the "
                   "M = " +
                   M + " hidden features.";
        case StageKind::Ls1:
        case StageKind::Ls2:
            return "LayerScale multiplies each of the D = " + D +
                   " features of the branch by its own learned gamma "
                   "(DINOv2 starts them at 1e-5), so a block adds only a small, learned share to the residual stream.";
        default:
            return "fc2 brings every token back from M = " + M + " to D = " + D +
                   " features; the next stage adds it to the residual stream.";
    }
}

// The activation's matrix beside its curve, the selected token's fc1 values as dots
// (for SwiGLU, the gate half of fc1: the dots show SiLU(gate), before the value half multiplies it).
static void DrawActivationView(ViewContext& ctx, const ActivationCurve& curve, const char* note) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float h = avail.y - 4 * ImGui::GetTextLineHeightWithSpacing();
    float w = avail.x * 0.55f;
    HeatmapResult r =
        DrawTokenMatrix(ctx, stage, -1, ImVec2(w, h), stage_def(stage.kind).name + (" " + shape_string(t.shape)),
                        TokenColumns::HiddenFeature);
    ImGui::SameLine(0, 20);
    const Tensor* fc1 = ctx.tensor(*stage_input(stage, ctx.model.config));
    float side = std::min(avail.x - w - 30.f, h);
    // The selected token's row (row 0's when the selected one was dropped).
    const int own = ctx.row_map(stage.kind).row_of_token(ctx.state.token);
    const int row = std::max(0, own);
    const std::string whose = ctx.name_of_token(own >= 0 ? ctx.state.token : 0);
    const int count = static_cast<int>(t.cols());  // the gate half for SwiGLU
    if (fc1 && row < fc1->rows())
        DrawActivationCurve(curve, fc1->data.data() + static_cast<size_t>(row) * fc1->cols(), count, whose,
                            r.hovered_row == row ? r.hovered_col : -1, ImVec2(side, side * 0.8f));
    Formula(ctx, stage.kind);
    Note(note);
}

void DrawMlpView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    const auto& cfg = ctx.model.config;
    const std::string M = std::to_string(cfg.mlp_dim);
    if (stage.kind == StageKind::Gelu)
        return DrawActivationView(ctx, {"GELU(x) = x · Φ(x)", gelu, "values"},
                                  ("GELU lets positive values through almost unchanged and squashes negative ones "
                                   "towards 0 — a smooth ReLU. The yellow dots are the selected token's " +
                                   M + " hidden values before GELU.")
                                      .c_str());
    if (stage.kind == StageKind::SwiGlu)
        return DrawActivationView(ctx, {"SiLU(x) = x · sigmoid(x)", silu, "gates"},
                                  ("SwiGLU: fc1 writes 2 × " + M + " numbers per token. The left " + M +
                                   " (the gate) go through SiLU, a smooth ReLU drawn here with the selected token's "
                                   "gate values as dots; each result then multiplies the matching number of the "
                                   "right " +
                                   M + " (the value). A feature passes only where its gate is open.")
                                      .c_str());
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float h = avail.y - 4 * lh;
    const bool hidden_in = stage.kind == StageKind::MlpOut || stage.kind == StageKind::QuickGelu;
    const bool hidden_out = stage.kind == StageKind::Fc1 || stage.kind == StageKind::QuickGelu;
    const StageRef in = *stage_input(stage, cfg);
    float w = (avail.x - OperatorSignWidth(ctx, "→")) / 2.f - 2.f;
    DrawTokenMatrix(ctx, in, -1, ImVec2(w, h),
                    stage_id(in) + " " + shape_string(ctx.tensor(in) ? ctx.tensor(in)->shape : t.shape),
                    hidden_in ? TokenColumns::HiddenFeature : TokenColumns::Feature);
    ImGui::SameLine();
    OperatorSign(ctx, "→", h * 0.5f);
    ImGui::SameLine();
    DrawTokenMatrix(ctx, stage, -1, ImVec2(w, h), ctx.stage_id() + " " + shape_string(t.shape),
                    hidden_out ? TokenColumns::HiddenFeature : TokenColumns::Feature);
    Formula(ctx, stage.kind);
    Note(mlp_note(stage.kind, cfg));
}

}  // namespace vit::gui
