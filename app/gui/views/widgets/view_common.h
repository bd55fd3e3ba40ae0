// What every stage picture needs: the context handed to each Draw…View()
// (state, trace, model, textures, fonts) and the shared pieces — a token
// matrix heatmap wired to the token selection, the model's input picture with
// its patch grid (click a patch to select its token), headings and notes.
#pragma once
#include <imgui.h>

#include <initializer_list>
#include <memory>
#include <string>

#include "logic/state/app_state.h"
#include "logic/ask/ask_compare.h"
#include "logic/describe/stage_info.h"  // percent()
#include "logic/jobs/block_walk.h"
#include "logic/cache/derived_cache.h"
#include "logic/state/input_queue.h"
#include "services/fonts.h"
#include "views/widgets/heatmap.h"
#include "formats/image.h"
#include "model/model.h"
#include "logic/cache/texture_cache.h"
#include "pass/trace.h"

namespace vit::gui {

struct ViewContext;

// The comparison model beside the loaded one (controllers/compare_controller.h), for the screens
// that show both: its views (null until its first pass) and a note while a pass is on its way.
struct ComparisonSide {
    ViewContext* views = nullptr;
    std::string name;         // the model's name, for its half's title
    std::string loaded_name;  // the loaded model's, for the other half's
    std::string note;         // "computing …", or why the pass shown is stale; "" when it is current
};

struct ViewContext {
    AppState& state;
    const Pipeline& pipeline;
    const Trace& trace;
    const Model& model;
    const Image& picture;  // the decoded image (display size)
    TextureCache& cache;
    DerivedCache& derived;  // numbers computed from the trace, once per trace
    uint64_t generation;    // changes with every new trace
    const Fonts& fonts;
    int linked_hover = -1;            // token hovered anywhere last frame (links matrix rows and tiles)
    const AskResults* ask = nullptr;  // the Ask panel's other passes (occlusion map, unmodified pass)
    bool* ask_open = nullptr;         // the Ask panel is open: the attention screen's image paints patches
    bool ask_painting() const { return ask_open && *ask_open; }
    // Which pass the views show (the Ask panel's choice, once there is an unmodified pass).
    bool shows_difference() const { return ask && ask->original && state.ask.show == AskShow::Difference; }
    bool shows_original() const { return ask && ask->original && state.ask.show == AskShow::Original; }
    StepTransition* transition = nullptr;         // a lesson step changing: maps cross-fade, the selection glides
    const ComparisonSide* comparison = nullptr;   // a comparison model is loaded: its half of the screen
    const PinchEvent* pinch = nullptr;            // a pinch this frame (a touch screen): the map under it enlarges
    const WalkedBlocks* walked = nullptr;         // a Stream trace's blocks walked so far (logic/jobs/block_walk.h)
    std::shared_ptr<const Trace> held = nullptr;  // keeps `trace` alive while the views draw it (a recomputed block's)
    TokenGlide glide() const { return transition ? transition->glide() : TokenGlide{}; }

    const StageRef& stage() const { return pipeline.stages[state.stage]; }
    const std::string& stage_id() const { return pipeline.ids[state.stage]; }
    const Tensor* tensor(const StageRef& stage) const { return trace.tensor(stage); }  // nullptr when absent
    // Stage `kind` of the current stage's block.
    StageRef sibling(StageKind kind) const { return {kind, stage().block}; }
    int grid() const;     // patches per side
    int patches() const;  // N
    // Which token each row of stage `kind` holds (token_order.h), with the model's prefix tokens.
    TokenRowMap row_map(StageKind kind) const;
    // "CLS", "REG0", "patch 3 (token 4)", or "patch 3" when interventions reorder the tokens.
    std::string name_of_token(int token) const;
    // The Ask panel dropped this token: the encoder never sees it (its attention rows are zeros here).
    bool token_dropped(int token) const;
    ImFont* heading() const { return state.presenter ? fonts.big_heading : fonts.heading; }
    ImFont* mono() const { return state.presenter ? fonts.big_mono : fonts.mono; }
};

// A 2-D view of a tensor: the whole thing, or matrix `slice` of a rank-3 one.
struct MatrixView {
    const float* data = nullptr;
    int rows = 0, cols = 0;
};
MatrixView matrix_of(const Tensor& t, int slice = -1);

// The cache keys (cache_key.h) of everything drawn from a stage. A texture of
// `stage` in the trace on screen (matrix `slice`, the colormap, and the purpose
// with its parameters where it shows more than the plain matrix, e.g. token 5's
// attention row: AttentionRow, {5, scale}):
CacheKey texture_key(const ViewContext& ctx, const StageRef& stage, int slice, Colormap cmap,
                     Purpose purpose = Purpose::Values, std::vector<double> params = {});
// Numbers derived from `stage` once per trace (DerivedCache), e.g. its RowSums.
CacheKey derived_key(const StageRef& stage, Purpose purpose, std::vector<double> params = {});

// The data of `stage`'s …×T′×T′ tensor (attention, rollout) in image order: (N+1)×(N+1) per
// slice with token rows and columns at 1 + their patch and zeros for dropped tokens (computed
// once per trace); the tensor's own data when the Ask panel neither shuffles nor drops tokens.
const float* image_order_data(ViewContext& ctx, const StageRef& stage, const Tensor& t);

// A heatmap of `stage`'s tensor (matrix `slice` of an H×T×… stage): its
// cache key, data, shape, the stage's colormap and the numbers toggle filled in.
HeatmapSpec stage_spec(ViewContext& ctx, const StageRef& stage, const Tensor& t, int slice = -1);
// Rows that are the tokens of stage `kind` (token_row_map): the selected token
// outlined, the token hovered in another view linked.
HeatmapTokenRows token_rows(const ViewContext& ctx, StageKind kind);
// Rows of `stage` as token_rows(), with the clicked cell of matrix `slice` outlined when the stage
// explains its cells (cell_provenance.h); pass the heatmap's result to choose_cell().
HeatmapTokenRows cell_rows(const ViewContext& ctx, const StageRef& stage, int slice);
// A click on a cell of such a heatmap chooses that cell for the side panel.
void choose_cell(ViewContext& ctx, const StageRef& stage, int slice, const HeatmapResult& clicked);
// A narrow column beside another heatmap, cells of exactly cell_w × cell_h, no ticks, no colour bar.
HeatmapLayout side_column(ImVec2 size, float cell_w, float cell_h, bool numbers);
// DrawHeatmap, then the token rows answer the mouse: a hovered row links the
// token in other views, a clicked row selects it.
HeatmapResult DrawTokenHeatmap(ViewContext& ctx, const HeatmapSpec& spec);

// What the columns of a token matrix are: its column axis's name, and for key tokens
// (attention, rollout) each column's token named under the mouse.
enum class TokenColumns { Feature, HeadFeature, HiddenFeature, KeyToken, PatchPixel };
const char* column_axis_name(TokenColumns columns);

// A heatmap of `stage` (slice for H×T×… stages) whose rows are tokens (or
// patches), with the selected token outlined and a click selecting a token.
HeatmapResult DrawTokenMatrix(ViewContext& ctx, const StageRef& stage, int slice, ImVec2 size,
                              const std::string& title = "", TokenColumns columns = TokenColumns::Feature,
                              int col_group = 0, int accent_row = -1, const std::string& accent_label = "");
// The terms of a sum drawn side by side (x + branch = result) share one colour range, the
// smallest holding each (colormap.h's shared_range), so a small correction looks small beside
// the stream; DrawSumTerm draws one of them on it, with its own bar showing that range.
Range SumTermsRange(ViewContext& ctx, const std::vector<StageRef>& terms);
HeatmapResult DrawSumTerm(ViewContext& ctx, const StageRef& stage, Range shared, ImVec2 size, const std::string& title);
// The spec of a heatmap of numbers that are not a trace stage (weights, derived values); rows are not tokens.
// `key`'s colormap is set to `cmap`, the one its pixels are drawn in.
HeatmapSpec plain_matrix_spec(ViewContext& ctx, const CacheKey& key, const float* data, int rows, int cols, ImVec2 size,
                              const std::string& title, const std::string& row_axis, const std::string& col_axis,
                              Colormap cmap = Colormap::Diverging);
// DrawHeatmap of that spec.
// `row_h` > 0: every row exactly that tall (a few rows of many columns, which square cells leave thin).
HeatmapResult DrawPlainMatrix(ViewContext& ctx, const CacheKey& key, const float* data, int rows, int cols, ImVec2 size,
                              const std::string& title, const std::string& row_axis, const std::string& col_axis,
                              Colormap cmap = Colormap::Diverging, float row_h = 0.f);
// The heads of an H×T×… stage as a grid of small multiples ("all heads"), every head coloured on one
// range (all heads' data, so equal colours mean equal numbers). With more than four heads the
// tiles are compact: a title, no axes, one colour bar for the grid; else (presenter mode too) each
// tile has its axes and a bar showing that shared range.
struct HeadGrid {
    bool compact = false;
    Range shared;  // the range of every head
    int columns = 1;
    ImVec2 tile;        // each tile's box
    float bar_w = 0.f;  // room kept at the right for the shared colour bar
};
// `extra_w`: room each tile needs beside its heatmap (a row-sums column).
HeadGrid plan_head_grid(ViewContext& ctx, const StageRef& stage, const Tensor& t, ImVec2 avail, float extra_w,
                        TokenColumns columns);
// Head h's heatmap in the grid's style; the tokens are its rows.
HeatmapResult DrawGridHead(ViewContext& ctx, const HeadGrid& grid, const StageRef& stage, const Tensor& t, int h,
                           ImVec2 size, TokenColumns columns);
// The grid's one colour bar (compact grids), right of the tiles drawn in [top_left, bottom_right].
void DrawGridColorBar(ViewContext& ctx, const HeadGrid& grid, const StageRef& stage, ImVec2 top_left,
                      ImVec2 bottom_right);

// How many columns to lay n tiles out in so that each tile's content (aspect =
// height / width) is as large as possible; each tile also needs extra_w × extra_h
// for its labels and colour bar.
int best_columns(int n, ImVec2 avail, float aspect, float extra_w, float extra_h);
// A big operator sign ("+", "=", "·") centred vertically in a box of height h.
void OperatorSign(ViewContext& ctx, const char* sign, float h);
// The width OperatorSign takes, with the spacing on both sides (SameLine before and after).
float OperatorSignWidth(ViewContext& ctx, const char* sign);

struct PictureSpec {
    ImVec2 size{256, 256};
    bool grid = true;            // patch grid lines
    bool numbers = false;        // patch index in each cell
    bool clickable = true;       // clicking a patch selects its token
    bool show_selection = true;  // outline the selected token's patch
    int hover_patch = -1;        // outline this patch too (linked hover)
    int selected_token = -1;     // outlined in yellow; -1 = the app's selected token
    // Optional overlay: N values over the patch grid (attention: sequential; a signed map: diverging).
    const float* overlay = nullptr;
    CacheKey overlay_key;  // its texture; its id is the picture's widget id
    Colormap overlay_cmap = Colormap::Sequential;
    Range overlay_range{0.f, 0.f};  // its colours; lo == hi: stretched from its own minimum to its maximum
    float overlay_alpha = 0.7f;     // opaque where the cells hold their numbers (overlay_opacity)
    bool overlay_bar = true;        // a colour bar under the picture with the overlay's range
};
struct PictureResult {
    int hovered_patch = -1;
    ImVec2 p0, p1;
};
// The model's input (the stage `input` with the normalisation undone), square.
// An overlay is coloured on its range (by default its own minimum … maximum),
// its values written in the patches when they are big enough.
PictureResult DrawModelPicture(ViewContext& ctx, const PictureSpec& spec);
// The texture of the model's input picture (for tiles), and its pixels.
CachedTexture model_picture_texture(ViewContext& ctx);
RgbaImage model_picture_pixels(ViewContext& ctx);
// The same of any model input `in` (C × H × W) made with `pre` (the joint PCA's other images).
RgbaImage input_picture_pixels(const Tensor& in, const Preprocess& pre);
// The pixels of an overlay: grid×grid values over range `r`, or (r.lo == r.hi) stretched from
// their minimum (dark) to their maximum (bright).
RgbaImage overlay_pixels(const float* overlay, int grid, Range r = {}, Colormap cmap = Colormap::Sequential);
// An overlay's values as percentages in its patches, one size for the map, each in a patch wide enough to
// hold it at a readable size (none when the patches are too small for any).
void DrawOverlayValues(const float* overlay, int grid, ImVec2 p0, float side);

// Patch p's number in the top-left corner of its cell (at `cell_min`, `cell` px a side), small
// enough to leave most of the patch visible; nothing when the cell is too small to hold it.
void PatchNumber(ImDrawList* dl, ImVec2 cell_min, float cell, int p);
// One line of text in at most `width` px: drawn smaller when it is too long (down to
// kFittedTextMinScale of the font), then clipped.
constexpr float kFittedTextMinScale = 0.65f;
void FittedText(ImDrawList* dl, ImVec2 at, float width, const std::string& text, ImU32 colour);

// Continues the row after the last item when a group `width` wide still fits
// before the window's right edge (with `spacing` before it); else the group
// starts the next row. Toolbars and title lines wrap this way at any width.
void SameLineOrWrap(float width, float spacing = 24.f);
// The widths of the controls a group that wraps as a whole is made of: a button or a
// checkbox labelled `label` (what follows "##" unseen), and a caption followed by one
// radio button per option, on one row.
float ButtonWidth(const char* label);
float CheckboxWidth(const char* label);
float RadioRowWidth(const char* caption, std::initializer_list<const char*> options);
// `text` after the last item on its row, or on the next row when it does not fit there;
// wrapped if it is wider than the window (a title's second half).
void TextAfter(const std::string& text, float spacing = 8.f);
// `text` wrapped between words at `width` in the current font (logic/describe/drawn_text.h), so no
// number is split at its decimal point as ImGui's own wrapping can.
std::string word_wrapped(const std::string& text, float width);
float WrappedHeight(const std::string& text, float width);  // the height word_wrapped's lines take
// Text in `colour` wrapped between words where TextWrapped would wrap it (a pushed wrap position, else
// the window's right edge).
void WrappedWords(const std::string& text, const ImVec4& colour);
void Note(const std::string& text);      // wrapped between words, dimmed explanation
void KeysHint(const std::string& text);  // wrapped between words in the disabled colour: keys, where we are
// In warning colour: the selected token was dropped, so its maps are empty.
void DroppedTokenNote(const ViewContext& ctx, int token);
// On a screen over every block, when the pass kept only the residual stream (TraceKeep in
// core/pass/trace.h): how many blocks were walked for it so far (ctx.walked), or that only
// the attention screen's layer is recomputed and drawn.
void StreamBlocksNote(const ViewContext& ctx);
// The height Formula(kind) and then Note(note) take at `width` (0: the current width) and the current
// font, so a view can leave exactly that room under its pictures.
float FormulaAndNoteHeight(ViewContext& ctx, StageKind kind, const std::string& note, float width = 0.f);
// Stage `kind`'s formula from the catalogue (core/pass/stages.cpp), monospace, highlighted.
void Formula(ViewContext& ctx, StageKind kind);

}  // namespace vit::gui
