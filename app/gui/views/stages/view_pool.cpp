// Stages `pool` and `pool_norm`: the one vector the head reads. `pool` averages
// the patch rows of the final norm (or takes the CLS row); `pool_norm` is that
// vector through a LayerNorm (timm's fc_norm). Drawn as its input, an arrow and
// the vector, with the stage's sentence.
#include <algorithm>

#include "logic/describe/stage_info.h"
#include "views/widgets/views.h"

namespace vit::gui {

// A D-vector as one row of cells a few lines tall (square cells would be a pixel high).
static void DrawVector(ViewContext& ctx, const CacheKey& key, const float* data, int D, float width,
                       const std::string& title, Colormap cmap) {
    HeatmapSpec s;
    s.matrix = {key, data, 1, D, cmap};
    s.labels = {title, "", "feature"};
    s.token_rows.enabled = false;
    s.layout.cell_w = std::max(0.5f, (width - ImGui::GetFontSize() * 7.f) / static_cast<float>(D));  // room for the bar
    s.layout.cell_h = 2.5f * ImGui::GetTextLineHeightWithSpacing();
    s.layout.size = ImVec2(width, s.layout.cell_h + 5.f * ImGui::GetTextLineHeightWithSpacing());
    s.layout.numbers = false;
    s.transition = ctx.transition;
    DrawHeatmap(ctx.cache, s);
}

void DrawPoolView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    const StageRef in = *stage_input(stage, ctx.pipeline.depth);
    const Tensor* src = ctx.tensor(in);
    const int D = ctx.model.config.embed_dim;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float h = avail.y * 0.55f;
    const float w = (avail.x - OperatorSignWidth(ctx, "→")) * 0.5f - 10.f;
    const Colormap cmap = colormap_for(stage.kind, ctx.state.colormap);
    if (src && stage.kind == StageKind::Pool)
        DrawTokenMatrix(ctx, in, -1, ImVec2(w, h), stage_id(in) + " " + shape_string(src->shape));
    else if (src)
        DrawVector(ctx, texture_key(ctx, in, -1, cmap), src->data.data(), D, w,
                   stage_id(in) + " " + shape_string(src->shape), cmap);
    ImGui::SameLine();
    OperatorSign(ctx, "→", stage.kind == StageKind::Pool ? h * 0.5f : 2.f * lh);
    ImGui::SameLine();
    DrawVector(ctx, texture_key(ctx, stage, -1, cmap), t.data.data(), D, w,
               ctx.stage_id() + " " + shape_string(t.shape), cmap);
    Formula(ctx, stage.kind);
    Note(describe_stage(stage, ctx.model.config, ctx.pipeline.tokens).explanation);
}

}  // namespace vit::gui
