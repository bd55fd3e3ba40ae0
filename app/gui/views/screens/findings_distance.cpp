// The ViT paper's Figure 7 for the loaded model (Dosovitskiy et al. 2021): the mean
// attention distance of every head against depth (core/findings/attention_distance.h),
// the first layer's projection filters and their principal components as pictures
// (core/findings/pca.h), and a way to the position-embedding similarity (the
// `tokens` stage's view).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "findings/attention_distance.h"
#include "findings/pca.h"
#include "views/screens/findings_common.h"

namespace vit::gui {

namespace {

const char* kFormula =
    "dist_h = mean_i Σ_j attn_h[i, j] · P·‖cell(i) − cell(j)‖   (i, j patches; CLS and registers left out, "
    "rows not renormalised)";
const char* kPytorch = "(attn[:, :, p:, p:] * dist).sum(-1).mean(-1)   # p = prefix tokens, dist in pixels";

// Head h's dot colour of `heads`: viridis from dark (head 0) to bright (the last head).
ImU32 head_colour(int h, int heads) {
    const Rgb c = colormap_rgb(Colormap::Sequential, heads > 1 ? 0.15f + 0.85f * h / (heads - 1) : 0.6f);
    return IM_COL32(c.r, c.g, c.b, 230);
}

// The dots' legend, one line `width` wide: "dot colour = head:" then each head's dot with its
// number (the first and last numbers only when they do not all fit).
void HeadLegend(int heads, float width) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float lh = ImGui::GetTextLineHeight(), r = std::max(4.f, lh * 0.3f);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const char* label = "dot colour = head:";
    dl->AddText(at, text, label);
    const float x0 = at.x + ImGui::CalcTextSize(label).x + 12.f;
    const float step = std::min(3.f * lh, (width - (x0 - at.x)) / std::max(1, heads));
    const bool every = step >= ImGui::CalcTextSize(std::to_string(heads - 1).c_str()).x + 2.f * r + 8.f;
    for (int h = 0; h < heads; ++h) {
        const float x = x0 + h * step;
        dl->AddCircleFilled(ImVec2(x + r, at.y + lh / 2), r, head_colour(h, heads));
        if (every || h == 0 || h == heads - 1)
            dl->AddText(ImVec2(x + 2.f * r + 3.f, at.y), text, std::to_string(h).c_str());
    }
    ImGui::Dummy(ImVec2(width, lh + 4.f));
}

// One dot per head at (block, distance), heads coloured apart (HeadLegend); axes in blocks and pixels.
void DistanceChart(const ConstMatMap& dist, float y_max, ImVec2 size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float lh = ImGui::GetTextLineHeight(), left = 4.f * lh, bottom = 2.4f * lh;
    const ImVec2 o(at.x + left, at.y + size.y - bottom), end(at.x + size.x - lh, at.y + 1.8f * lh);
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_Text), faint = IM_COL32(255, 255, 255, 40);
    const int depth = static_cast<int>(dist.rows());
    auto px = [&](float b) { return o.x + (b + 0.5f) / std::max(1, depth) * (end.x - o.x); };
    auto py = [&](float d) { return o.y - d / y_max * (o.y - end.y); };
    char buf[32];
    for (int t = 0; t <= 4; ++t) {
        const float d = y_max * t / 4;
        dl->AddLine(ImVec2(o.x, py(d)), ImVec2(end.x, py(d)), faint);
        std::snprintf(buf, sizeof buf, "%.0f", d);
        dl->AddText(ImVec2(o.x - ImGui::CalcTextSize(buf).x - 6.f, py(d) - lh / 2), axis, buf);
    }
    const int step = std::max(1, depth / 12);
    for (int b = 0; b < depth; b += step) {
        std::snprintf(buf, sizeof buf, "%d", b);
        dl->AddText(ImVec2(px(static_cast<float>(b)) - ImGui::CalcTextSize(buf).x / 2, o.y + 4.f), axis, buf);
    }
    dl->AddLine(o, ImVec2(end.x, o.y), axis);
    dl->AddLine(o, ImVec2(o.x, end.y), axis);
    const char* xname = "network depth (block)";
    dl->AddText(ImVec2((o.x + end.x - ImGui::CalcTextSize(xname).x) / 2, o.y + 1.2f * lh), axis, xname);
    dl->AddText(at, axis, "mean attention distance (pixels)");  // above the top tick's label
    const float r = std::max(3.f, lh * 0.28f);
    for (int b = 0; b < depth; ++b)
        for (int h = 0; h < dist.cols(); ++h)
            dl->AddCircleFilled(ImVec2(px(static_cast<float>(b)), py(dist(b, h))), r,
                                head_colour(h, static_cast<int>(dist.cols())));
    ImGui::Dummy(size);
}

// Rows of `pictures` (k × C·P·P, (c, y, x) order) each min-max scaled, laid side by side in one texture
// `cols` pictures wide with a 1-texel gap.
RgbaImage picture_atlas(const ConstMatRef& pictures, int channels, int P, int cols) {
    const int k = static_cast<int>(pictures.rows()), rows = (k + cols - 1) / cols;
    RgbaImage img;
    img.width = cols * (P + 1);
    img.height = rows * (P + 1);
    img.pixels.assign(static_cast<size_t>(img.width) * img.height * 4, 0);
    for (int i = 0; i < k; ++i) {
        const float lo = pictures.row(i).minCoeff(), hi = pictures.row(i).maxCoeff();
        for (int y = 0; y < P; ++y)
            for (int x = 0; x < P; ++x) {
                uint8_t* px = &img.pixels[4 * ((static_cast<size_t>(i / cols) * (P + 1) + y) * img.width +
                                               (i % cols) * (P + 1) + x)];
                for (int c = 0; c < 3; ++c) {
                    const float v = pictures(i, (std::min(c, channels - 1) * P + y) * P + x);
                    px[c] = static_cast<uint8_t>(std::lround(255.f * (hi > lo ? (v - lo) / (hi - lo) : 0.5f)));
                }
                px[3] = 255;
            }
    }
    return img;
}

// The patch filters' top 28 components (k × C·P·P) after their joint share of the variance,
// [share, components…], computed once per trace.
const std::vector<float>& filter_pcs(ViewContext& ctx) {
    return ctx.derived.get(derived_key({StageKind::PatchEmbed}, Purpose::FilterComponents), [&] {
        const Pca p = filter_components(ctx.model, 28);
        std::vector<float> out(1, std::accumulate(p.share.begin(), p.share.end(), 0.f));
        out.insert(out.end(), p.components.data(), p.components.data() + p.components.size());
        return out;
    });
}

void FilterGrid(ViewContext& ctx, const std::string& title, const std::string& subtitle, const ConstMatRef& pictures,
                Purpose what, ImVec2 box) {
    ImGui::BeginGroup();
    FindingsTitle(ctx, title, subtitle, box.x);
    const ModelConfig& c = ctx.model.config;
    const int k = static_cast<int>(pictures.rows());
    const int cols =
        std::max(1, best_columns(k, ImVec2(box.x, box.y - 3.f * ImGui::GetTextLineHeight()), 1.f, 0.f, 0.f));
    const CacheKey key = texture_key(ctx, {StageKind::PatchEmbed}, -1, Colormap::Sequential, what);
    const CachedTexture tex =
        ctx.cache.get(key, [&] { return picture_atlas(pictures, c.channels, c.patch_size, cols); });
    const float scale =
        std::min(box.x / std::max(1, tex.width), (box.y - 3.f * ImGui::GetTextLineHeight()) / std::max(1, tex.height));
    ImGui::Image(reinterpret_cast<ImTextureID>(tex.id), ImVec2(tex.width * scale, tex.height * scale));
    ImGui::EndGroup();
}

// The distances of a Stream trace's blocks walked so far: done × H, column by column as a Mat's.
std::vector<float> walked_distance(const WalkedBlocks& walked) {
    const size_t done = static_cast<size_t>(walked.done), heads = done ? walked.distance[0].size() : 0;
    std::vector<float> flat(done * heads);
    for (size_t b = 0; b < done; ++b)
        for (size_t h = 0; h < heads && h < walked.distance[b].size(); ++h) flat[h * done + b] = walked.distance[b][h];
    return flat;
}

}  // namespace

void DrawAttentionDistanceScreen(ViewContext& ctx) {
    FindingsHeading(ctx, "How far does each head look? (ViT paper, Figure 7)");
    if (ctx.pipeline.depth <= 0)
        return (void)ImGui::TextDisabled("This model has no encoder block: no attention to measure.");
    StreamBlocksNote(ctx);
    const PatchTokens tokens = findings_tokens(ctx);
    const int depth = ctx.pipeline.depth;
    const std::vector<float>& flat =
        ctx.walked ? walked_distance(*ctx.walked)
                   : ctx.derived.get(derived_key({StageKind::Attn, depth - 1}, Purpose::AttentionDistance), [&] {
                         const Mat d = attention_distance_by_depth(ctx.trace, tokens, depth);
                         return std::vector<float>(d.data(), d.data() + d.size());
                     });
    const int rows = ctx.walked ? std::max(1, ctx.walked->done) : depth;
    const ConstMatMap dist(flat.data(), rows, static_cast<Eigen::Index>(flat.size() / rows));
    const int filters = std::min<int>(32, static_cast<int>(ctx.model.patch_w.rows()));
    const std::vector<float>& packed = filter_pcs(ctx);
    const int pd = ctx.model.config.patch_dim();
    const ConstMatMap pcs(packed.data() + 1, static_cast<Eigen::Index>((packed.size() - 1) / pd), pd);
    const float formula_h = FindingsFormulaHeight(ctx, kFormula, kPytorch) + 2.f * ImGui::GetFrameHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float chart_w = avail.x * 0.55f, h = avail.y - formula_h;
    const float side_max = tokens.grid * tokens.patch_px * std::sqrt(2.f);
    ImGui::BeginGroup();
    FindingsTitle(ctx, "mean attention distance, one dot per head",
                  "high dots look far; trained ViTs: both early, far late", chart_w);
    DistanceChart(dist, std::max(1.f, std::ceil(std::max(dist.size() ? dist.maxCoeff() : 0.f, side_max / 2) / 8) * 8),
                  ImVec2(chart_w, h - 4.5f * ImGui::GetTextLineHeight()));
    HeadLegend(static_cast<int>(dist.cols()), chart_w);
    ImGui::EndGroup();
    ImGui::SameLine(0, 20.f);
    ImGui::BeginGroup();
    const float right_w = avail.x - chart_w - 20.f;
    FilterGrid(ctx, "patch filters", "first " + std::to_string(filters) + " of the projection's rows, each own range",
               ctx.model.patch_w.topRows(filters), Purpose::PatchFilters, ImVec2(right_w, h * 0.5f - 4.f));
    char share[64];
    std::snprintf(share, sizeof share, "top %d components: %.0f%% of the variance", static_cast<int>(pcs.rows()),
                  100.f * packed[0]);
    FilterGrid(ctx, "their principal components", share, pcs, Purpose::FilterComponents,
               ImVec2(right_w, h * 0.5f - 4.f));
    ImGui::EndGroup();
    if (ImGui::Button("Position-embedding similarity  →")) {
        go_to_stage(ctx.state, ctx.pipeline, ctx.pipeline.index_of(StageRef{StageKind::Tokens}));
        ctx.state.screen = Screen::Stage;
    }
    ImGui::SameLine();
    Note("(the paper's Figure 7, centre: the `tokens` stage's map of cosine similarities)");
    FindingsFormula(ctx, kFormula, kPytorch);
}

}  // namespace vit::gui
