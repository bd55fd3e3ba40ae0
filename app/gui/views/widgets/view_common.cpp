// Shared pieces of the stage pictures: token matrices, the input picture with
// its patch grid and overlays, headings.
#include "views/widgets/view_common.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <imgui_internal.h>

#include "logic/describe/drawn_text.h"

namespace vit::gui {

int ViewContext::grid() const {
    return std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(patches())))));
}

int ViewContext::patches() const { return std::max(1, pipeline.patches()); }

TokenRowMap ViewContext::row_map(StageKind kind) const {
    return token_row_map(trace, kind, patches(), pipeline.layout);
}

MatrixView matrix_of(const Tensor& t, int slice) {
    MatrixView m;
    if (t.rank() == 3 && slice >= 0 && slice < t.shape[0]) {
        m.rows = static_cast<int>(t.shape[1]);
        m.cols = static_cast<int>(t.shape[2]);
        m.data = t.data.data() + static_cast<size_t>(slice) * m.rows * m.cols;
    } else {
        m.rows = static_cast<int>(t.rows());
        m.cols = static_cast<int>(t.cols());
        m.data = t.data.data();
    }
    return m;
}

CacheKey derived_key(const StageRef& stage, Purpose purpose, std::vector<double> params) {
    return stage_key(0, stage, -1, Colormap::Sequential, purpose, std::move(params));
}

CacheKey texture_key(const ViewContext& ctx, const StageRef& stage, int slice, Colormap cmap, Purpose purpose,
                     std::vector<double> params) {
    return stage_key(ctx.generation, stage, slice, cmap, purpose, std::move(params));
}

HeatmapSpec stage_spec(ViewContext& ctx, const StageRef& stage, const Tensor& t, int slice) {
    const MatrixView m = matrix_of(t, slice);
    const Colormap cmap = colormap_for(stage.kind, ctx.state.colormap);
    HeatmapSpec s;
    s.matrix = {texture_key(ctx, stage, slice, cmap), m.data, m.rows, m.cols, cmap};
    s.layout.numbers = ctx.state.show_numbers;
    s.transition = ctx.transition;
    return s;
}

HeatmapTokenRows token_rows(const ViewContext& ctx, StageKind kind) {
    HeatmapTokenRows rows;
    rows.map = ctx.row_map(kind);
    rows.selected = rows.map.row_of_token(ctx.state.token);
    rows.linked = rows.map.row_of_token(ctx.linked_hover);
    if (const TokenGlide g = ctx.glide(); g.moving() && g.to == ctx.state.token) rows.selected_at = g.row(rows.map);
    return rows;
}

// Only the stage on screen explains its cells (not a neighbour drawn beside it, nor its gradients,
// nor the difference of two passes, which no formula computes).
static bool explains_cells(const ViewContext& ctx, const StageRef& stage) {
    return has_provenance(stage.kind) && stage == ctx.stage() && !ctx.state.gradients && !ctx.shows_difference();
}

HeatmapTokenRows cell_rows(const ViewContext& ctx, const StageRef& stage, int slice) {
    HeatmapTokenRows rows = token_rows(ctx, stage.kind);
    rows.explains_cells = explains_cells(ctx, stage);
    if (const std::optional<CellRef>& c = ctx.state.cell; c && c->stage == stage && c->slice == slice)
        rows.cell_row = c->row, rows.cell_col = c->col;
    return rows;
}

void choose_cell(ViewContext& ctx, const StageRef& stage, int slice, const HeatmapResult& clicked) {
    if (clicked.clicked_row >= 0 && explains_cells(ctx, stage))
        ctx.state.cell = CellRef{stage, slice, clicked.clicked_row, clicked.clicked_col};
}

HeatmapLayout side_column(ImVec2 size, float cell_w, float cell_h, bool numbers) {
    HeatmapLayout layout;
    layout.size = size;
    layout.cell_w = cell_w;
    layout.cell_h = cell_h;
    layout.numbers = numbers;
    layout.colorbar = false;
    layout.row_ticks = false;
    return layout;
}

const float* image_order_data(ViewContext& ctx, const StageRef& stage, const Tensor& t) {
    const std::vector<int>& kept = ctx.trace.token_patches();
    const int N = ctx.patches();
    if (!tokens_reordered(kept, N)) return t.data.data();
    const int prefix = ctx.pipeline.layout.count();
    return ctx.derived
        .get(derived_key(stage, Purpose::ImageOrder), [&] { return square_in_image_order(t, kept, N, prefix); })
        .data();
}

// The columns of scores and attn are the same tokens as their rows.
static std::function<std::string(int)> key_token_names(const TokenRowMap& map) {
    return [map](int c) { return map.label(c); };
}

HeatmapResult DrawTokenHeatmap(ViewContext& ctx, const HeatmapSpec& spec) {
    HeatmapResult r = DrawHeatmap(ctx.cache, spec);
    const TokenRowMap& map = spec.token_rows.map;
    if (r.clicked_row >= 0) select_token(ctx.state, ctx.pipeline, map.token_of_row(r.clicked_row));
    if (r.hovered_row >= 0) ctx.state.hover_token = map.token_of_row(r.hovered_row);
    return r;
}

const char* column_axis_name(TokenColumns columns) {
    switch (columns) {
        case TokenColumns::Feature: return "feature";
        case TokenColumns::HeadFeature: return "feature of the head";
        case TokenColumns::HiddenFeature: return "hidden feature";
        case TokenColumns::KeyToken: return "key token";
        case TokenColumns::PatchPixel: return "pixel of the patch (c, y, x)";
    }
    return "";
}

// A token matrix; `shared`: the colour range it shares with the other terms of a sum (else its own).
static HeatmapResult draw_token_matrix(ViewContext& ctx, const StageRef& stage, int slice, ImVec2 size,
                                       const std::string& title, TokenColumns columns, int col_group, int accent_row,
                                       const std::string& accent_label, const Range* shared) {
    const Tensor* t = ctx.tensor(stage);
    if (!t) {
        ImGui::TextDisabled("(stage %s is not in this trace)", stage_id(stage).c_str());
        return {};
    }
    HeatmapSpec s = stage_spec(ctx, stage, *t, slice);
    if (shared) {
        s.matrix.range = *shared;
        // A stage can be a term of two sums (tokens: the encoder's input, then x in block 0's first
        // residual), each with its own range: the key holds the range, so neither reuses the other's picture.
        s.matrix.key = texture_key(ctx, stage, slice, s.matrix.cmap, Purpose::SumSharedRange, {shared->lo, shared->hi});
    }
    s.labels.title = title;
    s.token_rows = cell_rows(ctx, stage, slice);
    s.labels.row_axis = s.token_rows.map.patch_rows ? "patch" : "token";
    s.labels.col_axis = column_axis_name(columns);
    if (columns == TokenColumns::KeyToken) s.labels.col_name = key_token_names(s.token_rows.map);
    s.token_rows.accent = accent_row;
    s.token_rows.accent_label = accent_label;
    s.layout.size = size;
    s.layout.col_group = col_group;
    if (stage.kind == StageKind::Fc1 && ctx.model.config.activation == Activation::SwiGlu) {
        s.layout.col_group = ctx.model.config.mlp_dim;  // SwiGLU's fc1: the gates, then the values
        s.layout.col_groups = ColumnGroups::SwiGluHalves;
    }
    const HeatmapResult r = DrawTokenHeatmap(ctx, s);
    choose_cell(ctx, stage, slice, r);
    return r;
}

HeatmapResult DrawTokenMatrix(ViewContext& ctx, const StageRef& stage, int slice, ImVec2 size, const std::string& title,
                              TokenColumns columns, int col_group, int accent_row, const std::string& accent_label) {
    return draw_token_matrix(ctx, stage, slice, size, title, columns, col_group, accent_row, accent_label, nullptr);
}

Range SumTermsRange(ViewContext& ctx, const std::vector<StageRef>& terms) {
    const Colormap cmap = colormap_for(terms.back().kind, ctx.state.colormap);
    std::vector<std::pair<const float*, size_t>> data;
    for (const StageRef& stage : terms)
        if (const Tensor* t = ctx.tensor(stage)) data.push_back({t->data.data(), t->data.size()});
    return shared_range(cmap, data);
}

HeatmapResult DrawSumTerm(ViewContext& ctx, const StageRef& stage, Range shared, ImVec2 size,
                          const std::string& title) {
    return draw_token_matrix(ctx, stage, -1, size, title, TokenColumns::Feature, 0, -1, "", &shared);
}

HeatmapSpec plain_matrix_spec(ViewContext& ctx, const CacheKey& key, const float* data, int rows, int cols, ImVec2 size,
                              const std::string& title, const std::string& row_axis, const std::string& col_axis,
                              Colormap cmap) {
    HeatmapSpec s;
    s.matrix = {key, data, rows, cols, cmap};
    s.matrix.key.cmap = cmap;
    s.labels = {title, row_axis, col_axis};
    s.token_rows.enabled = false;
    s.layout.size = size;
    s.layout.numbers = ctx.state.show_numbers;
    s.transition = ctx.transition;
    return s;
}

HeatmapResult DrawPlainMatrix(ViewContext& ctx, const CacheKey& key, const float* data, int rows, int cols, ImVec2 size,
                              const std::string& title, const std::string& row_axis, const std::string& col_axis,
                              Colormap cmap, float row_h) {
    HeatmapSpec s = plain_matrix_spec(ctx, key, data, rows, cols, size, title, row_axis, col_axis, cmap);
    s.layout.cell_h = row_h;
    return DrawHeatmap(ctx.cache, s);
}

static HeatmapSpec grid_head_spec(ViewContext& ctx, const HeadGrid& grid, const StageRef& stage, const Tensor& t, int h,
                                  TokenColumns columns) {
    HeatmapSpec s = stage_spec(ctx, stage, t, h);
    s.labels.title = "head " + std::to_string(h);
    s.labels.col_axis = column_axis_name(columns);
    s.token_rows = cell_rows(ctx, stage, h);
    if (columns == TokenColumns::KeyToken) s.labels.col_name = key_token_names(s.token_rows.map);
    s.matrix.range = grid.shared;  // every head on one range, in normal mode as in presenter mode
    s.matrix.key = texture_key(ctx, stage, h, s.matrix.cmap, Purpose::AllHeadsRange);
    if (grid.compact) {
        s.layout.axes = false;
        s.layout.colorbar = false;
    }
    return s;
}

HeadGrid plan_head_grid(ViewContext& ctx, const StageRef& stage, const Tensor& t, ImVec2 avail, float extra_w,
                        TokenColumns columns) {
    HeadGrid grid;
    const int H = static_cast<int>(t.shape[0]);
    grid.compact = H > 4;  // in presenter mode too: four heads keep their axis names and ticks
    const Colormap cmap = colormap_for(stage.kind, ctx.state.colormap);
    const std::vector<float>& r =
        ctx.derived.get(derived_key(stage, Purpose::AllHeadsRange, {static_cast<double>(cmap)}), [&] {
            Range range = data_range(cmap, t.data.data(), t.data.size());
            return std::vector<float>{range.lo, range.hi};
        });
    grid.shared = {r[0], r[1]};  // the tiles with their own bars (not compact) show it on each bar
    if (grid.compact) grid.bar_w = ColorBarWidth(grid.shared) + 12.f;
    const ImVec2 area(avail.x - grid.bar_w, avail.y);
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    grid.columns =
        BestHeatmapColumns(H, area, grid_head_spec(ctx, grid, stage, t, 0, columns), ImVec2(extra_w + gap, 4.f));
    const int rows = (H + grid.columns - 1) / grid.columns;
    grid.tile = ImVec2(area.x / grid.columns - gap, area.y / rows - 4.f);
    return grid;
}

HeatmapResult DrawGridHead(ViewContext& ctx, const HeadGrid& grid, const StageRef& stage, const Tensor& t, int h,
                           ImVec2 size, TokenColumns columns) {
    HeatmapSpec s = grid_head_spec(ctx, grid, stage, t, h, columns);
    s.layout.size = size;
    const HeatmapResult r = DrawTokenHeatmap(ctx, s);
    choose_cell(ctx, stage, h, r);
    return r;
}

void DrawGridColorBar(ViewContext& ctx, const HeadGrid& grid, const StageRef& stage, ImVec2 top_left,
                      ImVec2 bottom_right) {
    if (!grid.compact) return;
    const float lh = ImGui::GetTextLineHeight();
    DrawColorBar(ctx.cache, colormap_for(stage.kind, ctx.state.colormap), grid.shared,
                 ImVec2(bottom_right.x + 12.f, top_left.y + lh + 2.f), 16.f,
                 std::max(bottom_right.y - top_left.y - lh - 2.f, 4 * lh));
}

int best_columns(int n, ImVec2 avail, float aspect, float extra_w, float extra_h) {
    int best = 1;
    float best_w = 0.f;
    for (int cols = 1; cols <= n; ++cols) {
        int rows = (n + cols - 1) / cols;
        float w = avail.x / cols - extra_w;
        float h = avail.y / rows - extra_h;
        float content_w = std::min(w, h / std::max(aspect, 1e-3f));
        if (content_w > best_w) best_w = content_w, best = cols;
    }
    return best;
}

void OperatorSign(ViewContext& ctx, const char* sign, float h) {
    ImGui::PushFont(ctx.heading());
    ImVec2 ts = ImGui::CalcTextSize(sign);
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddText(ImVec2(p.x + 4, p.y + h * 0.5f - ts.y * 0.5f), IM_COL32(255, 255, 255, 255),
                                        sign);
    ImGui::Dummy(ImVec2(ts.x + 8, h));
    ImGui::PopFont();
}

RgbaImage model_picture_pixels(ViewContext& ctx) {
    return input_picture_pixels(*ctx.tensor({StageKind::Input}), ctx.model.config.preprocess);
}

RgbaImage input_picture_pixels(const Tensor& in, const Preprocess& pre) {
    int C = static_cast<int>(in.shape[0]), H = static_cast<int>(in.shape[1]), W = static_cast<int>(in.shape[2]);
    std::vector<float> raw(in.data.size());
    size_t plane = static_cast<size_t>(H) * W;
    for (int c = 0; c < C; ++c) {
        float mean = c < (int)pre.mean.size() ? pre.mean[c] : 0.f;
        float sd = c < (int)pre.std.size() ? pre.std[c] : 1.f;
        for (size_t i = 0; i < plane; ++i) raw[c * plane + i] = in.data[c * plane + i] * sd + mean;
    }
    return render_picture(raw.data(), C, H, W, std::max(H, W) > 64);
}

float OperatorSignWidth(ViewContext& ctx, const char* sign) {
    ImGui::PushFont(ctx.heading());
    const float w = ImGui::CalcTextSize(sign).x + 8.f;
    ImGui::PopFont();
    return w + 2 * ImGui::GetStyle().ItemSpacing.x;
}

CachedTexture model_picture_texture(ViewContext& ctx) {
    const CacheKey key = texture_key(ctx, {StageKind::Input}, -1, Colormap::Sequential, Purpose::Picture);
    const auto content = [&] {
        const Tensor& in = *ctx.tensor({StageKind::Input});
        std::vector<double> shape_and_undo(in.shape.begin(), in.shape.end());  // and the preprocessing it undoes
        for (float v : ctx.model.config.preprocess.mean) shape_and_undo.push_back(v);
        for (float v : ctx.model.config.preprocess.std) shape_and_undo.push_back(v);
        return content_key(Purpose::Picture, in.data.data(), in.data.size(), std::move(shape_and_undo));
    };
    return ctx.cache.get_by_content(key, content, [&] { return model_picture_pixels(ctx); });
}

RgbaImage overlay_pixels(const float* overlay, int grid, Range r, Colormap cmap) {
    if (r.lo == r.hi) {
        auto [mn, mx] = std::minmax_element(overlay, overlay + grid * grid);
        r = {*mn, *mx > *mn ? *mx : *mn + 1e-6f};
    }
    return render_matrix(overlay, grid, grid, cmap, r);
}

void DrawOverlayValues(const float* overlay, int g, ImVec2 p0, float side) {
    const float cell = side / g;
    // One size for the map, not under kFittedTextMinScale of the font; a label wider than its
    // cell at that size is left out (an enlarged ViT-B map is not walled in "<0.1%").
    const float size = std::clamp(cell * 0.42f, kFittedTextMinScale * ImGui::GetFontSize(), ImGui::GetFontSize());
    if (cell < kNumberedCellPx) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* font = ImGui::GetFont();
    for (int p = 0; p < g * g; ++p) {
        const std::string t = percent(overlay[p]);
        const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.f, t.c_str());
        if (ts.x > cell * 0.86f) continue;
        ImVec2 c(p0.x + (p % g + 0.5f) * cell, p0.y + (p / g + 0.5f) * cell);
        dl->AddRectFilled(ImVec2(c.x - ts.x * 0.5f - 3, c.y - ts.y * 0.5f),
                          ImVec2(c.x + ts.x * 0.5f + 3, c.y + ts.y * 0.5f), IM_COL32(0, 0, 0, 150), 3.f);
        dl->AddText(font, size, ImVec2(c.x - ts.x * 0.5f, c.y - ts.y * 0.5f), IM_COL32(255, 255, 255, 255), t.c_str());
    }
}

// The g × g patch grid over a picture of `side` at p0: its lines (where a cell is 3 px or more), its numbers.
static void DrawPatchGrid(ImDrawList* dl, ImVec2 p0, float side, int g, bool lines, bool numbers) {
    const float cell = side / g;
    if (lines && cell >= 3.f) {
        const ImU32 line = IM_COL32(255, 255, 255, cell > 12 ? 160 : 90);
        for (int i = 0; i <= g; ++i) {
            dl->AddLine(ImVec2(p0.x + i * cell, p0.y), ImVec2(p0.x + i * cell, p0.y + side), line);
            dl->AddLine(ImVec2(p0.x, p0.y + i * cell), ImVec2(p0.x + side, p0.y + i * cell), line);
        }
    }
    if (numbers)
        for (int p = 0; p < g * g; ++p) PatchNumber(dl, ImVec2(p0.x + (p % g) * cell, p0.y + (p / g) * cell), cell, p);
}

PictureResult DrawModelPicture(ViewContext& ctx, const PictureSpec& spec) {
    PictureResult res;
    if (!ctx.tensor({StageKind::Input})) return res;
    const TokenLayout& layout = ctx.pipeline.layout;
    CachedTexture tex = model_picture_texture(ctx);
    ImGui::BeginGroup();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float side = std::min(spec.size.x, spec.size.y);
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImVec2 p1(p0.x + side, p0.y + side);
    res.p0 = p0;
    res.p1 = p1;
    dl->AddImage(reinterpret_cast<ImTextureID>(tex.id), p0, p1);
    int g = ctx.grid();
    float cell = side / g;
    CachedTexture ov;
    if (spec.overlay) {
        ov = ctx.cache.get(spec.overlay_key,
                           [&] { return overlay_pixels(spec.overlay, g, spec.overlay_range, spec.overlay_cmap); });
        const float alpha = overlay_opacity(cell, spec.overlay_alpha);  // a cell with its number: no picture under it
        int a = static_cast<int>(255 * alpha);
        dl->AddImage(reinterpret_cast<ImTextureID>(ov.id), p0, p1, ImVec2(0, 0), ImVec2(1, 1),
                     IM_COL32(255, 255, 255, a));
        if (ctx.transition) {  // a lesson step changing: the overlay before it fades out over this one
            Fade fade = ctx.transition->picture(spec.overlay_key, g, g);
            fade.alpha *= alpha;
            DrawFadingPicture(dl, ctx.cache, fade, p0, p1);
        }
        DrawOverlayValues(spec.overlay, g, p0, side);
    }
    DrawPatchGrid(dl, p0, side, g, spec.grid, spec.numbers);
    auto outline_at = [&](float x, float y, ImU32 col, float th) {  // column x, row y of the grid
        const ImVec2 a(p0.x + x * cell, p0.y + y * cell);
        dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), col, 0.f, 0, th);
    };
    auto outline = [&](int patch, ImU32 col, float th) {
        if (patch >= 0 && patch < g * g)
            outline_at(static_cast<float>(patch % g), static_cast<float>(patch / g), col, th);
    };
    ImGui::PushID(spec.overlay_key.id().c_str());
    ImGui::InvisibleButton("picture", ImVec2(side, side));
    ImGui::PopID();
    if (ImGui::IsItemHovered()) {
        ImVec2 m = ImGui::GetIO().MousePos;
        int x = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, g - 1);
        int y = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, g - 1);
        res.hovered_patch = y * g + x;
        ctx.state.hover_token = layout.token_of(res.hovered_patch);
        outline(res.hovered_patch, IM_COL32(255, 255, 255, 255), 2.f);
        ImGui::BeginTooltip();
        ImGui::Text("patch %d (token %d), row %d, column %d", res.hovered_patch, ctx.state.hover_token, y, x);
        if (spec.overlay)
            ImGui::Text("value = %.6g (%s)", spec.overlay[res.hovered_patch],
                        percent(spec.overlay[res.hovered_patch]).c_str());
        if (spec.clickable) ImGui::TextDisabled("click: select this token");
        ImGui::EndTooltip();
        if (spec.clickable && ImGui::IsItemClicked()) select_patch(ctx.state, ctx.pipeline, res.hovered_patch);
    }
    const int linked = ctx.linked_hover >= 0 ? layout.patch_of(ctx.linked_hover) : -1;
    outline(spec.hover_patch >= 0 ? spec.hover_patch : linked, IM_COL32(255, 255, 255, 255), 2.5f);
    const int selected = layout.patch_of(spec.selected_token >= 0 ? spec.selected_token : ctx.state.token);
    if (spec.show_selection && selected >= 0 && selected < g * g) {
        float x = static_cast<float>(selected % g), y = static_cast<float>(selected / g);
        if (const TokenGlide glide = ctx.glide(); glide.to == layout.token_of(selected))
            glide.patch(g, x, y, layout.count());  // on its way from the step before
        outline_at(x, y, IM_COL32(255, 200, 0, 255), 3.f);
    }
    if (spec.overlay && spec.overlay_bar) {
        ImVec2 b0(p0.x, p1.y + 6.f);
        DrawColorBarHorizontal(ctx.cache, spec.overlay_cmap, ov.range, b0, side, 12.f, percent);
        ImGui::Dummy(ImVec2(side, 12.f + ImGui::GetTextLineHeight() + 8.f));
    }
    ImGui::EndGroup();
    return res;
}

void PatchNumber(ImDrawList* dl, ImVec2 cell_min, float cell, int p) {
    const std::string t = std::to_string(p);
    ImFont* font = ImGui::GetFont();
    const float size = std::min(ImGui::GetFontSize() * 0.8f, cell * 0.34f);
    const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.f, t.c_str());
    if (size < 9.f || ts.x + 4.f > cell * 0.6f) return;  // it would hide the patch: leave it to the tooltip
    const ImVec2 at(cell_min.x + 2.f, cell_min.y + 2.f);
    dl->AddRectFilled(at, ImVec2(at.x + ts.x + 4.f, at.y + ts.y), IM_COL32(0, 0, 0, 160), 2.f);
    dl->AddText(font, size, ImVec2(at.x + 2.f, at.y), IM_COL32(255, 255, 255, 255), t.c_str());
}

void FittedText(ImDrawList* dl, ImVec2 at, float width, const std::string& text, ImU32 colour) {
    ImFont* font = ImGui::GetFont();
    float size = ImGui::GetFontSize();
    const float w = font->CalcTextSizeA(size, FLT_MAX, 0.f, text.c_str()).x;
    if (w > width) size *= std::max(kFittedTextMinScale, width / w);
    dl->PushClipRect(at, ImVec2(at.x + width, at.y + ImGui::GetFontSize() * 1.3f), true);
    dl->AddText(font, size, ImVec2(at.x, at.y + (ImGui::GetFontSize() - size) * 0.5f), colour, text.c_str());
    dl->PopClipRect();
}

void SameLineOrWrap(float width, float spacing) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + spacing + width <= right) ImGui::SameLine(0, spacing);
}

float ButtonWidth(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.f * ImGui::GetStyle().FramePadding.x;
}

float CheckboxWidth(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

float RadioRowWidth(const char* caption, std::initializer_list<const char*> options) {
    float width = ImGui::CalcTextSize(caption).x;
    for (const char* option : options) width += ImGui::GetStyle().ItemSpacing.x + CheckboxWidth(option);
    return width;
}

void TextAfter(const std::string& text, float spacing) {
    SameLineOrWrap(ImGui::CalcTextSize(text.c_str()).x, spacing);
    ImGui::TextWrapped("%s", text.c_str());
}

std::string word_wrapped(const std::string& text, float width) {
    return word_wrapped(text, width, [](const std::string& line) { return ImGui::CalcTextSize(line.c_str()).x; });
}

float WrappedHeight(const std::string& text, float width) {
    return ImGui::CalcTextSize(word_wrapped(text, width).c_str()).y;
}

// The width TextWrapped wraps at from the cursor: to a pushed wrap position (PushTextWrapPos), else to
// the window's right edge.
static float text_wrap_width() {
    const float pos = ImGui::GetCurrentWindow()->DC.TextWrapPos;
    return ImGui::CalcWrapWidthForPos(ImGui::GetCursorScreenPos(), pos < 0.f ? 0.f : pos);
}

void WrappedWords(const std::string& text, const ImVec4& colour) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(word_wrapped(text, text_wrap_width()).c_str());
    ImGui::PopStyleColor();
}

void Note(const std::string& text) { WrappedWords(text, ImGui::ColorConvertU32ToFloat4(IM_COL32(190, 190, 200, 255))); }

void KeysHint(const std::string& text) { WrappedWords(text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)); }

float FormulaAndNoteHeight(ViewContext& ctx, StageKind kind, const std::string& note, float width) {
    if (width <= 0.f) width = ImGui::GetContentRegionAvail().x;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    ImGui::PushFont(ctx.mono());
    float h = ImGui::CalcTextSize(stage_def(kind).formula, nullptr, false, width).y + spacing;
    ImGui::PopFont();
    return h + WrappedHeight(note, width) + spacing + 4.f;
}

void Formula(ViewContext& ctx, StageKind kind) {
    ImGui::PushFont(ctx.mono());
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 220, 140, 255));
    ImGui::TextWrapped("%s", stage_def(kind).formula);
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void DroppedTokenNote(const ViewContext& ctx, int token) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.f, 0.6f, 0.3f, 1.f));
    ImGui::TextWrapped(
        "%s was dropped (Ask the model): the encoder never sees it, so it looks nowhere and its maps "
        "are empty. Click a patch that was kept.",
        ctx.name_of_token(token).c_str());
    ImGui::PopStyleColor();
}

void StreamBlocksNote(const ViewContext& ctx) {
    if (ctx.trace.keep() != TraceKeep::Stream) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.f, 0.6f, 0.3f, 1.f));
    if (ctx.walked && ctx.walked->complete())
        ImGui::TextWrapped(
            "This pass kept each block's input, not every stage (as the app does when they would not fit "
            "in memory): its %d blocks were recomputed one at a time for this screen.",
            ctx.pipeline.depth);
    else if (ctx.walked)
        ImGui::TextWrapped(
            "This pass kept each block's input, not every stage (as the app does when they would not fit "
            "in memory): the blocks are recomputed one at a time for this screen, %d of %d so far.",
            ctx.walked->done, ctx.pipeline.depth);
    else
        ImGui::TextWrapped(
            "Only block %d is drawn: this pass kept each block's input, not every stage (as the app does "
            "when they would not fit in memory), and recomputes the block you choose (PgUp PgDn).",
            shown_block(ctx.state, ctx.pipeline));
    ImGui::PopStyleColor();
}

bool ViewContext::token_dropped(int token) const {
    return pipeline.layout.is_patch(token) && row_map(StageKind::Tokens).row_of_token(token) < 0;
}

std::string ViewContext::name_of_token(int token) const {
    return token_name(token, tokens_reordered(trace.token_patches(), patches()), pipeline.layout);
}

}  // namespace vit::gui
