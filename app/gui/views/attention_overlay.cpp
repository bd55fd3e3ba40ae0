// The selected token's attention over the image, the piece the attention
// screen and the model view share: one head's attention row and its overlay's
// texture key, and every block × head composited over the model's picture in
// one atlas texture (the model view's many small maps).
#include <algorithm>

#include "views.h"

namespace vit::gui {

static constexpr float kOverlayAlpha = 0.72f;

AttentionRow attention_row(ViewContext& ctx, int layer, int head, int token) {
    const StageRef stage{StageKind::Attn, layer};
    const Tensor* attn = ctx.tensor(stage);
    const int T = ctx.pipeline.tokens;
    if (!attn || token >= T) return {};
    // Shuffled or dropped tokens (Ask panel): the row in image order, zeros where dropped.
    return {image_order_data(ctx, stage, *attn) + (static_cast<size_t>(head) * T + token) * T,
            texture_key(ctx, stage, head, Colormap::Sequential, "row " + std::to_string(token))};
}

CachedTexture attention_atlas(ViewContext& ctx, int token, float side) {
    const Tensor* input = ctx.tensor({StageKind::Input});
    const int size = input ? static_cast<int>(input->shape[2]) : 1, g = ctx.grid();
    const int L = ctx.pipeline.depth, H = ctx.pipeline.heads;
    // The picture shrunk by the smallest whole factor that divides it and makes it no larger than a cell: drawn
    // magnified, never minified (under llvmpipe that was 15-35% more frames a second for ViT-B's 12 × 12 maps).
    int shrink = 1;
    while (shrink < size && (size % shrink || size / shrink > side)) ++shrink;
    const std::string what = "every block, row " + std::to_string(token) + " over picture/" + std::to_string(shrink);
    return ctx.cache.get(texture_key(ctx, {StageKind::Attn, 0}, -1, Colormap::Sequential, what), [&] {
        const RgbaImage picture = shrink_image(model_picture_pixels(ctx), shrink);
        const int cw = picture.width, ch = picture.height;
        RgbaImage atlas;
        atlas.width = H * cw;
        atlas.height = L * ch;
        atlas.smooth = picture.smooth;
        atlas.pixels.assign(static_cast<size_t>(atlas.width) * atlas.height * 4, 0);
        for (int l = 0; l < L; ++l)
            for (int h = 0; h < H; ++h) {
                AttentionRow row = attention_row(ctx, l, h, token);
                if (!row.weights) continue;
                const RgbaImage cell = blend_over(picture, overlay_pixels(row.weights + 1, g), kOverlayAlpha);
                for (int y = 0; y < ch; ++y)
                    std::copy_n(&cell.pixels[static_cast<size_t>(y) * cw * 4], cw * 4,
                                &atlas.pixels[((static_cast<size_t>(l) * ch + y) * atlas.width + static_cast<size_t>(h) * cw) * 4]);
            }
        return atlas;
    });
}

}  // namespace vit::gui
