// Stages `cls` and `tokens`: the learned prefix tokens (CLS, DIST, registers)
// become the rows before the patches; then the positional embedding (tokens − cls, interpolated if the grid changed) is
// added, and a grid of small maps shows, for every position, how similar its
// embedding is to every other position's (cosine similarity).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "logic/describe/stage_info.h"
#include "views/widgets/views.h"

namespace vit::gui {

// The learned prefix rows in timm's order (CLS, DIST, REG0…), P × D.
static std::vector<float> learned_prefix(const Model& m) {
    std::vector<float> rows(m.cls_token.data(), m.cls_token.data() + m.cls_token.size());
    rows.insert(rows.end(), m.dist_token.data(), m.dist_token.data() + m.dist_token.size());
    for (int r = 0; r < m.reg_token.rows(); ++r)
        for (int d = 0; d < m.reg_token.cols(); ++d) rows.push_back(m.reg_token(r, d));
    return rows;
}

static std::string joined(const std::vector<std::string>& names) {
    std::string all;
    for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
    return all;
}

// The learned prefix rows stand above the cls matrix in its columns (they become its first rows),
// the matrix below them takes the whole width, the note and the formula under it.
void DrawClsView(ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    const TokenLayout& layout = ctx.pipeline.layout;
    const int P = layout.count();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const std::string note = prefix_token_note(cfg);
    const float text_h = FormulaAndNoteHeight(ctx, StageKind::Cls, note) + lh;
    const Tensor& t = *ctx.tensor({StageKind::Cls});
    // The prefix strip: its title and P rows about as tall as the matrix's square cells, at least a line.
    const float cell = std::min(avail.x / (cfg.embed_dim + 4.f), (avail.y - text_h) / (t.rows() + P + 5.f));
    const float prefix_row = std::max(cell, 0.8f * lh), prefix_h = P > 0 ? lh + P * prefix_row + 8.f : 0.f;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(ImVec2(top.x, top.y + prefix_h));
    const std::string names = joined(layout.prefix);
    const std::string on_top = P > 0 ? names + " on top of the " : "no class token: only the ";
    const HeatmapResult m = DrawTokenMatrix(
        ctx, {StageKind::Cls}, -1, ImVec2(avail.x, avail.y - prefix_h - text_h),
        "cls " + shape_string(t.shape) + ": " + on_top + std::to_string(ctx.patches()) + " patches",
        TokenColumns::Feature, 0, P > 0 ? 0 : -1, P == 1 ? "new row 0: CLS" : "new rows 0–" + std::to_string(P - 1));
    const ImVec2 below = ImGui::GetCursorScreenPos();
    if (P > 0) {
        const std::vector<float>& prefix = ctx.derived.get(derived_key({StageKind::Cls}, Purpose::LearnedPrefix),
                                                           [&] { return learned_prefix(ctx.model); });
        ImGui::SetCursorScreenPos(ImVec2(m.cells_min.x, top.y));
        HeatmapSpec s = plain_matrix_spec(
            ctx, texture_key(ctx, {StageKind::Cls}, -1, Colormap::Diverging, Purpose::LearnedPrefix), prefix.data(), P,
            cfg.embed_dim, ImVec2(avail.x - (m.cells_min.x - top.x), prefix_h),
            names + " (" + std::to_string(P) + ", " + std::to_string(cfg.embed_dim) + "), learned: goes on top ↓", "",
            "");
        s.layout.axes = false;
        s.layout.cell_w = m.cell_w;
        s.layout.cell_h = prefix_row;
        DrawHeatmap(ctx.cache, s);
        ImGui::SetCursorScreenPos(below);
    }
    Formula(ctx, StageKind::Cls);
    Note(note);
}

// Cosine similarity of every position's embedding with every other (N × N).
static std::vector<float> position_cosines(const ViewContext& ctx, const std::vector<float>& pos, int D) {
    const int N = ctx.patches(), P = ctx.pipeline.layout.count();
    std::vector<float> norms(N), out(static_cast<size_t>(N) * N, 0.f);
    for (int i = 0; i < N; ++i) {
        double s = 0;
        for (int d = 0; d < D; ++d) s += double(pos[(P + i) * D + d]) * pos[(P + i) * D + d];
        norms[i] = static_cast<float>(std::sqrt(s));
    }
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            if (norms[i] == 0.f || norms[j] == 0.f) continue;
            double s = 0;
            for (int d = 0; d < D; ++d) s += double(pos[(P + i) * D + d]) * pos[(P + j) * D + d];
            out[static_cast<size_t>(i) * N + j] = static_cast<float>(s / (norms[i] * norms[j]));
        }
    return out;
}

static void DrawPositionSimilarity(ViewContext& ctx, const std::vector<float>& cos, float side) {
    int g = ctx.grid(), N = ctx.patches();
    if (g * g != N) return;
    int W = g * (g + 1) - 1;  // g maps of g×g with 1-texel gaps
    CacheKey key = texture_key(ctx, {StageKind::Tokens}, -1, Colormap::Diverging, Purpose::PositionCosineMosaic);
    CachedTexture tex = ctx.cache.get(key, [&] {
        RgbaImage img;
        img.width = img.height = W;
        img.range = {-1.f, 1.f};
        img.pixels.assign(static_cast<size_t>(W) * W * 4, 40);
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) {
                int x = (i % g) * (g + 1) + j % g, y = (i / g) * (g + 1) + j / g;
                Rgb c = colormap_rgb(Colormap::Diverging, normalise(cos[static_cast<size_t>(i) * N + j], img.range));
                uint8_t* px = &img.pixels[(static_cast<size_t>(y) * W + x) * 4];
                px[0] = c.r, px[1] = c.g, px[2] = c.b;
            }
        for (size_t k = 3; k < img.pixels.size(); k += 4) img.pixels[k] = 255;
        return img;
    });
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddImage(reinterpret_cast<ImTextureID>(tex.id), p0, ImVec2(p0.x + side, p0.y + side));
    float texel = side / W;
    auto tile_rect = [&](int i, ImU32 col, float th) {
        ImVec2 a(p0.x + (i % g) * (g + 1) * texel, p0.y + (i / g) * (g + 1) * texel);
        dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + g * texel + 1, a.y + g * texel + 1), col, 0, 0, th);
    };
    ImGui::InvisibleButton("pos_cos", ImVec2(side, side));
    if (ImGui::IsItemHovered()) {
        ImVec2 m = ImGui::GetIO().MousePos;
        int tx = std::clamp(int((m.x - p0.x) / texel), 0, W - 1), ty = std::clamp(int((m.y - p0.y) / texel), 0, W - 1);
        int i = (ty / (g + 1)) * g + tx / (g + 1), jx = tx % (g + 1), jy = ty % (g + 1);
        if (jx < g && jy < g) {
            int j = jy * g + jx;
            ImGui::SetTooltip("map of position %d (row %d, col %d)\ncell = position %d\ncos similarity = %.4f", i,
                              i / g, i % g, j, cos[static_cast<size_t>(i) * N + j]);
            if (ImGui::IsItemClicked()) select_patch(ctx.state, ctx.pipeline, i);
            ctx.state.hover_token = ctx.pipeline.layout.token_of(i);
        }
    }
    if (const int sel = ctx.pipeline.layout.patch_of(ctx.state.token); sel >= 0)
        tile_rect(sel, IM_COL32(255, 200, 0, 255), 3.f);
    ImGui::SameLine();
    DrawColorBar(ctx.cache, Colormap::Diverging, {-1.f, 1.f}, ImGui::GetCursorScreenPos(), 16.f, side);
    ImGui::Dummy(ImVec2(ColorBarWidth({-1.f, 1.f}), side));
}

static const char* kHeading =
    "How alike are the positions? One small map per patch position: its cosine similarity with every other position";

// The side of the position map in a column of `column` size: room is left for the heading, and the note and
// the formula under it, down to a map a third of the column tall (the column then scrolls); a tiny grid's
// map grows to 64 px a texel at most.
static float PositionMapSide(ViewContext& ctx, const std::string& note, ImVec2 column) {
    const float text_h = ImGui::CalcTextSize(kHeading, nullptr, false, column.x).y +
                         FormulaAndNoteHeight(ctx, StageKind::Tokens, note, column.x - 8.f) +
                         2.f * ImGui::GetStyle().ItemSpacing.y;  // under the heading and under the map
    const int g = ctx.grid();
    const float widest = std::min(column.x - ColorBarWidth({-1.f, 1.f}) - 20.f, float(g * (g + 1)) * 64.f);
    const float side = std::min({widest, column.y * 0.55f, column.y - text_h});
    return std::max(side, std::min(widest, column.y / 3.f));
}

// What the pass added to each token: row r of tokens less row from_cls[r] of cls (a derived picture).
static const std::vector<float>& PositionEmbedding(ViewContext& ctx, const Tensor& cls, const Tensor& tok,
                                                   const std::vector<int>& from_cls) {
    return ctx.derived.get(derived_key({StageKind::Tokens}, Purpose::PositionEmbedding), [&] {
        const int64_t T = tok.rows(), D = tok.shape[1];
        std::vector<float> out(tok.data.size());
        for (int64_t r = 0; r < T; ++r)
            for (int64_t d = 0; d < D; ++d) out[r * D + d] = tok.data[r * D + d] - cls.data[from_cls[r] * D + d];
        return out;
    });
}

void DrawTokensView(ViewContext& ctx) {
    const auto& cfg = ctx.model.config;
    const Tensor& cls = *ctx.tensor({StageKind::Cls});
    const Tensor& tok = *ctx.tensor({StageKind::Tokens});
    int D = cfg.embed_dim, T = static_cast<int>(tok.rows());
    // Dropped tokens (Ask panel): row r of tokens is row from_cls[r] of cls.
    const bool dropped = tok.rows() != cls.rows();
    const int P = ctx.pipeline.layout.count(), N = static_cast<int>(cls.rows()) - P;
    const std::vector<int> from_cls = kept_token_rows(dropped && ctx.ask ? ctx.ask->asked : Interventions{}, N, P);
    if (static_cast<int>(from_cls.size()) != T) {
        ImGui::TextDisabled("tokens %s: rows that do not match cls %s", shape_string(tok.shape).c_str(),
                            shape_string(cls.shape).c_str());
        return;
    }
    const std::vector<float>& pos = PositionEmbedding(ctx, cls, tok, from_cls);
    float max_abs = 0.f;
    for (float v : pos) max_abs = std::max(max_abs, std::fabs(v));

    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float left_w = avail.x * 0.62f;
    float row_h = (avail.y - 2 * lh) / 2.f;
    float w = (left_w - 50.f) / 2.f - 8.f;
    const float top_y = ImGui::GetCursorScreenPos().y;
    ImGui::BeginGroup();
    const Colormap cmap = colormap_for(StageKind::Tokens, ctx.state.colormap);
    // The three terms of the sum on one range (colormap.h): a small position embedding looks small.
    const Range shared = shared_range(
        cmap, {{cls.data.data(), cls.data.size()}, {pos.data(), pos.size()}, {tok.data.data(), tok.data.size()}});
    DrawSumTerm(ctx, {StageKind::Cls}, shared, ImVec2(w, row_h), "cls " + shape_string(cls.shape));
    ImGui::SameLine();
    OperatorSign(ctx, "+", row_h * 0.6f);
    ImGui::SameLine();
    HeatmapSpec s;
    // tokens − cls, a Tokens picture apart from the stage's own (PositionEmbedding), on the sum's range.
    s.matrix = {texture_key(ctx, {StageKind::Tokens}, -1, cmap, Purpose::PositionEmbedding, {shared.lo, shared.hi}),
                pos.data(),
                T,
                D,
                cmap,
                shared};
    s.labels.title = "pos_embed " + shape_string(tok.shape);
    s.token_rows = token_rows(ctx, StageKind::Tokens);
    s.layout.size = ImVec2(w, row_h);
    s.layout.numbers = ctx.state.show_numbers;
    DrawTokenHeatmap(ctx, s);
    // The sum takes the height the terms left unused (a narrow matrix's square cells fill less than their row).
    const float sum_h = std::max(row_h, top_y + avail.y - 2 * lh - ImGui::GetCursorScreenPos().y);
    OperatorSign(ctx, "=", sum_h * 0.6f);
    ImGui::SameLine();
    DrawSumTerm(ctx, {StageKind::Tokens}, shared, ImVec2(left_w - 60.f, sum_h),
                "tokens " + shape_string(tok.shape) + ": the encoder's input");
    ImGui::EndGroup();
    ImGui::SameLine(0, 20);

    ImGui::BeginChild("position maps",
                      ImVec2(ImGui::GetContentRegionAvail().x, avail.y));  // scrolls where its text runs long
    static const char* kTrained =
        "In a trained ViT each map lights up around its own position: nearby positions get similar vectors, and "
        "rows and columns show up.";
    const std::string zeros =
        max_abs == 0.f ? zero_positions_note(ctx.ask && ctx.ask->asked.no_positions && !ctx.shows_original()) : "";
    // All-zero positions: the note says why the maps are blank instead of what a trained ViT shows.
    const std::string note = zeros.empty() ? kTrained : zeros;
    const float side = PositionMapSide(ctx, note, ImVec2(ImGui::GetContentRegionAvail().x, avail.y));
    ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x - 8.f);
    if (dropped) {
        Note("Tokens were dropped (Ask panel): " + std::to_string(cls.rows() - T) +
             " rows are gone after the positions were added, so the map of every position is not drawn.");
    } else {
        const std::vector<float>& cos = ctx.derived.get(derived_key({StageKind::Tokens}, Purpose::PositionCosines),
                                                        [&] { return position_cosines(ctx, pos, D); });
        ImGui::TextWrapped("%s", kHeading);
        DrawPositionSimilarity(ctx, cos, side);
    }
    Note(note);
    Formula(ctx, StageKind::Tokens);
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

}  // namespace vit::gui
