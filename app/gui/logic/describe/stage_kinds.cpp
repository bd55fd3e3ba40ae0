// The app's table of stage kinds (see stage_kinds.h).
#include "logic/describe/stage_kinds.h"

namespace vit::gui {

const std::vector<StageKindRow>& stage_kind_table() {
    using K = StageKind;
    using L = StageLook;
    using C = CellTrace;
    static const std::vector<StageKindRow> table = {
        {K::Input, L::Input, describe_input, C::None},
        {K::Patches, L::Patches, describe_patches, C::None},
        {K::PatchEmbed, L::PatchEmbed, describe_patch_embed, C::None},
        {K::Cls, L::Cls, describe_cls, C::None},
        {K::Tokens, L::Tokens, describe_tokens, C::None},
        {K::NormPre, L::LayerNorm, describe_norm_pre, C::None},
        {K::Ln1, L::LayerNorm, describe_ln1, C::LayerNorm},
        {K::Q, L::Qkv, describe_qkv, C::None},
        {K::K, L::Qkv, describe_qkv, C::None},
        {K::V, L::Qkv, describe_qkv, C::None},
        {K::Scores, L::AttentionMatrix, describe_scores, C::Scores},
        {K::Attn, L::AttentionMatrix, describe_attn, C::Attn},
        {K::Context, L::Context, describe_context, C::None},
        {K::AttnOut, L::AttnOut, describe_attn_out, C::None},
        {K::Ls1, L::Mlp, describe_layer_scale, C::None},
        {K::Res1, L::Residual, describe_res1, C::None},
        {K::Ln2, L::LayerNorm, describe_ln2, C::LayerNorm},
        {K::Fc1, L::Mlp, describe_fc1, C::Fc1},
        {K::Gelu, L::Mlp, describe_gelu, C::None},
        {K::QuickGelu, L::Mlp, describe_quick_gelu, C::None},
        {K::SwiGlu, L::Mlp, describe_swiglu, C::None},
        {K::MlpOut, L::Mlp, describe_mlp_out, C::None},
        {K::Ls2, L::Mlp, describe_layer_scale, C::None},
        {K::Out, L::Residual, describe_out, C::None},
        {K::Norm, L::LayerNorm, describe_norm, C::LayerNorm},
        {K::Pool, L::Pool, describe_pool, C::None},
        {K::FcNorm, L::Pool, describe_pool_norm, C::None},
        {K::LogitsCls, L::Head, describe_logits_part, C::None},
        {K::LogitsDist, L::Head, describe_logits_part, C::None},
        {K::Logits, L::Head, describe_logits, C::None},
        {K::Probs, L::Head, describe_probs, C::None},
        {K::Rollout, L::Rollout, describe_rollout, C::None},
    };
    return table;
}

const StageKindRow& stage_kind_row(StageKind kind) { return stage_kind_table()[static_cast<size_t>(kind)]; }

}  // namespace vit::gui
