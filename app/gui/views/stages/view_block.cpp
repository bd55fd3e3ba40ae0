// Stages `block{i}.context` (attn·V, heads concatenated), `.attn_out` (the
// output projection) and the residual adds `.res1` and `.out`, drawn as the
// sum they are: input + branch = result.
#include <cstdio>

#include "views/widgets/views.h"

namespace vit::gui {

void DrawContextView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    int H = ctx.model.config.num_heads, Dh = ctx.model.config.head_dim();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    DrawTokenMatrix(ctx, stage, -1, ImVec2(avail.x, avail.y - 4 * lh),
                    "context " + shape_string(t.shape) + ": " + std::to_string(H) + " heads side by side",
                    TokenColumns::Feature, Dh);
    Formula(ctx, stage.kind);
    Note(
        "Each token's new vector is the attention-weighted average of the value vectors of all tokens, computed "
        "separately in each head's " +
        std::to_string(Dh) + " features; the heads are then laid side by side.");
}

void DrawAttnOutView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    const Tensor& t = *ctx.tensor(stage);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float h = avail.y - 4 * lh, w = (avail.x - 50.f) / 2.f;
    DrawTokenMatrix(ctx, ctx.sibling(StageKind::Context), -1, ImVec2(w, h), "context (heads concatenated)",
                    TokenColumns::Feature, ctx.model.config.head_dim());
    ImGui::SameLine();
    OperatorSign(ctx, "→", h * 0.5f);
    ImGui::SameLine();
    DrawTokenMatrix(ctx, stage, -1, ImVec2(w, h), stage_def(stage.kind).name + (" " + shape_string(t.shape)));
    Formula(ctx, stage.kind);
    Note("The output projection mixes the heads' results back into one " + std::to_string(ctx.model.config.embed_dim) +
         "-feature vector per token: what attention adds to the residual stream.");
}

void DrawResidualView(ViewContext& ctx) {
    const StageRef& stage = ctx.stage();
    bool first = stage.kind == StageKind::Res1;
    const StageRef in = *stage_input(stage, ctx.pipeline.depth, ctx.model.config.norm_pre);
    // The branch as added: LayerScale's ls1/ls2 when the model has them.
    const StageKind scaled = first ? StageKind::Ls1 : StageKind::Ls2;
    const StageRef branch = ctx.sibling(ctx.model.config.layer_scale ? scaled
                                        : first                      ? StageKind::AttnOut
                                                                     : StageKind::MlpOut);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float h = (avail.y - 6 * lh) / 2.f, w = (avail.x - 60.f) / 2.f - 8.f;
    const Range shared = SumTermsRange(ctx, {in, branch, stage});  // one scale for the three terms
    DrawSumTerm(ctx, in, shared, ImVec2(w, h), "x = " + stage_id(in));
    ImGui::SameLine();
    OperatorSign(ctx, "+", h * 0.6f);
    ImGui::SameLine();
    DrawSumTerm(ctx, branch, shared, ImVec2(w, h), stage_id(branch) + (first ? "  (attention)" : "  (MLP)"));
    OperatorSign(ctx, "=", h * 0.6f);
    ImGui::SameLine();
    DrawSumTerm(ctx, stage, shared, ImVec2(w, h),
                ctx.stage_id() + (first ? "  (x after attention)" : "  (block output)"));
    Formula(ctx, stage.kind);
    // The seed notebook's mistake here is the side panel's teaching note (off by default).
    Note(std::string(first ? "The residual connection: attention's result is added to the tokens, it does not replace "
                             "them: without this sum the block would throw its input away."
                           : "The second residual connection: the MLP's result is added to the tokens. This is the "
                             "block's output and the next block's input.") +
         " The three share one colour scale, so a small correction looks small beside the stream.");
}

}  // namespace vit::gui
