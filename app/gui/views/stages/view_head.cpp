// Stages `logits` and `probs` (and DeiT's `logits_cls`, `logits_dist`): the
// classifier reads the CLS row of `norm` (or the pooled patches, or both of
// DeiT's rows); the top classes are drawn as bars with their labels and values.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>

#include "views/widgets/views.h"

namespace vit::gui {

// What the scores of stage `kind` are made from, for a model whose head reads `c`'s pooled rows.
static std::string scores_note(const ModelConfig& c, StageKind kind, int K) {
    const std::string D = std::to_string(c.embed_dim), classes = std::to_string(K);
    const std::string tail = " Bigger is more likely; the numbers are not probabilities yet.";
    if (kind == StageKind::LogitsCls)
        return "The class head reads row 0 (CLS) of the final norm, " + D + " numbers, and scores the " + classes +
               " classes; DeiT trains it on the true labels. The model's logits are the mean of this head and "
               "logits_dist." +
               tail;
    if (kind == StageKind::LogitsDist)
        return "The distillation head reads row 1 (DIST) of the final norm, " + D + " numbers, and scores the " +
               classes +
               " classes; DeiT trains it to match a teacher network. The model's logits are the mean of "
               "this head and logits_cls." +
               tail;
    if (c.dist_token)
        return "The mean of DeiT's two heads, logits_cls (the CLS row) and logits_dist (the DIST row), as timm "
               "computes it at evaluation." +
               tail;
    if (c.global_pool == GlobalPool::Avg)
        return "The head reads " + pooled_tokens(c) + " (" + D +
               " numbers, stage pool): one linear layer scores "
               "every one of the " +
               classes + " classes." + tail;
    return "Only the CLS token's final vector (" + D + " numbers) is used: one linear layer scores every one of the " +
           classes + " classes." + tail;
}

// A view at least as wide as tall: the image the answer is about at the left, as large as the height
// allows and up to 58% of the width, down to 45% where the bars column beside it (`bars`: its text's height at a
// width, `rows` bars of at least a line) needs the width; `avail` keeps the width left beside it.
static void DrawAnswerPicture(ViewContext& ctx, ImVec2& avail, const std::function<float(float)>& bars, int rows) {
    if (avail.x < avail.y) return;
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float row = lh + ImGui::GetStyle().ItemSpacing.y;  // a bar at its lowest
    float share = std::min(0.58f, (avail.y - lh) / avail.x);
    while (share > 0.45f && bars(avail.x * (1.f - share) - 2.f * lh) + rows * row > avail.y) share -= 0.02f;
    const float side = avail.x * share;
    ImGui::BeginGroup();
    ImGui::TextUnformatted("what the model sees");
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.grid = false;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
    ImGui::SameLine(0, 2.f * lh);
    avail.x -= side + 2.f * lh;
}

// What the bars mean, under the formula.
static std::string head_note(const ViewContext& ctx, StageKind kind, bool change, int classes) {
    if (change)
        return "Each bar is what the interventions changed: the asked pass minus the plain one (pp: percentage "
               "points). "
               "The probabilities of both passes add up to 1, so the changes add up to 0.";
    if (kind == StageKind::Probs)
        return "Softmax turns the scores into probabilities that are positive and sum to 1. The top class is the "
               "model's prediction.";
    return scores_note(ctx.model.config, kind, classes);
}

// The line above the bars: what they show, of how many classes.
static std::string bars_title(bool probs, bool change, int top, int K) {
    char title[128];
    if (change)
        std::snprintf(title, sizeof title,
                      probs ? "top %d of %d classes: change in probability (asked − plain pass)"
                            : "top %d of %d classes: change in logit (asked − plain pass)",
                      top, K);
    else
        std::snprintf(
            title, sizeof title,
            probs ? "top %d of %d classes: probability" : "top %d of %d classes: logit (score before softmax)", top, K);
    return title;
}

// The stage's classes, the first `top` sorted by probability (the same order for
// logits: softmax keeps it); for one of DeiT's heads, by its own scores.
static std::vector<int> classes_in_order(const StageRef& stage, const Tensor& t, const Tensor* probs, int top) {
    const bool one_head = stage.kind == StageKind::LogitsCls || stage.kind == StageKind::LogitsDist;
    const Tensor& order_by = probs && !one_head ? *probs : t;
    std::vector<int> idx(t.numel());
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + top, idx.end(),
                      [&](int a, int b) { return order_by.data[a] > order_by.data[b]; });
    return idx;
}

void DrawHeadView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    bool probs = stage.kind == StageKind::Probs;
    const StageRef logit_stage{probs ? StageKind::Logits : stage.kind};  // the scores the tooltip names
    const Tensor* pt = ctx.tensor({StageKind::Probs});
    const Tensor& t = *ctx.tensor(stage);
    const auto& labels = ctx.model.config.labels;
    int K = static_cast<int>(t.numel());
    int top = std::min(K, 10);
    const std::vector<int> idx = classes_in_order(stage, t, pt, top);

    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    // The Ask panel's difference (asked − plain pass): probabilities become signed changes.
    const bool change = ctx.shows_difference();
    const bool share_bars = probs && !change;  // bars from 0 to 100%, else signed bars around a zero line
    const std::string title = bars_title(probs, change, top, K), note = head_note(ctx, stage.kind, change, K);
    // The bars share what the title, the formula and the note under them leave.
    auto text_height = [&](float width) {
        return ImGui::CalcTextSize(title.c_str(), nullptr, false, width).y +
               FormulaAndNoteHeight(ctx, stage.kind, note, width) + 3.f * ImGui::GetStyle().ItemSpacing.y;
    };
    DrawAnswerPicture(ctx, avail, text_height, top);
    // The bars, the formula and the note scroll together where bars a line high leave the text too little room.
    ImGui::BeginChild("bars", avail);
    avail = ImGui::GetContentRegionAvail();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + avail.x);
    ImGui::TextWrapped("%s", title.c_str());
    ImGui::Spacing();
    const float text_h = text_height(avail.x);
    float label_w = 0.f;
    auto label_of = [&](int k) { return k < (int)labels.size() ? labels[k] : "class " + std::to_string(k); };
    for (int i = 0; i < top; ++i) label_w = std::max(label_w, ImGui::CalcTextSize(label_of(idx[i]).c_str()).x);
    label_w = std::min(label_w + 16.f, avail.x * 0.35f);
    const float row_gap = ImGui::GetStyle().ItemSpacing.y;  // under every bar's row
    float bar_h = std::clamp((avail.y - text_h) / std::max(1, top) - row_gap, lh, 2.2f * lh);
    float value_w = ImGui::CalcTextSize("-00.000  ").x;
    float bar_w = avail.x - label_w - value_w - 20.f;
    float max_abs = 1e-12f;
    for (int i = 0; i < top; ++i) max_abs = std::max(max_abs, std::fabs(t.data[idx[i]]));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < top; ++i) {
        int k = idx[i];
        float v = t.data[k];
        ImVec2 o = ImGui::GetCursorScreenPos();
        std::string lab = label_of(k);
        ImGui::PushClipRect(o, ImVec2(o.x + label_w - 8, o.y + bar_h), true);
        dl->AddText(ImVec2(o.x, o.y + bar_h * 0.5f - lh * 0.45f), IM_COL32(230, 230, 230, 255), lab.c_str());
        ImGui::PopClipRect();
        float x0 = o.x + label_w;
        ImU32 col = i == 0 ? IM_COL32(255, 190, 40, 255) : IM_COL32(80, 160, 230, 255);
        if (share_bars) {
            dl->AddRectFilled(ImVec2(x0, o.y + 3), ImVec2(x0 + bar_w, o.y + bar_h - 3), IM_COL32(45, 45, 55, 255));
            dl->AddRectFilled(ImVec2(x0, o.y + 3), ImVec2(x0 + bar_w * std::clamp(v, 0.f, 1.f), o.y + bar_h - 3), col);
        } else {
            float zero = x0 + bar_w * 0.5f;
            float end = zero + 0.5f * bar_w * v / max_abs;
            dl->AddRectFilled(ImVec2(std::min(zero, end), o.y + 3), ImVec2(std::max(zero, end), o.y + bar_h - 3), col);
            dl->AddLine(ImVec2(zero, o.y), ImVec2(zero, o.y + bar_h), IM_COL32(200, 200, 200, 255));
        }
        char val[32];
        if (probs && change) std::snprintf(val, sizeof val, "%+.1f pp", 100.f * v);
        else if (probs) std::snprintf(val, sizeof val, "%.1f%%", 100.f * v);
        else std::snprintf(val, sizeof val, "%.3f", v);
        dl->AddText(ImVec2(x0 + bar_w + 10, o.y + bar_h * 0.5f - lh * 0.45f), IM_COL32(255, 255, 255, 255), val);
        ImGui::Dummy(ImVec2(label_w + bar_w + value_w, bar_h));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("class %d: %s\n%s %.6g   probability %.6g", k, lab.c_str(), stage_id(logit_stage).c_str(),
                              ctx.tensor(logit_stage) ? ctx.tensor(logit_stage)->data[k] : 0.f, pt ? pt->data[k] : 0.f);
    }
    ImGui::Spacing();
    Formula(ctx, stage.kind);
    Note(note);
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

}  // namespace vit::gui
