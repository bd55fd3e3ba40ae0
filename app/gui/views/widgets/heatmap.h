// The reusable heatmap widget: a rows×cols matrix drawn from a cached texture
// (uploaded once per key, see texture_cache.h), with axis names, tick labels,
// a colour bar with its range, the exact value under the mouse, the numbers
// written in the cells when the matrix is small (≤ 16×16), the selected token's
// row outlined, and clickable rows (to select a token).
#pragma once
#include <imgui.h>

#include <functional>
#include <string>

#include "logic/describe/colormap.h"
#include "logic/lesson/step_transition.h"
#include "logic/cache/texture_cache.h"
#include "logic/describe/token_order.h"

namespace vit::gui {

// What is drawn: a rows×cols matrix and how its values map to colours.
struct HeatmapMatrix {
    CacheKey key;                 // texture cache key
    const float* data = nullptr;  // rows×cols, row-major
    int rows = 0, cols = 0;
    Colormap cmap = Colormap::Diverging;
    Range range{0.f, 0.f};  // lo == hi: from the data (symmetric for diverging)
};

// The words around it.
struct HeatmapLabels {
    std::string title;               // above the matrix, e.g. "head 0  (5, 4)"
    std::string row_axis = "token";  // axis names
    std::string col_axis = "feature";
    std::function<std::string(int)> col_name{};  // tick label / tooltip name of column c; default its number
    std::function<std::string(float)> format{};  // cell text; default short_number
};

// What the rows mean and which are outlined. When `enabled`, row r holds token
// map.token_of_row(r): ticked "CLS", its number or its patch, named in the
// tooltip, a click selects it.
struct HeatmapTokenRows {
    bool enabled = true;
    TokenRowMap map;
    int selected = -1;                 // outlined row (the selected token)
    float selected_at = -1.f;          // >= 0: the outline drawn at this row instead (gliding between lesson steps)
    int cell_row = -1, cell_col = -1;  // a cell outlined in white (the one whose provenance is shown)
    bool explains_cells = false;       // a click also shows where the cell's number comes from
    int linked = -1;                   // thin white outline (the token hovered in another view)
    int accent = -1;                   // cyan outline with a label (row 0 = CLS in the cls stage)
    std::string accent_label;
};

// Where and how big, and what is drawn beside the cells.
// What a group of columns is: an attention head ("head 2"), or SwiGLU's fc1
// halves (the gates, then the values).
enum class ColumnGroups { Heads, SwiGluHalves };

struct HeatmapLayout {
    ImVec2 size{0.f, 0.f};             // whole widget; 0 = the available region
    float max_cell = 0.f;              // largest cell side in pixels; 0 = 6 font sizes for a matrix that holds its
                                       // numbers (16×16 at most), else 3.1 (both grow in presenter mode)
    float cell_w = 0.f, cell_h = 0.f;  // > 0: exactly this cell size (align with another heatmap)
    float wide_cells = 1.f;            // a small matrix's cells may be up to this many times as wide as tall
                                       // (room for numbers with decimals in a short, wide box)
    bool numbers = true;               // values in the cells when the matrix is small
    bool colorbar = true;              // at the right, or below when the box is tall
    bool row_ticks = true;             // false: no left margin (a column aligned with the matrix beside it)
    bool axes = true;                  // false: the title only, no axis names or ticks (small multiples in a grid)
    int col_group = 0;                 // > 0: columns in groups of col_group, named as col_groups says
    ColumnGroups col_groups = ColumnGroups::Heads;
};

struct HeatmapSpec {
    HeatmapMatrix matrix;
    HeatmapLabels labels;
    HeatmapTokenRows token_rows;
    HeatmapLayout layout;
    StepTransition* transition =
        nullptr;  // a lesson step changing: the cells cross-fade from the picture drawn here before
};

struct HeatmapResult {
    int hovered_row = -1, hovered_col = -1;
    int clicked_row = -1, clicked_col = -1;
    ImVec2 cells_min, cells_max;  // screen rectangle of the cells
    float cell_w = 0.f, cell_h = 0.f;
};

// Cells smaller than pixels (a 1,374-token attention map) are drawn reduced, each texel the
// cell of its box that stands out most (render_matrix_reduced), the reduction said over the
// cells' corner; hover and click still name the one cell under the mouse.
HeatmapResult DrawHeatmap(TextureCache& cache, const HeatmapSpec& spec);
// The matrix's texture alone (what DrawHeatmap draws its cells from; thumbnails).
CachedTexture HeatmapTexture(TextureCache& cache, const HeatmapMatrix& matrix);
// A lesson transition's picture from before the step changed, drawn over [p0, p1] as `fade` says.
void DrawFadingPicture(ImDrawList* dl, TextureCache& cache, const Fade& fade, ImVec2 p0, ImVec2 p1);
// How many columns to lay out n heatmaps like `spec` in (each tile also needs `extra`
// beside its own box) so that their cells cover the most of `avail`, labels and
// colour bars measured as DrawHeatmap lays them out with the current font.
int BestHeatmapColumns(int n, ImVec2 avail, const HeatmapSpec& spec, ImVec2 extra);

// A vertical colour bar at `p0` with the range's ends (and 0 for diverging data) labelled.
void DrawColorBar(TextureCache& cache, Colormap cmap, Range range, ImVec2 p0, float width, float height,
                  const std::function<std::string(float)>& format = {});
// The same, horizontal (low end at the left), labels under it.
void DrawColorBarHorizontal(TextureCache& cache, Colormap cmap, Range range, ImVec2 p0, float width, float height,
                            const std::function<std::string(float)>& format = {});
float ColorBarWidth(Range range);  // vertical bar + its labels

}  // namespace vit::gui
