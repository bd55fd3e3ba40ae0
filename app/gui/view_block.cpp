// Stages `block{i}.context` (attn·V, heads concatenated), `.attn_out` (the
// output projection) and the residual adds `.res1` and `.out`, drawn as the
// sum they are: input + branch = result.
#include <cstdio>

#include "views.h"

namespace vit::gui {

void DrawContextView(ViewContext& ctx) {
    const std::string& id = ctx.stage_id();
    const Tensor& t = *ctx.tensor(id);
    int H = ctx.model.config.num_heads, Dh = ctx.model.config.head_dim();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    DrawTokenMatrix(ctx, id, -1, ImVec2(avail.x, avail.y - 4 * lh),
                    "context " + shape_string(t.shape) + ": " + std::to_string(H) + " heads side by side", "feature", 0, Dh);
    Formula(ctx, "context_h = attn_h · v_h  for each head, then concatenated: x.transpose(1, 2).reshape(B, N, C)");
    Note("Each token's new vector is the attention-weighted average of the value vectors of all tokens, computed "
         "separately in each head's " + std::to_string(Dh) + " features; the heads are then laid side by side.");
}

void DrawAttnOutView(ViewContext& ctx) {
    const std::string& id = ctx.stage_id();
    const Tensor& t = *ctx.tensor(id);
    std::string ctx_id = "block" + std::to_string(stage_block(id)) + ".context";
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float h = avail.y - 4 * lh, w = (avail.x - 50.f) / 2.f;
    DrawTokenMatrix(ctx, ctx_id, -1, ImVec2(w, h), "context (heads concatenated)", "feature", 0, ctx.model.config.head_dim());
    ImGui::SameLine();
    OperatorSign(ctx, "→", h * 0.5f);
    ImGui::SameLine();
    DrawTokenMatrix(ctx, id, -1, ImVec2(w, h), "attn_out " + shape_string(t.shape));
    Formula(ctx, "attn_out = context · W_projᵀ + b_proj   # self.proj(x)");
    Note("The output projection mixes the heads' results back into one " + std::to_string(ctx.model.config.embed_dim) +
         "-feature vector per token: what attention adds to the residual stream.");
}

void DrawResidualView(ViewContext& ctx) {
    const std::string& id = ctx.stage_id();
    int b = stage_block(id);
    bool first = id.substr(id.find('.') + 1) == "res1";
    std::string in_id = stage_input_id(id, ctx.pipeline.depth);
    std::string branch = "block" + std::to_string(b) + (first ? ".attn_out" : ".mlp_out");
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float h = (avail.y - 6 * lh) / 2.f, w = (avail.x - 60.f) / 2.f - 8.f;
    DrawTokenMatrix(ctx, in_id, -1, ImVec2(w, h), "x = " + in_id);
    ImGui::SameLine();
    OperatorSign(ctx, "+", h * 0.6f);
    ImGui::SameLine();
    DrawTokenMatrix(ctx, branch, -1, ImVec2(w, h), branch + (first ? "  (attention)" : "  (MLP)"));
    OperatorSign(ctx, "=", h * 0.6f);
    ImGui::SameLine();
    DrawTokenMatrix(ctx, id, -1, ImVec2(w, h), id + (first ? "  (x after attention)" : "  (block output)"));
    Formula(ctx, first ? "x = x + self.attn(self.norm1(x))" : "x = x + self.mlp(self.norm2(x))");
    Note(first ? "The residual connection: attention's result is added to the tokens, it does not replace them. "
                 "(Seed notebook 004's Block.forward computes the attention but never adds it — a classic bug: "
                 "without this sum the block would throw its input away.)"
               : "The second residual connection: the MLP's result is added to the tokens. This is the block's "
                 "output and the next block's input.");
}

}  // namespace vit::gui
