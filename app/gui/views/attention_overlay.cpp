// The selected token's attention over the image, the piece the attention
// screen and the model view share: one head's attention row with its texture
// key (so both screens draw from the same cached texture), and the model's
// picture with such a row laid over it — as two layers (the attention screen's
// few large maps) or composited into one texture (the model view's many small ones).
#include <algorithm>

#include "views.h"

namespace vit::gui {

static constexpr float kOverlayAlpha = 0.72f;

AttentionRow attention_row(ViewContext& ctx, int layer, int head, int token) {
    const StageRef stage{StageKind::Attn, layer};
    const Tensor* attn = ctx.tensor(stage);
    if (!attn) return {};
    const int T = ctx.pipeline.tokens;
    return {attn->data.data() + (static_cast<size_t>(head) * T + token) * T,
            texture_key(ctx, stage, head, Colormap::Sequential, "row " + std::to_string(token))};
}

PictureResult DrawAttentionOverlay(ViewContext& ctx, const float* patches, const std::string& key, float side,
                                   bool clickable, bool colour_bar) {
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.grid = false;
    ps.overlay = patches;
    ps.overlay_key = key;
    ps.overlay_alpha = kOverlayAlpha;
    ps.overlay_bar = colour_bar;
    ps.clickable = clickable;
    ps.show_selection = true;
    return DrawModelPicture(ctx, ps);
}

CachedTexture attention_cell_texture(ViewContext& ctx, const AttentionRow& row, float side, std::optional<RgbaImage>& picture) {
    const Tensor* input = ctx.tensor({StageKind::Input});
    const int size = input ? static_cast<int>(input->shape[2]) : 1, g = ctx.grid();
    // The picture shrunk by a whole factor that divides it, to about the cell's size (no mipmaps at work when drawn).
    int shrink = std::max(1, static_cast<int>(size / std::max(side, 1.f)));
    while (size % shrink) --shrink;
    return ctx.cache.get(row.key + "|over picture/" + std::to_string(shrink), [&] {
        if (!picture || picture->width != size / shrink) picture = shrink_image(model_picture_pixels(ctx), shrink);
        return blend_over(*picture, overlay_pixels(row.weights + 1, g), kOverlayAlpha);
    });
}

}  // namespace vit::gui
