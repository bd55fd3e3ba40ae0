// The heatmap widget: texture from the cache, ticks, colour bar, hover, cell numbers.
#include "heatmap.h"

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

std::string token_label(int token) { return token == 0 ? "CLS" : std::to_string(token); }

float ColorBarWidth(Range r) {
    float label = std::max(ImGui::CalcTextSize(short_number(r.lo).c_str()).x, ImGui::CalcTextSize(short_number(r.hi).c_str()).x);
    return 16.f + 8.f + label + 4.f;
}

static CachedTexture colorbar_texture(TextureCache& cache, Colormap cmap) {
    return cache.get(cmap == Colormap::Diverging ? "colorbar|div" : "colorbar|seq", [cmap] { return render_colorbar(cmap); });
}

void DrawColorBar(TextureCache& cache, Colormap cmap, Range range, ImVec2 p0, float width, float height) {
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
        std::string s = short_number(v);
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
    std::string lo = format ? format(range.lo) : short_number(range.lo), hi = format ? format(range.hi) : short_number(range.hi);
    bool both = ImGui::CalcTextSize(lo.c_str()).x + ImGui::CalcTextSize(hi.c_str()).x + 10.f < width;
    if (both) label(range.lo, p0.x, 0.f);
    label(range.hi, p1.x, 1.f);
    if (both && cmap == Colormap::Diverging && width > 6 * ImGui::GetFontSize()) label(0.f, (p0.x + p1.x) * 0.5f, 0.5f);
}

HeatmapResult DrawHeatmap(TextureCache& cache, const HeatmapSpec& s) {
    HeatmapResult res;
    if (!s.data || s.rows <= 0 || s.cols <= 0) {
        ImGui::TextDisabled("(empty tensor)");
        return res;
    }
    CachedTexture tex = cache.get(s.key, [&] { return render_matrix(s.data, s.rows, s.cols, s.cmap, s.range); });

    ImGui::BeginGroup();  // one item for the layout, whatever the buttons inside do
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float lh = ImGui::GetTextLineHeight();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    ImVec2 box(s.size.x > 0 ? s.size.x : avail.x, s.size.y > 0 ? s.size.y : avail.y);
    box.x = std::max(box.x, 60.f);
    box.y = std::max(box.y, 4 * lh);
    const ImVec2 origin = ImGui::GetCursorScreenPos();

    auto row_tick = [&](int r) {
        return s.rows_are_tokens && s.token_offset == 0 ? token_label(r) : std::to_string(r);
    };
    auto col_tick = [&](int c) { return s.col_name ? s.col_name(c) : std::to_string(c); };

    const std::string row_axis = s.row_axis.empty() ? "" : s.row_axis + " ↓";
    const std::string col_axis = s.col_axis.empty() ? "" : s.col_axis + " →";
    const float marker = 16.f;  // room for the selected-row marker
    float title_h = s.title.empty() ? 0.f : lh + 4.f;
    float top = title_h + 2.f * lh + 4.f;
    float left = 0.f;
    if (s.row_ticks) {
        left = std::max(text_size(row_tick(s.rows - 1)).x, text_size(s.rows_are_tokens && s.token_offset == 0 ? "CLS" : "0").x);
        left = std::max(left + marker + 4.f, text_size(row_axis).x + 10.f);
    } else if (s.highlight_row >= 0) {
        left = 6.f;
    }
    bool bar_below = s.colorbar && (s.bar_place == HeatmapSpec::BarPlace::Below ||
                                    (s.bar_place == HeatmapSpec::BarPlace::Auto && box.y > box.x * 1.15f));
    float cb_w = s.colorbar && !bar_below ? ColorBarWidth(tex.range) + 12.f : 0.f;
    float cb_h = bar_below ? 14.f + lh + 12.f : 0.f;

    float area_w = std::max(10.f, box.x - left - cb_w - 4.f);
    float area_h = std::max(10.f, box.y - top - cb_h - 4.f);
    float cw = area_w / s.cols, ch = area_h / s.rows;
    if ((s.rows <= 32 && s.cols <= 32) || s.rows == s.cols) {  // small or square (T×T): square cells
        cw = ch = std::min({cw, ch, s.max_cell});
    } else {
        cw = std::min(cw, s.max_cell);
        ch = std::min(ch, s.max_cell);
        ch = std::min(ch, 6.f * cw);  // cells no more than 6:1 either way
        cw = std::min(cw, 6.f * ch);
    }
    if (s.cell_w > 0) cw = s.cell_w;
    if (s.cell_h > 0) ch = s.cell_h;
    const ImVec2 p0(origin.x + left, origin.y + top);
    const ImVec2 p1(p0.x + cw * s.cols, p0.y + ch * s.rows);
    res.cells_min = p0;
    res.cells_max = p1;
    res.cell_w = cw;
    res.cell_h = ch;

    // Title, axis names.
    if (!s.title.empty()) dl->AddText(origin, ImGui::GetColorU32(ImGuiCol_Text), s.title.c_str());
    float axis_y = origin.y + title_h;
    if (s.row_ticks) dl->AddText(ImVec2(origin.x, axis_y + lh), kAxis, row_axis.c_str());
    dl->AddText(ImVec2(p0.x, axis_y), kAxis, col_axis.c_str());

    // The cells.
    dl->AddImage(reinterpret_cast<ImTextureID>(tex.id), p0, p1);
    dl->AddRect(ImVec2(p0.x - 1, p0.y - 1), ImVec2(p1.x + 1, p1.y + 1), kTick);

    // Column ticks (or head names when columns are grouped by head).
    float tick_y = axis_y + lh;
    if (s.col_group > 0 && s.cols % s.col_group == 0 && s.cols / s.col_group > 1) {
        int groups = s.cols / s.col_group;
        for (int g = 0; g < groups; ++g) {
            float x0 = p0.x + g * s.col_group * cw;
            if (g > 0) dl->AddLine(ImVec2(x0, p0.y - lh * 0.3f), ImVec2(x0, p1.y), IM_COL32(0, 0, 0, 255), 2.f);
            std::string name = s.col_group_name + " " + std::to_string(g);
            if (text_size(name).x > s.col_group * cw) name = std::to_string(g);
            if (text_size(name).x <= s.col_group * cw + 4) dl->AddText(ImVec2(x0 + 2, tick_y), kTick, name.c_str());
        }
    } else {
        float min_px = std::max(text_size(col_tick(0)).x, text_size(col_tick(s.cols - 1)).x) + 14.f;
        int step = nice_step(min_px / cw);
        for (int c = 0; c < s.cols; c += step) {
            std::string t = col_tick(c);
            float x = p0.x + (c + 0.5f) * cw - text_size(t).x * 0.5f;
            dl->AddText(ImVec2(std::max(x, p0.x), tick_y), kTick, t.c_str());
        }
    }
    // Row ticks.
    if (s.row_ticks) {
        int step = nice_step(lh / ch);
        for (int r = 0; r < s.rows; r += step) {
            std::string t = row_tick(r);
            float y = p0.y + (r + 0.5f) * ch - lh * 0.5f;
            dl->AddText(ImVec2(p0.x - marker - text_size(t).x, y), kTick, t.c_str());
        }
    }

    // Numbers in the cells of small matrices.
    if (s.numbers && s.rows <= 16 && s.cols <= 16 && cw >= 22.f && ch >= 14.f) {
        ImFont* font = ImGui::GetFont();
        for (int r = 0; r < s.rows; ++r)
            for (int c = 0; c < s.cols; ++c) {
                float v = s.data[static_cast<size_t>(r) * s.cols + c];
                std::string t = s.format ? s.format(v) : short_number(v, cw < 44.f ? 2 : 3);
                float size = std::min(ImGui::GetFontSize(), ch * 0.55f);
                ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.f, t.c_str());
                if (ts.x > cw * 0.9f) {
                    size *= cw * 0.9f / ts.x;
                    ts = font->CalcTextSizeA(size, FLT_MAX, 0.f, t.c_str());
                }
                Rgb bg = colormap_rgb(s.cmap, normalise(v, tex.range));
                ImU32 col = dark_text_on(bg) ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
                ImVec2 at(p0.x + (c + 0.5f) * cw - ts.x * 0.5f, p0.y + (r + 0.5f) * ch - ts.y * 0.5f);
                dl->AddText(font, size, at, col, t.c_str());
            }
    }

    // Hover and click.
    ImGui::SetCursorScreenPos(p0);
    ImGui::InvisibleButton(s.key.c_str(), ImVec2(std::max(1.f, p1.x - p0.x), std::max(1.f, p1.y - p0.y)));
    if (ImGui::IsItemHovered()) {
        ImVec2 m = ImGui::GetIO().MousePos;
        int r = std::clamp(static_cast<int>((m.y - p0.y) / ch), 0, s.rows - 1);
        int c = std::clamp(static_cast<int>((m.x - p0.x) / cw), 0, s.cols - 1);
        res.hovered_row = r;
        res.hovered_col = c;
        float v = s.data[static_cast<size_t>(r) * s.cols + c];
        std::string row_desc = (s.row_axis.empty() ? "row" : s.row_axis) + " " + std::to_string(r);
        if (s.rows_are_tokens) {
            int t = r + s.token_offset;
            row_desc = t == 0 ? "row 0 = CLS token"
                              : "row " + std::to_string(r) + " = patch " + std::to_string(t - 1) + " (token " + std::to_string(t) + ")";
        }
        std::string col_desc = (s.col_axis.empty() ? "column" : s.col_axis) + " " + col_tick(c);
        if (s.col_group > 0 && s.cols / s.col_group > 1)
            col_desc += "  (" + s.col_group_name + " " + std::to_string(c / s.col_group) + ", dim " + std::to_string(c % s.col_group) + ")";
        ImGui::BeginTooltip();
        ImGui::Text("%s", row_desc.c_str());
        ImGui::Text("%s", col_desc.c_str());
        ImGui::Text("value = %.6g", v);
        if (s.rows_are_tokens) ImGui::TextDisabled("click: select this token");
        ImGui::EndTooltip();
        if (ImGui::IsItemClicked()) res.clicked_row = r;
        dl->AddRect(ImVec2(p0.x, p0.y + r * ch), ImVec2(p1.x, p0.y + (r + 1) * ch), kHover, 0.f, 0, 1.5f);
    }
    if (s.linked_row >= 0 && s.linked_row < s.rows && s.linked_row != res.hovered_row)
        dl->AddRect(ImVec2(p0.x, p0.y + s.linked_row * ch), ImVec2(p1.x, p0.y + (s.linked_row + 1) * ch), kHover, 0.f, 0, 2.f);
    if (s.accent_row >= 0 && s.accent_row < s.rows) {
        float y0 = p0.y + s.accent_row * ch;
        dl->AddRect(ImVec2(p0.x - 2, y0 - 1), ImVec2(p1.x + 2, y0 + ch + 1), IM_COL32(0, 230, 255, 255), 0.f, 0, 2.5f);
        if (!s.accent_label.empty()) {
            ImVec2 ts = text_size(s.accent_label);
            ImVec2 at(p1.x - ts.x - 6, y0 + ch * 0.5f - ts.y * 0.5f);
            dl->AddRectFilled(ImVec2(at.x - 3, at.y), ImVec2(at.x + ts.x + 3, at.y + ts.y), IM_COL32(0, 0, 0, 200), 3.f);
            dl->AddText(at, IM_COL32(0, 230, 255, 255), s.accent_label.c_str());
        }
    }
    if (s.highlight_row >= 0 && s.highlight_row < s.rows) {
        float y0 = p0.y + s.highlight_row * ch, y1 = y0 + ch;
        dl->AddRect(ImVec2(p0.x - 3, y0 - 1.5f), ImVec2(p1.x + 3, y1 + 1.5f), kSelected, 0.f, 0, 3.f);
        if (s.row_ticks)
            dl->AddTriangleFilled(ImVec2(p0.x - 15, (y0 + y1) * 0.5f - 6), ImVec2(p0.x - 15, (y0 + y1) * 0.5f + 6),
                                  ImVec2(p0.x - 5, (y0 + y1) * 0.5f), kSelected);
    }
    if (s.highlight_col >= 0 && s.highlight_col < s.cols) {
        float x0 = p0.x + s.highlight_col * cw;
        dl->AddRect(ImVec2(x0 - 1.5f, p0.y - 3), ImVec2(x0 + cw + 1.5f, p1.y + 3), kSelected, 0.f, 0, 3.f);
    }

    float right = p1.x + 4.f, bottom = p1.y + 4.f;
    if (s.colorbar && !bar_below) {
        float h = std::max(p1.y - p0.y, 4 * lh);
        DrawColorBar(cache, s.cmap, tex.range, ImVec2(p1.x + 12.f, p0.y), 16.f, h);
        right = p1.x + cb_w;
        bottom = std::max(bottom, p0.y + h + lh * 0.5f);
    } else if (bar_below) {
        float w = std::max(p1.x - p0.x, std::min(6 * lh, box.x - left - 4.f));
        DrawColorBarHorizontal(cache, s.cmap, tex.range, ImVec2(p0.x, p1.y + 10.f), w, 14.f);
        right = std::max(right, p0.x + w + 4.f);
        bottom = p1.y + cb_h;
    }
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(ImVec2(std::max(right - origin.x, text_size(s.title).x), bottom - origin.y));
    ImGui::EndGroup();
    return res;
}

}  // namespace vit::gui
