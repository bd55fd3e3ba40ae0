// The heatmap widget: texture from the cache, ticks, colour bar, hover, cell numbers.
#include "views/widgets/heatmap.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace vit::gui {

namespace {

const ImU32 kSelected = IM_COL32(255, 200, 0, 255);
const ImU32 kHover = IM_COL32(255, 255, 255, 230);
const ImU32 kAxis = IM_COL32(200, 200, 210, 255);
const ImU32 kTick = IM_COL32(170, 170, 180, 255);

// 1, 2, 5, 10, 20, 50 … at least `min_step`.
int nice_step(float min_step) {
    int step = 1;
    while (step < min_step) {
        if (step * 2 >= min_step) return step * 2;
        if (step * 5 >= min_step) return step * 5;
        step *= 10;
    }
    return step;
}

ImVec2 text_size(const std::string& s) { return ImGui::CalcTextSize(s.c_str()); }

}  // namespace

float ColorBarWidth(Range r) {
    float label =
        std::max(ImGui::CalcTextSize(short_number(r.lo).c_str()).x, ImGui::CalcTextSize(short_number(r.hi).c_str()).x);
    return 16.f + 8.f + label + 4.f;
}

static CachedTexture colorbar_texture(TextureCache& cache, Colormap cmap) {
    CacheKey key;
    key.cmap = cmap;
    key.purpose = Purpose::ColorBar;
    return cache.get(key, [cmap] { return render_colorbar(cmap); });
}

void DrawColorBar(TextureCache& cache, Colormap cmap, Range range, ImVec2 p0, float width, float height,
                  const std::function<std::string(float)>& format) {
    CachedTexture bar = colorbar_texture(cache, cmap);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p1(p0.x + width, p0.y + height);
    ImTextureID id = reinterpret_cast<ImTextureID>(bar.id);
    // Top of the bar is the high end: texture u = 1 at the top edge.
    dl->AddImageQuad(id, p0, ImVec2(p1.x, p0.y), p1, ImVec2(p0.x, p1.y), ImVec2(1, 0.5f), ImVec2(1, 0.5f),
                     ImVec2(0, 0.5f), ImVec2(0, 0.5f));
    dl->AddRect(p0, p1, kAxis);
    float lh = ImGui::GetTextLineHeight();
    auto label = [&](float v, float y) {
        std::string s = format ? format(v) : short_number(v);
        dl->AddLine(ImVec2(p1.x, y), ImVec2(p1.x + 4, y), kAxis);
        dl->AddText(ImVec2(p1.x + 6, std::clamp(y - lh * 0.5f, p0.y - lh * 0.5f, p1.y - lh * 0.5f)), kAxis, s.c_str());
    };
    label(range.hi, p0.y);
    label(range.lo, p1.y);
    if (cmap == Colormap::Diverging && height > 3 * lh) label(0.f, (p0.y + p1.y) * 0.5f);
}

void DrawColorBarHorizontal(TextureCache& cache, Colormap cmap, Range range, ImVec2 p0, float width, float height,
                            const std::function<std::string(float)>& format) {
    CachedTexture bar = colorbar_texture(cache, cmap);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p1(p0.x + width, p0.y + height);
    dl->AddImage(reinterpret_cast<ImTextureID>(bar.id), p0, p1, ImVec2(0, 0.5f), ImVec2(1, 0.5f));
    dl->AddRect(p0, p1, kAxis);
    auto label = [&](float v, float x, float align) {
        std::string s = format ? format(v) : short_number(v);
        float w = ImGui::CalcTextSize(s.c_str()).x;
        dl->AddLine(ImVec2(x, p1.y), ImVec2(x, p1.y + 4), kAxis);
        dl->AddText(ImVec2(x - w * align, p1.y + 4), kAxis, s.c_str());
    };
    std::string lo = format ? format(range.lo) : short_number(range.lo),
                hi = format ? format(range.hi) : short_number(range.hi);
    bool both = ImGui::CalcTextSize(lo.c_str()).x + ImGui::CalcTextSize(hi.c_str()).x + 10.f < width;
    if (!both) {  // too narrow for a label at each end: one label under the middle names both ends
        const std::string ends = range.lo == -range.hi ? "±" + hi : lo + " … " + hi;
        const float w = ImGui::CalcTextSize(ends.c_str()).x;
        dl->AddText(ImVec2((p0.x + p1.x - w) * 0.5f, p1.y + 4), kAxis, ends.c_str());
        return;
    }
    label(range.lo, p0.x, 0.f);
    label(range.hi, p1.x, 1.f);
    // The middle's 0 when it clears both ends' labels.
    const float half = std::max(ImGui::CalcTextSize(lo.c_str()).x, ImGui::CalcTextSize(hi.c_str()).x);
    const std::string zero = format ? format(0.f) : short_number(0.f);
    if (cmap == Colormap::Diverging && 2.f * half + ImGui::CalcTextSize(zero.c_str()).x + 16.f < width)
        label(0.f, (p0.x + p1.x) * 0.5f, 0.5f);
}

namespace {

// Where one heatmap's parts go on screen.
struct Layout {
    ImVec2 origin;               // top-left corner of the widget
    ImVec2 box;                  // the whole widget
    float title_h = 0.f;         // the title line (0 without a title)
    float col_axis_x = -1.f;     // >= 0: the column axis's name shares the title line, from this x
    float left = 0.f;            // room for the row ticks and the selected-row marker
    bool row_axis_line = false;  // the row axis's name on a line of its own above the column ticks
    ImVec2 p0, p1;               // the cells' corners
    float cw = 0.f, ch = 0.f;
    bool bar_below = false;
    float bar_w = 0.f, bar_h = 0.f;  // room for the colour bar at the right / below
};

const float kMarker = 16.f;  // room for the selected-row marker

std::string row_tick(const HeatmapSpec& s, int r) {
    if (!s.token_rows.enabled) return std::to_string(r);
    return s.token_rows.map.label(r);  // patch matrices: the patch
}
std::string col_tick(const HeatmapSpec& s, int c) {
    return s.labels.col_name ? s.labels.col_name(c) : std::to_string(c);
}
std::string row_axis(const HeatmapSpec& s) { return s.labels.row_axis.empty() ? "" : s.labels.row_axis + " ↓"; }
std::string col_axis(const HeatmapSpec& s) { return s.labels.col_axis.empty() ? "" : s.labels.col_axis + " →"; }

// A matrix small enough to write a number in every cell.
bool numbers_fit(const HeatmapMatrix& m) { return m.rows <= 16 && m.cols <= 16; }

// Cell size: square (or up to wide_cells:1) for small or square (T×T) matrices, else at most 6:1 either
// way. A matrix that holds its numbers grows into its box up to 6 font sizes a cell (the numbers grow with
// it), others to 3.1.
void fit_cells(const HeatmapSpec& s, float area_w, float area_h, float& cw, float& ch) {
    cw = area_w / s.matrix.cols;
    ch = area_h / s.matrix.rows;
    const float max_cell =
        s.layout.max_cell > 0.f ? s.layout.max_cell : (numbers_fit(s.matrix) ? 6.f : 3.1f) * ImGui::GetFontSize();
    if ((s.matrix.rows <= 32 && s.matrix.cols <= 32) || s.matrix.rows == s.matrix.cols) {
        ch = std::min({cw, ch, max_cell});
        cw = std::min({cw, ch * s.layout.wide_cells, max_cell});
    } else {
        cw = std::min(cw, max_cell);
        ch = std::min(ch, max_cell);
        ch = std::min(ch, 6.f * cw);
        cw = std::min(cw, 6.f * ch);
    }
    if (s.layout.cell_w > 0) cw = s.layout.cell_w;
    if (s.layout.cell_h > 0) ch = s.layout.cell_h;
}

// The colour bar where the cells come out larger; where that makes no difference, below in a box much
// taller than wide, else at the right. Cells start `top` below the origin; returns their area.
static float place_cells(const HeatmapSpec& s, Range range, float top, Layout& L) {
    const float lh = ImGui::GetTextLineHeight();
    auto place_bar = [&](bool below) {
        L.bar_below = s.layout.colorbar && below;
        L.bar_w = s.layout.colorbar && !below ? ColorBarWidth(range) + 12.f : 0.f;
        L.bar_h = L.bar_below ? 14.f + lh + 12.f : 0.f;
        const float label_overhang = L.bar_w > 0.f ? lh * 0.5f : 0.f;  // the bar's lowest label hangs below the cells
        fit_cells(s, std::max(10.f, L.box.x - L.left - L.bar_w - 4.f),
                  std::max(10.f, L.box.y - top - L.bar_h - label_overhang - 4.f), L.cw, L.ch);
        return L.cw * L.ch;
    };
    const bool tall = L.box.y > L.box.x * 1.15f;
    const float right = place_bar(false), below = place_bar(true);
    if (std::abs(below - right) <= 0.01f * std::max(below, right)) return place_bar(tall);
    return place_bar(below > right);
}

// Title, axis lines, cells and colour bar in the box. The row axis's name stands left of the column
// ticks, over the row ticks' margin; where that margin would narrow the cells (a long name, a matrix
// held back by the box's width) it takes a line of its own above the ticks instead.
Layout layout_heatmap(const HeatmapSpec& s, Range range) {
    Layout L;
    const float lh = ImGui::GetTextLineHeight();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 size = s.layout.size;
    L.box = ImVec2(std::max(size.x > 0 ? size.x : avail.x, 60.f), std::max(size.y > 0 ? size.y : avail.y, 4 * lh));
    L.origin = ImGui::GetCursorScreenPos();
    L.title_h = s.labels.title.empty() ? 0.f : lh + 4.f;
    float ticks_left = s.token_rows.selected >= 0 ? 6.f : 0.f, axis_left = 0.f;
    if (s.layout.row_ticks && s.layout.axes) {
        ticks_left = std::max(text_size(row_tick(s, s.matrix.rows - 1)).x, text_size(row_tick(s, 0)).x) + kMarker + 4.f;
        axis_left = text_size(row_axis(s)).x + 10.f;
    }
    // Lines above the cells: the title, the column axis's name beside it when it fits there (else a
    // line of its own), the ticks; the row axis's name with the ticks or on a line of its own.
    auto place = [&](bool axis_line) {
        L.left = axis_line ? ticks_left : std::max(ticks_left, axis_left);
        L.row_axis_line = axis_line;
        L.col_axis_x = -1.f;
        if (L.title_h > 0.f && s.layout.axes) {
            const float x = std::max(L.left, text_size(s.labels.title).x + ImGui::GetFontSize());
            if (x + text_size(col_axis(s)).x <= L.box.x) L.col_axis_x = x;
        }
        const float lines = (L.col_axis_x >= 0.f ? 1.f : 2.f) + (axis_line ? 1.f : 0.f);
        const float top = L.title_h + (s.layout.axes ? lines * lh + 4.f : 2.f);
        const float area = place_cells(s, range, top, L);
        L.p0 = ImVec2(L.origin.x + L.left, L.origin.y + top);
        L.p1 = ImVec2(L.p0.x + L.cw * s.matrix.cols, L.p0.y + L.ch * s.matrix.rows);
        return area;
    };
    const float beside_ticks = place(false);
    const Layout beside = L;
    if (s.layout.row_ticks && s.layout.axes && axis_left > ticks_left && place(true) <= 1.02f * beside_ticks)
        L = beside;
    return L;
}

// Title, axis names, column ticks (or head names when columns are grouped by head), row ticks.
// "head 2", or SwiGLU's "gate (SiLU)" and "value".
std::string column_group_name(ColumnGroups groups, int g) {
    if (groups == ColumnGroups::SwiGluHalves) return g == 0 ? "gate (SiLU)" : "value";
    return "head " + std::to_string(g);
}

void DrawLabels(ImDrawList* dl, const HeatmapSpec& s, const Layout& L) {
    const float lh = ImGui::GetTextLineHeight();
    if (!s.labels.title.empty()) dl->AddText(L.origin, ImGui::GetColorU32(ImGuiCol_Text), s.labels.title.c_str());
    if (!s.layout.axes) return;
    const float axis_y = L.origin.y + L.title_h, row_axis_y = L.col_axis_x >= 0.f ? axis_y : axis_y + lh;
    const float tick_y = row_axis_y + (L.row_axis_line ? lh : 0.f);
    if (s.layout.row_ticks) dl->AddText(ImVec2(L.origin.x, row_axis_y), kAxis, row_axis(s).c_str());
    if (L.col_axis_x >= 0.f) dl->AddText(ImVec2(L.origin.x + L.col_axis_x, L.origin.y), kAxis, col_axis(s).c_str());
    else dl->AddText(ImVec2(L.p0.x, axis_y), kAxis, col_axis(s).c_str());
    if (s.layout.col_group > 0 && s.matrix.cols % s.layout.col_group == 0 && s.matrix.cols / s.layout.col_group > 1) {
        const float group_w = s.layout.col_group * L.cw;
        for (int g = 0; g < s.matrix.cols / s.layout.col_group; ++g) {
            float x0 = L.p0.x + g * group_w;
            if (g > 0) dl->AddLine(ImVec2(x0, L.p0.y - lh * 0.3f), ImVec2(x0, L.p1.y), IM_COL32(0, 0, 0, 255), 2.f);
            std::string name = column_group_name(s.layout.col_groups, g);
            if (text_size(name).x > group_w) name = std::to_string(g);
            if (text_size(name).x <= group_w + 4) dl->AddText(ImVec2(x0 + 2, tick_y), kTick, name.c_str());
        }
    } else {
        // Ticks may shrink to 60% so that every column of a small matrix keeps its number.
        float widest = std::max(text_size(col_tick(s, 0)).x, text_size(col_tick(s, s.matrix.cols - 1)).x);
        float scale = std::clamp((L.cw - 6.f) / std::max(widest, 1.f), 0.6f, 1.f);
        float free_x =
            L.p0.x;  // where the previous tick ended: a tick that would touch it ("CLS" next to "20") is left out
        for (int c = 0, step = nice_step((widest * scale + 6.f) / L.cw); c < s.matrix.cols; c += step) {
            std::string t = col_tick(s, c);
            const float w = text_size(t).x * scale;
            float x = std::max(std::min(L.p0.x + (c + 0.5f) * L.cw - w * 0.5f, L.origin.x + L.box.x - w), L.p0.x);
            if (x < free_x) continue;
            dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale, ImVec2(x, tick_y), kTick, t.c_str());
            free_x = x + w + 4.f;
        }
    }
    if (!s.layout.row_ticks) return;
    const float scale = std::clamp(L.ch / lh, 0.6f, 1.f);
    for (int r = 0, step = nice_step(lh * scale / L.ch); r < s.matrix.rows; r += step) {
        std::string t = row_tick(s, r);
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale,
                    ImVec2(L.p0.x - kMarker - text_size(t).x * scale, L.p0.y + (r + 0.5f) * L.ch - lh * scale * 0.5f),
                    kTick, t.c_str());
    }
}

// The values written in the cells of small matrices, dark or light against the cell's colour, all at one
// size: up to 1.4 font sizes as the cells grow, and none when the widest would be under 0.6 (unreadable).
void DrawCellNumbers(ImDrawList* dl, const HeatmapSpec& s, const Layout& L, Range range) {
    if (!s.layout.numbers || !numbers_fit(s.matrix) || L.cw < 22.f || L.ch < 14.f) return;
    ImFont* font = ImGui::GetFont();
    const float fs = ImGui::GetFontSize();
    auto text = [&](float v) {
        return s.labels.format ? s.labels.format(v) : short_number(v, L.cw < 3.f * fs ? 2 : 3);
    };
    float size = std::min(1.4f * fs, L.ch * 0.5f);
    for (int i = 0; i < s.matrix.rows * s.matrix.cols; ++i) {
        const float w = font->CalcTextSizeA(size, FLT_MAX, 0.f, text(s.matrix.data[i]).c_str()).x;
        if (w > L.cw * 0.9f) size *= L.cw * 0.9f / w;
    }
    if (size < 0.6f * fs) return;
    for (int r = 0; r < s.matrix.rows; ++r)
        for (int c = 0; c < s.matrix.cols; ++c) {
            const float v = s.matrix.data[static_cast<size_t>(r) * s.matrix.cols + c];
            const std::string t = text(v);
            const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.f, t.c_str());
            ImU32 col = dark_text_on(colormap_rgb(s.matrix.cmap, normalise(v, range))) ? IM_COL32(0, 0, 0, 255)
                                                                                       : IM_COL32(255, 255, 255, 255);
            ImVec2 at(L.p0.x + (c + 0.5f) * L.cw - ts.x * 0.5f, L.p0.y + (r + 0.5f) * L.ch - ts.y * 0.5f);
            dl->AddText(font, size, at, col, t.c_str());
        }
}

// The tooltip of the cell under the mouse ("row 3 = patch 2 (token 3)", its column, its value).
void CellTooltip(const HeatmapSpec& s, int r, int c) {
    std::string row_desc = (s.labels.row_axis.empty() ? "row" : s.labels.row_axis) + " " + std::to_string(r);
    if (s.token_rows.enabled) {
        const TokenRowMap& map = s.token_rows.map;
        const int t = map.token_of_row(r);
        row_desc = "row " + std::to_string(r) + " = " + token_name(t, map.reordered(), map.layout) +
                   (map.layout.is_patch(t) ? "" : " token");
    }
    std::string col_desc = (s.labels.col_axis.empty() ? "column" : s.labels.col_axis) + " " + col_tick(s, c);
    if (s.layout.col_group > 0 && s.matrix.cols / s.layout.col_group > 1)
        col_desc += "  (" + column_group_name(s.layout.col_groups, c / s.layout.col_group) + ", dim " +
                    std::to_string(c % s.layout.col_group) + ")";
    ImGui::BeginTooltip();
    ImGui::Text("%s", row_desc.c_str());
    ImGui::Text("%s", col_desc.c_str());
    ImGui::Text("value = %.6g", s.matrix.data[static_cast<size_t>(r) * s.matrix.cols + c]);
    if (s.token_rows.enabled)
        ImGui::TextDisabled(s.token_rows.explains_cells
                                ? "click: select this token and see where this number comes from"
                                : "click: select this token");
    ImGui::EndTooltip();
}

// An invisible button over the cells: hover (tooltip, row outline) and click fill `res`.
void HandleMouse(ImDrawList* dl, const HeatmapSpec& s, const Layout& L, HeatmapResult& res) {
    ImGui::SetCursorScreenPos(L.p0);
    ImGui::InvisibleButton(s.matrix.key.id().c_str(),
                           ImVec2(std::max(1.f, L.p1.x - L.p0.x), std::max(1.f, L.p1.y - L.p0.y)));
    if (!ImGui::IsItemHovered()) return;
    ImVec2 m = ImGui::GetIO().MousePos;
    res.hovered_row = std::clamp(static_cast<int>((m.y - L.p0.y) / L.ch), 0, s.matrix.rows - 1);
    res.hovered_col = std::clamp(static_cast<int>((m.x - L.p0.x) / L.cw), 0, s.matrix.cols - 1);
    CellTooltip(s, res.hovered_row, res.hovered_col);
    if (ImGui::IsItemClicked()) res.clicked_row = res.hovered_row, res.clicked_col = res.hovered_col;
    const float y0 = L.p0.y + res.hovered_row * L.ch;
    dl->AddRect(ImVec2(L.p0.x, y0), ImVec2(L.p1.x, y0 + L.ch), kHover, 0.f, 0, 1.5f);
}

// Outlines: the row hovered in another view, the accent row with its label, the selected row.
void DrawRowMarks(ImDrawList* dl, const HeatmapSpec& s, const Layout& L, int hovered_row) {
    const ImVec2 p0 = L.p0, p1 = L.p1;
    const float ch = L.ch;
    const int linked = s.token_rows.linked;
    if (linked >= 0 && linked < s.matrix.rows && linked != hovered_row)
        dl->AddRect(ImVec2(p0.x, p0.y + linked * ch), ImVec2(p1.x, p0.y + (linked + 1) * ch), kHover, 0.f, 0, 2.f);
    if (s.token_rows.accent >= 0 && s.token_rows.accent < s.matrix.rows) {
        float y0 = p0.y + s.token_rows.accent * ch;
        dl->AddRect(ImVec2(p0.x - 2, y0 - 1), ImVec2(p1.x + 2, y0 + ch + 1), IM_COL32(0, 230, 255, 255), 0.f, 0, 2.5f);
        const ImVec2 ts = text_size(s.token_rows.accent_label);
        if (!s.token_rows.accent_label.empty() && ts.y <= ch + 4.f) {  // rows too thin for it: the outline alone
            ImVec2 at(p1.x - ts.x - 6, y0 + ch * 0.5f - ts.y * 0.5f);
            dl->AddRectFilled(ImVec2(at.x - 3, at.y), ImVec2(at.x + ts.x + 3, at.y + ts.y), IM_COL32(0, 0, 0, 200),
                              3.f);
            dl->AddText(at, IM_COL32(0, 230, 255, 255), s.token_rows.accent_label.c_str());
        }
    }
    const int cr = s.token_rows.cell_row, cc = s.token_rows.cell_col;
    if (cr >= 0 && cr < s.matrix.rows && cc >= 0 && cc < s.matrix.cols) {
        const ImVec2 a(p0.x + cc * L.cw, p0.y + cr * ch);
        dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(a.x + L.cw + 2, a.y + ch + 2), IM_COL32(0, 0, 0, 255), 0.f, 0,
                    4.f);
        dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + L.cw + 1, a.y + ch + 1), IM_COL32(255, 255, 255, 255), 0.f,
                    0, 2.f);
    }
    if (s.token_rows.selected >= 0 && s.token_rows.selected < s.matrix.rows) {
        const float row =
            s.token_rows.selected_at >= 0.f ? s.token_rows.selected_at : static_cast<float>(s.token_rows.selected);
        float y0 = p0.y + row * ch, y1 = y0 + ch;
        dl->AddRect(ImVec2(p0.x - 3, y0 - 1.5f), ImVec2(p1.x + 3, y1 + 1.5f), kSelected, 0.f, 0, 3.f);
        if (s.layout.row_ticks && s.layout.axes)
            dl->AddTriangleFilled(ImVec2(p0.x - 15, (y0 + y1) * 0.5f - 6), ImVec2(p0.x - 15, (y0 + y1) * 0.5f + 6),
                                  ImVec2(p0.x - 5, (y0 + y1) * 0.5f), kSelected);
    }
}

// The colour bar at the right or below; returns the widget's bottom-right corner.
ImVec2 DrawBar(TextureCache& cache, const HeatmapSpec& s, const Layout& L, Range range) {
    const float lh = ImGui::GetTextLineHeight();
    ImVec2 end(L.p1.x + 4.f, L.p1.y + 4.f);
    if (s.layout.colorbar && !L.bar_below) {
        // At least 4 lines tall so its labels read, but inside the widget's box (a short matrix's bar).
        const float room = L.origin.y + L.box.y - lh * 0.5f - L.p0.y;
        float h = std::max(L.p1.y - L.p0.y, std::min(4 * lh, room));
        DrawColorBar(cache, s.matrix.cmap, range, ImVec2(L.p1.x + 12.f, L.p0.y), 16.f, h);
        end = ImVec2(L.p1.x + L.bar_w, std::max(end.y, L.p0.y + h + lh * 0.5f));
    } else if (L.bar_below) {
        float w = std::max(L.p1.x - L.p0.x, std::min(6 * lh, L.box.x - L.left - 4.f));
        DrawColorBarHorizontal(cache, s.matrix.cmap, range, ImVec2(L.p0.x, L.p1.y + 10.f), w, 14.f);
        end = ImVec2(std::max(end.x, L.p0.x + w + 4.f), L.p1.y + L.bar_h);
    }
    return end;
}

}  // namespace

void DrawFadingPicture(ImDrawList* dl, TextureCache& cache, const Fade& fade, ImVec2 p0, ImVec2 p1) {
    if (fade.alpha <= 0.f) return;
    const std::optional<CachedTexture> before = cache.find(fade.key);  // gone from the cache: no fade
    if (!before) return;
    const int a = static_cast<int>(255.f * std::min(1.f, fade.alpha) + 0.5f);
    dl->AddImage(reinterpret_cast<ImTextureID>(before->id), p0, p1, ImVec2(0, 0), ImVec2(1, 1),
                 IM_COL32(255, 255, 255, a));
}

CachedTexture HeatmapTexture(TextureCache& cache, const HeatmapMatrix& m) {
    return cache.get(m.key, [&] { return render_matrix(m.data, m.rows, m.cols, m.cmap, m.range); });
}

// The range to lay a heatmap out by before its data's range is computed: its own when
// given, else one whose colour bar labels are as wide as a typical "-0.123".
static Range layout_range(const HeatmapMatrix& m) {
    return m.range.lo != m.range.hi ? m.range : Range{-0.123f, 0.123f};
}

int BestHeatmapColumns(int n, ImVec2 avail, const HeatmapSpec& spec, ImVec2 extra) {
    HeatmapSpec s = spec;
    const Range typical = layout_range(s.matrix);
    int best = 1;
    float best_area = -1.f;
    for (int cols = 1; cols <= std::max(1, n); ++cols) {
        const int rows = (n + cols - 1) / cols;
        s.layout.size = ImVec2(std::max(10.f, avail.x / cols - extra.x), std::max(10.f, avail.y / rows - extra.y));
        const Layout L = layout_heatmap(s, typical);
        const float area = (L.p1.x - L.p0.x) * (L.p1.y - L.p0.y);
        if (area > best_area * 1.02f) best_area = area, best = cols;
    }
    return best;
}

// Cells per texel on each side when the cells are smaller than pixels (1: a texel per cell),
// from the layout by layout_range: a 1,374-token attention map in 120 px is 11.
static int cells_per_texel(const HeatmapSpec& s) {
    const Layout guess = layout_heatmap(s, layout_range(s.matrix));
    const float px_w = std::max(1.f, guess.p1.x - guess.p0.x), px_h = std::max(1.f, guess.p1.y - guess.p0.y);
    return std::max(1, static_cast<int>(std::min(s.matrix.cols / px_w, s.matrix.rows / px_h)));
}

// The matrix's texture as drawn: a texel per cell, or per box of `factor` × factor cells.
static CachedTexture drawn_texture(TextureCache& cache, const HeatmapMatrix& m, int factor) {
    if (factor <= 1) return HeatmapTexture(cache, m);
    CacheKey reduced = m.key;
    reduced.reduction = factor;
    return cache.get(reduced, [&] { return render_matrix_reduced(m.data, m.rows, m.cols, factor, m.cmap, m.range); });
}

// Over the cells' lower left corner, what a texel of a reduced texture shows, as long as fits.
static void DrawReduction(ImDrawList* dl, const Layout& L, int factor, Colormap cmap) {
    if (factor <= 1) return;
    const std::string f = std::to_string(factor) + "×" + std::to_string(factor);
    const bool diverging = cmap == Colormap::Diverging;
    const std::string whole =
        std::string("a pixel: the ") + (diverging ? "farthest from 0" : "largest") + " of " + f + " cells";
    const bool fits = ImGui::CalcTextSize(whole.c_str()).x + 8.f <= L.p1.x - L.p0.x;
    const std::string text = fits ? whole : (diverging ? "|max| of " : "max of ") + f;
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 at(L.p0.x + 2.f, L.p1.y - size.y - 2.f);
    dl->AddRectFilled(ImVec2(at.x - 2.f, at.y - 1.f), ImVec2(at.x + size.x + 2.f, at.y + size.y + 1.f),
                      IM_COL32(0, 0, 0, 190));
    dl->AddText(at, IM_COL32(255, 255, 255, 255), text.c_str());
}

HeatmapResult DrawHeatmap(TextureCache& cache, const HeatmapSpec& s) {
    HeatmapResult res;
    const HeatmapMatrix& m = s.matrix;
    if (!m.data || m.rows <= 0 || m.cols <= 0) {
        ImGui::TextDisabled("(empty tensor)");
        return res;
    }
    const int factor = cells_per_texel(s);
    CachedTexture tex = drawn_texture(cache, m, factor);
    ImGui::BeginGroup();  // one item for the layout, whatever the buttons inside do
    const Layout L = layout_heatmap(s, tex.range);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddImage(reinterpret_cast<ImTextureID>(tex.id), L.p0, L.p1);
    if (s.transition) DrawFadingPicture(dl, cache, s.transition->picture(m.key, m.rows, m.cols), L.p0, L.p1);
    dl->AddRect(ImVec2(L.p0.x - 1, L.p0.y - 1), ImVec2(L.p1.x + 1, L.p1.y + 1), kTick);
    DrawLabels(dl, s, L);  // after the cells: head separators are drawn over them
    DrawCellNumbers(dl, s, L, tex.range);
    DrawReduction(dl, L, factor, m.cmap);
    HandleMouse(dl, s, L, res);
    DrawRowMarks(dl, s, L, res.hovered_row);
    const ImVec2 end = DrawBar(cache, s, L, tex.range);
    ImGui::SetCursorScreenPos(L.origin);
    ImGui::Dummy(ImVec2(std::max(end.x - L.origin.x, text_size(s.labels.title).x), end.y - L.origin.y));
    ImGui::EndGroup();
    res.cells_min = L.p0;
    res.cells_max = L.p1;
    res.cell_w = L.cw;
    res.cell_h = L.ch;
    return res;
}

}  // namespace vit::gui
