// The "Ask the model" panel (see ask_panel.h).
#include "panels/ask_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views/widgets/ask_overlays.h"

namespace vit::gui {

static std::string class_name(const ModelConfig& c, int cls) {
    return cls >= 0 && cls < static_cast<int>(c.labels.size()) ? c.labels[cls] : std::to_string(cls);
}

static void DrawPaintColumn(ViewContext& ctx, float side) {
    AskState& ask = ctx.state.ask;
    ImGui::TextUnformatted("Paint on the image: drag to mask, right-drag to clear");
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.clickable = false;
    ps.show_selection = false;
    ps.overlay_key.purpose = Purpose::PaintTarget;  // the picture's own id
    const PictureResult r = DrawModelPicture(ctx, ps);
    DrawPatchMarks(ask, r.p0, r.p1, ctx.grid());
    PaintPatches(ask, r);
    bool drops = ask.paint_drops;
    if (ImGui::Checkbox("painted patches drop their tokens", &drops)) set_paint_drops(ask, drops);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Off: the patch's pixels become the mean colour (the token stays).\n"
            "On: the patch's token is removed after the positions are added (T shrinks).");
    PatchMarksLegend();
    const int masked = painted_count(ask, PatchMark::Masked), dropped = painted_count(ask, PatchMark::Dropped);
    ImGui::Text("%d masked, %d dropped: T = 1 + %d - %d = %d tokens", masked, dropped, ask.patches, dropped,
                1 + ask.patches - dropped);
}

static void DrawHeadGrid(AskState& ask) {
    ImGui::TextUnformatted("Silence heads (block × head)");
    const float label_w = ImGui::CalcTextSize("block 00").x;
    ImGui::Dummy(ImVec2(label_w, 0));
    for (int h = 0; h < ask.heads; ++h) {
        ImGui::SameLine(label_w + ImGui::GetStyle().ItemSpacing.x + h * ImGui::GetFrameHeightWithSpacing());
        ImGui::TextDisabled("%d", h);
    }
    for (int b = 0; b < ask.depth; ++b) {
        ImGui::AlignTextToFramePadding();
        ImGui::Text("block %d", b);
        for (int h = 0; h < ask.heads; ++h) {
            ImGui::SameLine(label_w + ImGui::GetStyle().ItemSpacing.x + h * ImGui::GetFrameHeightWithSpacing());
            bool on = head_silenced(ask, b, h);
            ImGui::PushID(b * 4096 + h);
            if (ImGui::Checkbox("##head", &on)) set_head_silenced(ask, b, h, on);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("block %d, head %d: its slice of context set to 0", b, h);
            ImGui::PopID();
        }
    }
}

static void DrawToggles(AskState& ask, const AskResults* results) {
    ImGui::Checkbox("no positions", &ask.no_positions);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The positional embedding is not added: tokens = cls.");
    bool shuffled = !ask.permutation.empty();
    if (ImGui::Checkbox("shuffle the patches", &shuffled)) set_shuffle(ask, shuffled);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "A random permutation of the patch embeddings, before CLS (and any DIST or register tokens) and "
            "positions.");
    if (shuffled) {
        ImGui::SameLine();
        if (ImGui::SmallButton("new shuffle")) ++ask.shuffle_seed, set_shuffle(ask, true);
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.f);
    ImGui::SliderFloat("temperature τ", &ask.temperature, kMinTemperature, kMaxTemperature, "%.2f",
                       ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("attn = softmax(scores / τ): small τ sharpens, large τ flattens.");
    if (results && results->occlusion) ImGui::TextDisabled("%s", occlusion_status(*results).c_str());
}

static void DrawShowChoice(AskState& ask) {
    ImGui::TextUnformatted("The views show");
    int show = static_cast<int>(ask.show);
    ImGui::RadioButton("modified", &show, static_cast<int>(AskShow::Modified));
    ImGui::SameLine();
    ImGui::RadioButton("original", &show, static_cast<int>(AskShow::Original));
    ImGui::SameLine();
    ImGui::RadioButton("difference", &show, static_cast<int>(AskShow::Difference));
    ask.show = static_cast<AskShow>(show);
    if (ask.show == AskShow::Difference && painted_count(ask, PatchMark::Dropped) > 0)
        Note(
            "Dropped tokens change T: from `tokens` on the two passes differ in shape, so those stages have no "
            "difference.");
}

static void DrawPredictionChange(ViewContext& ctx, const Trace& modified) {
    const Tensor* now = modified.tensor({StageKind::Probs});
    const Tensor* before = ctx.ask && ctx.ask->original ? ctx.ask->original->tensor({StageKind::Probs}) : nullptr;
    if (!now || !before) {
        ImGui::TextDisabled("this model has no classifier head: no prediction to compare");
        return;
    }
    ImGui::TextUnformatted("Prediction: unmodified vs asked");
    if (const std::string problem = nonfinite_predictions(*before, *now); !problem.empty()) {
        ImGui::TextWrapped("%s", problem.c_str());
        return;
    }
    const float bar_w = ImGui::GetFontSize() * 7.f, h = ImGui::GetTextLineHeight();
    const std::vector<PredictionChange> rows = compare_predictions(*before, *now, 5);
    float label_w = 0.f;
    for (const PredictionChange& r : rows)
        label_w = std::max(label_w, ImGui::CalcTextSize(class_name(ctx.model.config, r.cls).c_str()).x);
    label_w = std::min(label_w, ImGui::GetFontSize() * 8.f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto bar = [&](float p, ImU32 colour) {
        ImVec2 a = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(a, ImVec2(a.x + bar_w, a.y + h), IM_COL32(50, 50, 58, 255));
        dl->AddRectFilled(a, ImVec2(a.x + bar_w * std::clamp(p, 0.f, 1.f), a.y + h), colour);
        char text[32];
        std::snprintf(text, sizeof text, "%.1f%%", 100.f * p);
        dl->AddText(ImVec2(a.x + 4, a.y), IM_COL32(255, 255, 255, 255), text);
        ImGui::Dummy(ImVec2(bar_w, h));
    };
    ImGui::Dummy(ImVec2(label_w, h));
    ImGui::SameLine(label_w + 12.f);
    ImGui::TextDisabled("unmodified");
    ImGui::SameLine(label_w + 12.f + bar_w + 8.f);
    ImGui::TextDisabled("asked");
    ImGui::SameLine(label_w + 12.f + 2.f * (bar_w + 8.f));
    ImGui::TextDisabled("change");
    for (const PredictionChange& r : rows) {
        ImGui::TextUnformatted(class_name(ctx.model.config, r.cls).c_str());
        ImGui::SameLine(label_w + 12.f);
        bar(r.original, IM_COL32(120, 120, 140, 255));
        ImGui::SameLine(0, 8.f);
        bar(r.modified, IM_COL32(60, 170, 90, 255));
        ImGui::SameLine(0, 8.f);
        const float d = 100.f * r.delta();
        ImVec4 colour = d > 0.05f    ? ImVec4(0.4f, 0.9f, 0.5f, 1.f)
                        : d < -0.05f ? ImVec4(1.f, 0.45f, 0.4f, 1.f)
                                     : ImVec4(0.7f, 0.7f, 0.7f, 1.f);
        ImGui::TextColored(colour, "%+.1f pts", d);
    }
}

static void DrawLens(ViewContext& ctx, float width) {
    const ModelConfig& c = ctx.model.config;
    if (c.num_classes > 0 && !c.plain_tokens())
        ImGui::TextDisabled("No logit lens: it reads one CLS row through one head, and this model pools or has two.");
    if (!ctx.ask || ctx.ask->lens.size() == 0) return;
    const Mat& lens = ctx.ask->lens;
    const int depth = static_cast<int>(lens.rows()), classes = static_cast<int>(lens.cols());
    const int k = std::min(classes, 10);
    // The k classes the last block ranks highest, best first.
    std::vector<int> order(classes);
    for (int i = 0; i < classes; ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](int a, int b) { return lens(depth - 1, a) > lens(depth - 1, b); });
    order.resize(k);
    const std::vector<float>& table = ctx.derived.get(derived_key({StageKind::Probs}, Purpose::LogitLens), [&] {
        std::vector<float> t(static_cast<size_t>(depth) * k);
        for (int b = 0; b < depth; ++b)
            for (int i = 0; i < k; ++i) t[static_cast<size_t>(b) * k + i] = lens(b, order[i]);
        return t;
    });
    HeatmapSpec s;
    s.matrix = {texture_key(ctx, {StageKind::Probs}, -1, Colormap::Sequential, Purpose::LogitLens),
                table.data(),
                depth,
                k,
                Colormap::Sequential,
                Range{0.f, 1.f}};
    s.labels.title = "Logit lens: p(class) if the model stopped after each block";
    s.labels.row_axis = "block";
    s.labels.col_axis = "class (top " + std::to_string(k) + " at the end)";
    s.labels.col_name = [order, &c](int col) { return class_name(c, order[col]); };
    s.labels.format = [](float v) { return percent(v); };
    s.token_rows.enabled = false;
    s.layout.size = ImVec2(width, std::min(ImGui::GetFontSize() * 2.2f * (depth + 3), ImGui::GetFontSize() * 24.f));
    s.layout.numbers = true;
    DrawHeatmap(ctx.cache, s);
}

void DrawAskPanel(AskPanelState& panel, ViewContext& ctx, const Trace& modified, bool busy) {
    if (!panel.visible) return;
    const float fs = ImGui::GetFontSize();
    const float side = std::max(240.f, fs * 15.f);
    ImGui::BeginGroup();
    DrawPaintColumn(ctx, side);
    ImGui::EndGroup();
    ImGui::SameLine(0, 24);
    ImGui::BeginGroup();
    DrawHeadGrid(ctx.state.ask);
    ImGui::Spacing();
    DrawToggles(ctx.state.ask, ctx.ask);
    ImGui::Spacing();
    if (ImGui::Button("Reset: ask nothing")) reset_ask(ctx.state.ask);
    ImGui::SameLine();
    ImGui::TextDisabled(busy ? "computing…" : "");
    ImGui::Spacing();
    DrawShowChoice(ctx.state.ask);
    ImGui::EndGroup();
    ImGui::SameLine(0, 24);
    ImGui::BeginGroup();
    DrawPredictionChange(ctx, modified);
    ImGui::Spacing();
    DrawLens(ctx, std::max(fs * 26.f, side * 1.3f));
    ImGui::EndGroup();
}

}  // namespace vit::gui
