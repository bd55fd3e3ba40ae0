// The backward walk: the current stage's gradient d logit[c] / d stage beside
// its value, with the catalogue's backward formula. Stepping left from
// `logits` walks the gradient back to the pixels. Red: raising the value would
// raise the logit; blue: lower it.
#include <algorithm>
#include <cstdio>

#include "views/widgets/views.h"

namespace vit::gui {

// A matrix of `stage` from `vctx`'s trace in `size`: one head's slice of an H×T×… stage, one
// channel of the input, the class vector as one row; token rows wired to the selection.
static void DrawStageMatrix(ViewContext& vctx, const StageRef& stage, const Tensor& t, ImVec2 size,
                            const std::string& title) {
    const int head = std::max(0, vctx.state.head);
    switch (stage.kind) {
        case StageKind::Input:
            DrawPlainMatrix(vctx, texture_key(vctx, stage, 0, Colormap::Diverging), t.data.data(),
                            static_cast<int>(t.shape[1]), static_cast<int>(t.shape[2]), size,
                            title + (t.shape[0] > 1 ? ", channel 0" : ""), "y (pixel)", "x (pixel)");
            break;
        case StageKind::Logits:
            DrawPlainMatrix(vctx, texture_key(vctx, stage, -1, Colormap::Diverging), t.data.data(), 1,
                            static_cast<int>(t.numel()), ImVec2(size.x, std::min(size.y, 160.f)), title, "", "class");
            break;
        case StageKind::Patches: DrawTokenMatrix(vctx, stage, -1, size, title, TokenColumns::PatchPixel); break;
        default:
            DrawTokenMatrix(vctx, stage, t.rank() == 3 ? head : -1, size,
                            t.rank() == 3 ? title + ", head " + std::to_string(head) : title,
                            t.rank() == 3 && t.shape[2] == t.shape[1] ? TokenColumns::KeyToken : TokenColumns::Feature);
    }
}

// The value above its gradient where that gives their cells more of `area` than side by side
// (a narrow window, a matrix of few columns); the logits' single row always side by side.
static bool stacks_value_over_gradient(ViewContext& ctx, const StageRef& stage, const Tensor& t, ImVec2 area,
                                       float gap) {
    if (stage.kind == StageKind::Logits) return false;
    const int slice = stage.kind == StageKind::Input ? 0 : t.rank() == 3 ? std::max(0, ctx.state.head) : -1;
    return BestHeatmapColumns(2, area, stage_spec(ctx, stage, t, slice), ImVec2(gap, gap)) == 1;
}

void DrawGradientView(ViewContext& ctx, const Explanation* ex, int cls, bool busy, DerivedCache& grad_derived) {
    const StageRef stage = ctx.stage();
    const StageDef& def = stage_def(stage.kind);
    const std::vector<std::string>& labels = ctx.model.config.labels;
    const std::string logit =
        "logit[" + (cls < static_cast<int>(labels.size()) ? "\"" + labels[cls] + "\"" : std::to_string(cls)) + "]";
    ImGui::PushFont(ctx.heading());
    ImGui::TextColored(ImVec4(1.f, 0.8f, 0.3f, 1.f), "%s", ctx.stage_id().c_str());
    TextAfter("gradient  d " + logit + " / d " + ctx.stage_id(), 16.f);
    ImGui::PopFont();
    DrawValueGradientSwitch(ctx);
    ImGui::Separator();
    if (!ex || !ex->answers(ctx.generation, cls)) {
        ImGui::TextDisabled(busy ? "running the backward pass…" : "waiting for the backward pass…");
        return;
    }
    if (!ex->error.empty() || !ex->gradients) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        ImGui::TextWrapped("No gradients: %s", ex->error.c_str());
        ImGui::PopStyleColor();
        return;
    }
    const Tensor* value = ctx.tensor(stage);
    const Tensor* grad = ex->gradients->tensor(stage);
    if (!value || !grad) {
        ImGui::TextWrapped("No gradient for this stage — %s.", def.backward);
        return;
    }
    if (value->rank() == 3 && stage.kind != StageKind::Input) DrawHeadSelector(ctx, false);
    // The gradient's own view: same layout, its trace, its textures and numbers, always red-white-blue.
    AppState grad_state = ctx.state;
    grad_state.colormap = ColormapMode::Diverging;
    ViewContext gctx{grad_state,     ctx.pipeline,
                     *ex->gradients, ctx.model,
                     ctx.picture,    ctx.cache,
                     grad_derived,   (1ull << 63) | (ctx.generation << 16) | static_cast<uint64_t>(cls & 0xffff),
                     ctx.fonts,      ctx.linked_hover};
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = 20.f;
    const ImVec2 area(avail.x, avail.y - 5.f * ImGui::GetTextLineHeightWithSpacing());
    if (stacks_value_over_gradient(ctx, stage, *value, area, gap)) {
        const ImVec2 each(area.x, (area.y - gap) * 0.5f);
        DrawStageMatrix(ctx, stage, *value, each, "value " + shape_string(value->shape));
        ImGui::Dummy(ImVec2(0, gap * 0.5f));
        DrawStageMatrix(gctx, stage, *grad, each, "gradient " + shape_string(grad->shape));
    } else {
        const float value_w = (area.x - gap) * 0.4f, grad_w = area.x - gap - value_w;
        DrawStageMatrix(ctx, stage, *value, ImVec2(value_w, area.y), "value " + shape_string(value->shape));
        ImGui::SameLine(0, gap);
        DrawStageMatrix(gctx, stage, *grad, ImVec2(grad_w, area.y), "gradient " + shape_string(grad->shape));
    }
    ctx.state.token = grad_state.token;  // a click in the gradient selects the token everywhere
    ImGui::PushFont(ctx.mono());
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.f, 0.86f, 0.55f, 1.f));
    ImGui::TextWrapped("%s", def.backward);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    Note("Red: raising this value would raise " + logit +
         "; blue: lower it; white: no effect. Step left (←) to walk "
         "the gradient back towards the pixels.");
}

}  // namespace vit::gui
