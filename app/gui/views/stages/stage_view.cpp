// The main view: a title line for the current stage (its place in the
// pipeline, its name and its shape), then the stage's own picture.
#include <cstdio>

#include "logic/describe/stage_info.h"
#include "logic/describe/stage_kinds.h"
#include "views/widgets/views.h"

namespace vit::gui {

void DrawValueGradientSwitch(ViewContext& ctx) {
    SameLineOrWrap(RadioRowWidth("show:", {"values", "gradients (G)"}), 30.f);
    ImGui::TextDisabled("show:");
    ImGui::SameLine();
    if (ImGui::RadioButton("values", !ctx.state.gradients)) ctx.state.gradients = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("gradients (G)", ctx.state.gradients)) ctx.state.gradients = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the backward walk: how each value moves the top class's logit");
}

void DrawStageView(ViewContext& ctx) {
    const std::string& id = ctx.stage_id();
    const Tensor* t = ctx.tensor(ctx.stage());
    StageInfo info = describe_stage(ctx.stage(), ctx.model.config, ctx.pipeline.tokens);

    ImGui::PushFont(ctx.heading());
    ImGui::TextColored(ImVec4(1.f, 0.8f, 0.3f, 1.f), "%s", id.c_str());
    TextAfter(info.title, 16.f);
    ImGui::PopFont();
    ImGui::TextDisabled("stage %d of %d", ctx.state.stage + 1, ctx.pipeline.size());
    if (t) TextAfter("shape " + shape_string(t->shape), 20.f);
    // Before the cls stage there are no prefix tokens (CLS, DIST, registers): only a selected patch is named there.
    const int cls_stage = ctx.pipeline.index_of(StageRef{StageKind::Cls});
    const bool has_prefix = cls_stage >= 0 && ctx.state.stage >= cls_stage;
    if (ctx.pipeline.layout.is_patch(ctx.state.token) || has_prefix) {
        const std::string selected = "selected: " + ctx.name_of_token(ctx.state.token);
        SameLineOrWrap(ImGui::CalcTextSize(selected.c_str()).x, 20.f);
        ImGui::TextColored(ImVec4(1.f, 0.78f, 0.f, 1.f), "%s", selected.c_str());
    }
    if (ctx.tensor({StageKind::Logits})) DrawValueGradientSwitch(ctx);
    ImGui::Separator();
    if (!t) {
        ImGui::TextDisabled("This trace has no stage %s.", id.c_str());
        return;
    }
    ImGui::BeginChild("stage_picture", ImVec2(0, 0), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    switch (stage_kind_row(ctx.stage().kind).look) {  // the picture the kind's row names
        case StageLook::Input: DrawInputView(ctx); break;
        case StageLook::Patches: DrawPatchesView(ctx); break;
        case StageLook::PatchEmbed: DrawPatchEmbedView(ctx); break;
        case StageLook::Cls: DrawClsView(ctx); break;
        case StageLook::Tokens: DrawTokensView(ctx); break;
        case StageLook::LayerNorm: DrawLayerNormView(ctx); break;
        case StageLook::Qkv: DrawQkvView(ctx); break;
        case StageLook::AttentionMatrix: DrawAttentionMatrixView(ctx); break;
        case StageLook::Context: DrawContextView(ctx); break;
        case StageLook::AttnOut: DrawAttnOutView(ctx); break;
        case StageLook::Residual: DrawResidualView(ctx); break;
        case StageLook::Mlp: DrawMlpView(ctx); break;
        case StageLook::Pool: DrawPoolView(ctx); break;
        case StageLook::Head: DrawHeadView(ctx); break;
        case StageLook::Rollout: DrawRolloutView(ctx); break;
    }
    ImGui::EndChild();
}

}  // namespace vit::gui
