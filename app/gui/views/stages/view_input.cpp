// Stage `input`: the image as decoded, the square the model sees (resized and
// centre-cropped), and each channel after normalisation (x − mean) / std.
#include <algorithm>
#include <cstdio>

#include "logic/describe/stage_info.h"
#include "views/widgets/views.h"

namespace vit::gui {

// Each channel after normalisation, side by side in `box`.
static void DrawNormalisedChannels(ViewContext& ctx, const Tensor& in, ImVec2 box) {
    const auto& pre = ctx.model.config.preprocess;
    const int C = static_cast<int>(in.shape[0]);
    static const char* kNames[] = {"R", "G", "B"};
    for (int c = 0; c < C; ++c) {
        if (c) ImGui::SameLine(0, 16);
        char title[160];
        float mean = c < (int)pre.mean.size() ? pre.mean[c] : 0.f, sd = c < (int)pre.std.size() ? pre.std[c] : 1.f;
        std::snprintf(title, sizeof title, "%s(x − %.3g) / %.3g", C == 3 ? (std::string(kNames[c]) + ": ").c_str() : "",
                      mean, sd);
        HeatmapSpec s = stage_spec(ctx, {StageKind::Input}, in, c);
        s.labels = {title, "y", "x"};
        s.token_rows.enabled = false;
        s.layout.size = ImVec2(box.x / C - 16, box.y);
        s.layout.max_cell = 5.3f * ImGui::GetFontSize();
        DrawHeatmap(ctx.cache, s);
    }
}

// 1. The picture file, aspect kept, at most `box`, under its caption.
static void DrawImageFile(ViewContext& ctx, ImVec2 box) {
    ImGui::BeginGroup();
    const Image& pic = ctx.picture;
    ImGui::Text("1. the image file (%d×%d, %s)", pic.width, pic.height, pic.channels == 1 ? "grey" : "RGB");
    float ph = box.y, pw = ph * pic.width / std::max(1, pic.height);
    if (pw > box.x) {
        pw = box.x;
        ph = pw * pic.height / std::max(1, pic.width);
    }
    const auto file_key = [&] {
        return content_key(Purpose::ImageFile, pic.data.data(), pic.data.size(),
                           {double(pic.height), double(pic.width)});
    };
    CachedTexture orig = ctx.cache.get_by_content(
        texture_key(ctx, {StageKind::Input}, -1, Colormap::Sequential, Purpose::ImageFile), file_key, [&] {
            return render_picture(pic.data.data(), pic.channels, pic.height, pic.width,
                                  std::max(pic.height, pic.width) > 64);
        });
    ImGui::Image(reinterpret_cast<ImTextureID>(orig.id), ImVec2(pw, ph));
    ImGui::EndGroup();
}

// 2. The square the model sees, `side` wide, under its caption.
static void DrawModelSquare(ViewContext& ctx, int S, float side) {
    ImGui::BeginGroup();
    const int masked = ctx.ask && !ctx.shows_original() ? static_cast<int>(ctx.ask->asked.mask_patches.size()) : 0;
    const std::string caption = input_picture_caption(S, masked);
    // Wrapped to the picture's width (a long caption as wide as the window pushed the view's right
    // column out of it); the picture gives up the room of the lines past the first.
    const float caption_h = ImGui::CalcTextSize(caption.c_str(), nullptr, false, side).y;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side);
    ImGui::TextWrapped("%s", caption.c_str());
    ImGui::PopTextWrapPos();
    side -= caption_h - ImGui::GetTextLineHeight();
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.grid = false;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
}

static const char* kNormalisedNote =
    "3. Each channel is normalised with the mean and standard deviation the model was trained "
    "with, so the numbers the network sees are centred on 0 (blue below 0, red above).";

// A grey image in a view about as tall as wide: the file over the model's square at the left, the
// normalised channel as tall as both at the right, the note under them.
static void DrawInputColumns(ViewContext& ctx, const Tensor& in, int S, ImVec2 avail) {
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float note_h = WrappedHeight(kNormalisedNote, avail.x) + lh;
    const float col_h = avail.y - note_h - lh;
    const float side = std::min(col_h / 2.f - lh - ImGui::GetStyle().ItemSpacing.y, avail.x * 0.36f);
    ImGui::BeginGroup();
    DrawImageFile(ctx, ImVec2(side, side));
    DrawModelSquare(ctx, S, side);
    ImGui::EndGroup();
    ImGui::SameLine(0, 32);
    DrawNormalisedChannels(ctx, in, ImVec2(ImGui::GetContentRegionAvail().x, col_h));
    Note(kNormalisedNote);
}

void DrawInputView(ViewContext& ctx) {
    const Tensor& in = *ctx.tensor({StageKind::Input});
    int C = static_cast<int>(in.shape[0]), S = static_cast<int>(in.shape[1]);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    // A grey image in a view not taller than wide: in columns (DrawInputColumns), or in a very wide view the
    // three pictures in one row, whichever draws the normalised channel larger.
    const bool grey_wide = C == 1 && avail.x >= 0.9f * avail.y;
    const float in_row = std::min(avail.y - 4.f * lh, avail.x * 0.27f);
    const float in_columns =
        std::min(avail.x * 0.64f - 32.f, avail.y - WrappedHeight(kNormalisedNote, avail.x) - 2 * lh);
    if (grey_wide && in_columns >= in_row) return DrawInputColumns(ctx, in, S, avail);
    const bool one_row = grey_wide;
    float top_h = one_row ? std::min(avail.y - 4.f * lh, avail.x * 0.27f) : std::min(avail.y * 0.4f, avail.x * 0.32f);
    DrawImageFile(ctx, ImVec2(avail.x * 0.4f, top_h - lh));
    ImGui::SameLine(0, 24);
    ImGui::BeginGroup();
    ImGui::Dummy(ImVec2(1, top_h * 0.4f));
    ImGui::PushFont(ctx.heading());
    ImGui::TextUnformatted("→");
    ImGui::PopFont();
    ImGui::EndGroup();
    ImGui::SameLine(0, 24);
    DrawModelSquare(ctx, S, top_h - lh);
    if (one_row) {
        ImGui::SameLine(0, 24);
        DrawNormalisedChannels(ctx, in, ImVec2(ImGui::GetContentRegionAvail().x, top_h + 3.f * lh));
    }
    Note(kNormalisedNote);
    if (!one_row) DrawNormalisedChannels(ctx, in, ImGui::GetContentRegionAvail());
}

}  // namespace vit::gui
