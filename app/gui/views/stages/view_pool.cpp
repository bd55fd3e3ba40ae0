// Stages `pool` and `pool_norm`: the one vector the head reads. `pool` averages
// the patch rows of the final norm (or takes the CLS row); `pool_norm` is that
// vector through a LayerNorm (timm's fc_norm). Drawn as its input, an arrow and
// the vector, with the stage's sentence.
#include "logic/describe/stage_info.h"
#include "views/widgets/views.h"

namespace vit::gui {

void DrawPoolView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    const StageRef in = *stage_input(stage, ctx.pipeline.depth);
    const Tensor* src = ctx.tensor(in);
    const int D = ctx.model.config.embed_dim;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float h = avail.y * 0.55f, vector_h = std::min(h, 6 * lh);
    const float w = (avail.x - OperatorSignWidth(ctx, "→")) * 0.5f - 10.f;
    if (src && stage.kind == StageKind::Pool)
        DrawTokenMatrix(ctx, in, -1, ImVec2(w, h), stage_id(in) + " " + shape_string(src->shape), "feature");
    else if (src)
        DrawPlainMatrix(ctx, texture_key(ctx, in, -1, Colormap::Diverging), src->data.data(), 1, D, ImVec2(w, vector_h),
                        stage_id(in) + " " + shape_string(src->shape), "", "feature");
    ImGui::SameLine();
    OperatorSign(ctx, "→", h * 0.5f);
    ImGui::SameLine();
    const Colormap cmap = colormap_for(stage.kind, ctx.state.colormap);
    DrawPlainMatrix(ctx, texture_key(ctx, stage, -1, cmap), t.data.data(), 1, D, ImVec2(w, vector_h),
                    ctx.stage_id() + " " + shape_string(t.shape), "", "feature", cmap);
    Formula(ctx, stage.kind);
    Note(describe_stage(stage, ctx.model.config, ctx.pipeline.tokens).explanation);
}

}  // namespace vit::gui
