// The selected token's attention over the image, the piece the attention
// screen and the model view share: one head's attention row, the colour-scale
// selector, and every block × head composited over the model's picture in one
// atlas texture (the model view's many small maps).
#include <algorithm>

#include "logic/describe/attention_scale.h"
#include "views/widgets/views.h"

namespace vit::gui {

static constexpr float kOverlayAlpha = 0.72f;

const float* attention_row(ViewContext& ctx, int layer, int head, int token) {
    const StageRef stage{StageKind::Attn, layer};
    const Tensor* attn = ctx.tensor(stage);
    const int T = ctx.pipeline.tokens;
    if (!attn && ctx.walked && ctx.walked->token == token) return ctx.walked->row(layer, head);  // a Stream trace's
    if (!attn || token >= T) return nullptr;
    // Shuffled or dropped tokens (Ask panel): the row in image order, zeros where dropped.
    return image_order_data(ctx, stage, *attn) + (static_cast<size_t>(head) * T + token) * T;
}

std::vector<const float*> layer_attention_maps(ViewContext& ctx, int layer, int token) {
    std::vector<const float*> maps;
    for (int h = 0; h < ctx.pipeline.heads; ++h) {
        const float* row = attention_row(ctx, layer, h, token);
        if (!row) return {};
        maps.push_back(row + ctx.pipeline.layout.count());  // the patch columns
    }
    return maps;
}

// The selector's box: its longest choice and the arrow.
static float scale_box_width() {
    return ImGui::CalcTextSize(attention_scale_name(AttentionScale::LayerMax)).x + 2 * ImGui::GetFrameHeight();
}

float AttentionScaleComboWidth() {
    return ImGui::CalcTextSize("colours").x + ImGui::GetStyle().ItemSpacing.x + scale_box_width();
}

void AttentionScaleCombo(AppState& st) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("colours");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(scale_box_width());
    if (ImGui::BeginCombo("##scale", attention_scale_name(st.attention_scale))) {
        for (AttentionScale s : {AttentionScale::LayerMax, AttentionScale::Percent, AttentionScale::EachMap})
            if (ImGui::Selectable(attention_scale_name(s), s == st.attention_scale)) st.attention_scale = s;
        ImGui::EndCombo();
    }
}

CachedTexture attention_atlas(ViewContext& ctx, int token, float side) {
    const Tensor* input = ctx.tensor({StageKind::Input});
    const int size = input ? static_cast<int>(input->shape[2]) : 1, g = ctx.grid();
    const int L = ctx.pipeline.depth, H = ctx.pipeline.heads;
    // The picture shrunk by the smallest whole factor that divides it and makes it no larger than a cell: drawn
    // magnified, never minified (under llvmpipe that was 15-35% more frames a second for ViT-B's 12 × 12 maps).
    int shrink = 1;
    while (shrink < size && (size % shrink || size / shrink > side)) ++shrink;
    const AttentionScale scale = ctx.state.attention_scale;
    const float alpha = overlay_opacity(side / g, kOverlayAlpha);  // cells with their numbers: no picture under them
    // The token, the picture's shrink, the scale, whether opaque, and the blocks walked so far (-1: all kept).
    const std::vector<double> params = {double(token), double(shrink), double(static_cast<int>(scale)),
                                        alpha < 1.f ? 0.0 : 1.0, ctx.walked ? double(ctx.walked->done) : -1.0};
    return ctx.cache.get(
        texture_key(ctx, {StageKind::Attn, 0}, -1, Colormap::Sequential, Purpose::AttentionAtlas, params), [&] {
            const RgbaImage picture = shrink_image(model_picture_pixels(ctx), shrink);
            const int cw = picture.width, ch = picture.height;
            RgbaImage atlas;
            atlas.width = H * cw;
            atlas.height = L * ch;
            atlas.smooth = picture.smooth;
            atlas.pixels.assign(static_cast<size_t>(atlas.width) * atlas.height * 4, 0);
            for (int l = 0; l < L; ++l) {
                const std::vector<const float*> layer_maps = layer_attention_maps(ctx, l, token);
                if (layer_maps.empty()) continue;
                for (int h = 0; h < H; ++h) {
                    const Range range = attention_range(scale, layer_maps, g * g, h);
                    const RgbaImage cell = blend_over(picture, overlay_pixels(layer_maps[h], g, range), alpha);
                    for (int y = 0; y < ch; ++y)
                        std::copy_n(&cell.pixels[static_cast<size_t>(y) * cw * 4], cw * 4,
                                    &atlas.pixels[((static_cast<size_t>(l) * ch + y) * atlas.width +
                                                   static_cast<size_t>(h) * cw) *
                                                  4]);
                }
            }
            return atlas;
        });
}

}  // namespace vit::gui
