// The stage pictures: one Draw…View() per kind of stage (each in its own
// view_*.cpp), and DrawStageView() which picks the right one for the current
// stage. Every view fills the region it is given and reads only the Trace
// (and the model's weights where a picture shows them).
#pragma once
#include "logic/jobs/explanation.h"
#include "views/widgets/view_common.h"

namespace vit::gui {

void DrawStageView(ViewContext& ctx);

void DrawInputView(ViewContext& ctx);            // view_input.cpp
void DrawPatchesView(ViewContext& ctx);          // view_patches.cpp
void DrawPatchEmbedView(ViewContext& ctx);       // view_patch_embed.cpp
void DrawClsView(ViewContext& ctx);              // view_tokens.cpp
void DrawTokensView(ViewContext& ctx);           // view_tokens.cpp
void DrawLayerNormView(ViewContext& ctx);        // view_layernorm.cpp (ln1, ln2, norm)
void DrawQkvView(ViewContext& ctx);              // view_qkv.cpp
void DrawAttentionMatrixView(ViewContext& ctx);  // view_attention_matrix.cpp (scores, attn)
void DrawContextView(ViewContext& ctx);          // view_block.cpp
void DrawAttnOutView(ViewContext& ctx);          // view_block.cpp
void DrawResidualView(ViewContext& ctx);         // view_block.cpp (res1, out)
void DrawMlpView(ViewContext& ctx);              // view_mlp.cpp (fc1, gelu, mlp_out)
void DrawPoolView(ViewContext& ctx);             // view_pool.cpp (pool, pool_norm)
void DrawHeadView(ViewContext& ctx);             // view_head.cpp (logits, probs, logits_cls, logits_dist)
void DrawRolloutView(ViewContext& ctx);          // view_rollout.cpp

// The attention screen (attention_screen.cpp): the selected token's attention
// over the image for every head of a layer, the head mean, and rollout.
void DrawAttentionScreen(ViewContext& ctx);

// The selected token's attention over the image (attention_overlay.cpp), shared by the
// attention screen and the model view: head `head`'s row `token` of block `layer`'s
// attention (T weights: the prefix tokens CLS, DIST, REG… first, then the patches); nullptr
// when the trace has no such stage.
const float* attention_row(ViewContext& ctx, int layer, int head, int token);
// Every block × head map of `token` (picture and overlay composited, each about `side`
// pixels wide) in one texture, block b's head h at cell (column h, row b): the model view
// draws all its maps in one draw call (one per map costs llvmpipe a third of the frame).
// (Colours on the chosen attention scale: by default one per block, shared by its heads.)
CachedTexture attention_atlas(ViewContext& ctx, int token, float side);
// Each head's attention row of `token` in block `layer` over the patches (image order, the
// prefix tokens left out), the maps a layer's colour scale spans; empty when the trace lacks the block.
std::vector<const float*> layer_attention_maps(ViewContext& ctx, int layer, int token);
// "colours [one scale per layer ▾]": chooses AppState::attention_scale (attention_scale.h).
void AttentionScaleCombo(AppState& st);
float AttentionScaleComboWidth();

// The whole model at a glance (overview_screen.cpp): every stage as a thumbnail,
// one row per block, the residual stream's skips, a click goes to the stage.
void DrawOverviewScreen(ViewContext& ctx);
// BertViz's model view over the image (model_view.cpp): the selected token's
// attention for every layer × head; a click opens that map on the attention screen.
void DrawModelView(ViewContext& ctx);

// The findings screens (findings_distance.cpp, findings_features.cpp, findings_norms.cpp,
// findings_masks.cpp; their numbers from core/findings/): mean attention distance by depth with
// the patch filters and their principal components; the chosen block's patch tokens as PCA
// colours; token norms with high-norm outliers and sink scores; DINO's top-mass CLS masks.
void DrawAttentionDistanceScreen(ViewContext& ctx);
// `joint`: the other images' passes for the joint PCA (null while none were asked for).
void DrawPatchFeaturesScreen(ViewContext& ctx, const struct JointPasses* joint);
void DrawTokenNormsScreen(ViewContext& ctx);
void DrawClsMaskScreen(ViewContext& ctx);

// "Why this class?" (why_screen.cpp): relevance, rollout and saliency for class `chosen`
// (picked from the top five); `ex` null or for another class/trace while it is computed.
void DrawWhyScreen(ViewContext& ctx, const Explanation* ex, int& chosen, bool busy);

// The backward walk (gradient_view.cpp): the current stage's d logit[cls] / d stage beside
// its value, from `ex` (null or for another trace/class while computed); `grad_derived`
// keeps numbers derived from the gradients apart from the values'.
void DrawGradientView(ViewContext& ctx, const Explanation* ex, int cls, bool busy, DerivedCache& grad_derived);
// "show: values | gradients" on the stage view's title line, bound to state.gradients (key G).
void DrawValueGradientSwitch(ViewContext& ctx);

// A selector "all heads | head 0 | head 1 …" bound to state.head (view_qkv.cpp).
void DrawHeadSelector(ViewContext& ctx, bool allow_all);

}  // namespace vit::gui
