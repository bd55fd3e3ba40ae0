// The attention screen: for the chosen layer, where the selected token looks —
// its attention row over the image for every head side by side, the mean over
// heads, and attention rollout through all layers, laid out as equal tiles that
// fill the view. Click a patch to choose the token; click a head's title (press
// Z / Enter, or spread two fingers over it) to enlarge it; "CLS only" shows the CLS token's attention,
// as in the DINO paper. Colours follow the chosen scale (attention_scale.h).
// Beside them the occlusion map (Ask panel): where masking hurts the answer. With a
// comparison model, the tiles take the left half and its CLS attention the right (comparison_half.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views/screens/comparison_half.h"
#include "views/widgets/ask_overlays.h"
#include "logic/describe/attention_scale.h"
#include "views/widgets/views.h"

namespace vit::gui {

namespace {

// One tile: a title line (its name, "head 3", then its detail, " · CLS 2%"; a click on it can
// enlarge), then the picture with an overlay.
struct Tile {
    std::string name, detail;
    std::string title() const { return name + detail; }
    const float* overlay = nullptr;  // N values; nullptr: the plain image to click on
    CacheKey key;                    // its overlay's texture; its id is the tile's widget id
    Range range;
    int head = -1;                                // >= 0: clicking the title enlarges this head (or goes back)
    const char* help = nullptr;                   // what the map means, under the mouse on its title
    const std::vector<float>* pending = nullptr;  // N values: the NaN ones are drawn as not computed yet
    Colormap cmap = Colormap::Sequential;         // a signed map (occlusion): diverging around 0
    bool own_bar = false;                         // its own colour bar whatever the attention scale
    bool stale = false;                           // made for another pass: marked so over the picture
};

constexpr const char* kOcclusionHelp =
    "Last map: the occlusion map, how much the answer's probability falls when that patch alone is masked, on "
    "its own colour bar centred on 0: red, masking it lowers p (the answer rests there); blue, masking it raises p; "
    "white, no change. Where it differs from attention, attention is not importance. Right-click a head to silence it.";

// What an attention row gives the prefix tokens, for a tile's title: " · CLS 2%", " · CLS 2% · REG 30%"
// (the registers summed), "" without prefix tokens.
std::string prefix_shares(const float* row, const TokenLayout& layout) {
    std::string out;
    float registers = 0.f;
    bool has_registers = false;
    for (int t = 0; t < layout.count(); ++t) {
        has_registers = has_registers || layout.is_register(t);
        if (layout.is_register(t)) registers += row[t];
        else out += " · " + layout.prefix[static_cast<size_t>(t)] + " " + percent(row[t]);
    }
    return has_registers ? out + " · REG " + percent(registers) : out;
}

CacheKey picker_key() {  // the picture to click on has no overlay: its key is only its widget id
    CacheKey key;
    key.purpose = Purpose::PatchPicker;
    return key;
}

float title_height() { return ImGui::GetFontSize() * 1.3f + 4.f; }
float bar_height() { return 12.f + ImGui::GetTextLineHeight() + 8.f; }

// Whether some title is too long for `side` even at FittedText's smallest size: then every
// tile keeps only its name ("head 3"), so the titles still match.
bool short_titles(const std::vector<Tile>& tiles, float side) {
    for (const Tile& t : tiles)
        if (!t.detail.empty() && ImGui::CalcTextSize(t.title().c_str()).x * kFittedTextMinScale > side) return true;
    return false;
}

void DrawTile(ViewContext& ctx, const Tile& t, float side, bool own_bar, int tok, bool shorten = false) {
    ImGui::BeginGroup();
    ImGui::PushID(t.key.id().c_str());
    const ImVec2 at = ImGui::GetCursorScreenPos();
    FittedText(ImGui::GetWindowDrawList(), at, side, shorten ? t.name : t.title(), ImGui::GetColorU32(ImGuiCol_Text));
    ImGui::InvisibleButton("title", ImVec2(side, title_height()));
    if (t.head >= 0 && ImGui::IsItemHovered()) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        ImGui::SetTooltip(ctx.state.head >= 0 ? "click: back to all heads (Z)" : "click: enlarge this head (Z)");
    }
    if (t.help && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.f);
        ImGui::TextWrapped("%s", t.help);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    if (t.head >= 0 && ImGui::IsItemClicked()) toggle_enlarged_head(ctx.state, ctx.pipeline, t.head);
    ImGui::PopID();
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.grid = t.overlay == nullptr;
    ps.numbers = t.overlay == nullptr;
    ps.overlay = t.overlay;
    ps.overlay_key = t.key;
    ps.overlay_range = t.range;
    ps.overlay_cmap = t.cmap;
    ps.overlay_alpha = 0.72f;
    ps.overlay_bar = own_bar || t.own_bar;
    ps.selected_token = tok;  // a prefix token (CLS, DIST, a register) outlines no patch
    ps.clickable = t.overlay != nullptr || !ctx.ask_painting();
    const PictureResult picture = DrawModelPicture(ctx, ps);
    if (t.pending) DrawPendingCells(*t.pending, picture.p0, picture.p1, ctx.grid());
    if (t.stale) StaleMark(picture.p0, side);
    AppState& st = ctx.state;
    if (t.overlay == nullptr) {  // the picture to click on shows (and, with the Ask panel open, paints) masked patches
        DrawPatchMarks(st.ask, picture.p0, picture.p1, ctx.grid());
        if (ctx.ask_painting()) PaintPatches(st.ask, picture);
    }
    if (t.head >= 0) {  // right-click silences the head (Ask panel)
        if (head_silenced(st.ask, st.layer, t.head)) DrawSilencedVeil();
        if (ImGui::IsMouseHoveringRect(picture.p0, picture.p1) && ImGui::IsMouseClicked(ImGuiMouseButton_Right))
            set_head_silenced(st.ask, st.layer, t.head, !head_silenced(st.ask, st.layer, t.head));
    }
    if (t.overlay == nullptr && (own_bar || t.own_bar))
        ImGui::Dummy(ImVec2(side, bar_height()));  // keep the tiles aligned
    ImGui::EndGroup();
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    if (t.head >= 0 && ctx.pinch && ctx.pinch->grow == (st.head < 0) && ctx.pinch->x >= a.x && ctx.pinch->x < b.x &&
        ctx.pinch->y >= a.y && ctx.pinch->y < b.y)
        toggle_enlarged_head(st, ctx.pipeline, t.head);  // two fingers spread over a head: it fills the view (or back)
}

// Layer arrows, CLS only, the colour scale and the keys, wrapping to a new line when a control does not fit.
void DrawControls(ViewContext& ctx) {
    AppState& st = ctx.state;
    const Pipeline& p = ctx.pipeline;
    const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
    const float gap = ImGui::GetFontSize();
    bool first = true;
    auto place = [&](float w) {
        if (!first && ImGui::GetItemRectMax().x + gap + w < right) ImGui::SameLine(0, gap);
        first = false;
    };
    const std::string block = "block " + std::to_string(st.layer) + " (of 0–" + std::to_string(p.depth - 1) + ")";
    const float arrow = ImGui::GetFrameHeight();
    place(ImGui::CalcTextSize(("layer " + block).c_str()).x + 2 * arrow + 4 * ImGui::GetStyle().ItemSpacing.x);
    ImGui::BeginGroup();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("layer");
    ImGui::SameLine();
    if (ImGui::ArrowButton("layer_prev", ImGuiDir_Left)) select_layer(st, p, st.layer - 1);
    ImGui::SameLine();
    ImGui::TextUnformatted(block.c_str());
    ImGui::SameLine();
    if (ImGui::ArrowButton("layer_next", ImGuiDir_Right)) select_layer(st, p, st.layer + 1);
    ImGui::EndGroup();
    if (p.layout.has_cls()) {
        place(ImGui::CalcTextSize("CLS only (DINO)").x + arrow + 8.f);
        bool cls = st.cls_only;
        if (ImGui::Checkbox("CLS only (DINO)", &cls)) toggle_cls_attention(st, p);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the CLS token's attention in the last layer (key C)");
    } else {
        constexpr const char* kNoCls = "no CLS token: the head reads the mean of the patches";
        place(ImGui::CalcTextSize(kNoCls).x);
        ImGui::AlignTextToFramePadding();
        ImGui::TextDisabled("%s", kNoCls);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("No token gathers the image for the head here: pick a patch to see where it looks");
    }
    place(AttentionScaleComboWidth() + 8.f);
    ImGui::BeginGroup();
    AttentionScaleCombo(st);
    ImGui::EndGroup();
    if (ctx.ask_open) {
        place(ImGui::CalcTextSize("Ask the model").x + arrow + 8.f);
        ImGui::Checkbox("Ask the model", ctx.ask_open);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Mask or drop patches, silence heads, remove positions (the Ask panel)");
    }
}

// The question, the keys beside it when they fit, the controls and the notes under them.
void DrawAttentionHeader(ViewContext& ctx, int tok) {
    AppState& st = ctx.state;
    const int T = ctx.pipeline.tokens;
    ImGui::PushFont(ctx.heading());
    ImGui::TextUnformatted(("Where does " + ctx.name_of_token(tok) + " look?").c_str());
    ImGui::PopFont();
    // The keys, beside the question: ↑ ↓ change the token (and leave CLS only), H and Z the head.
    std::string keys = st.head >= 0 ? "↑ ↓ token    H next head    Z all heads" : "↑ ↓ token    H or Z: one head large";
    if (tok == T - 1 && !st.cls_only) keys = "the last token: ↓ goes no further    " + keys;
    if (st.cls_only) keys = "CLS only: ↑ ↓ or a click picks a token again    " + keys;
    if (ImGui::GetItemRectMax().x + ImGui::CalcTextSize(keys.c_str()).x + 2 * ImGui::GetFontSize() <
        ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) {
        ImGui::SameLine(0, 2 * ImGui::GetFontSize());
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + (ImGui::GetItemRectSize().y - ImGui::GetFontSize()) * 0.5f);
    }
    KeysHint(keys);  // a narrow view wraps them between words
    DrawControls(ctx);
    if (ctx.token_dropped(tok)) DroppedTokenNote(ctx, tok);
    // In presenter mode the maps take this room; the occlusion map's title explains it under the mouse.
    if (ctx.ask && ctx.ask->occlusion && !st.presenter) Note(kOcclusionHelp);
    if (ctx.trace.keep() == TraceKeep::Stream && ctx.model.config.num_classes > 0 && !st.presenter)
        Note("No occlusion map at this size: it masks each of the " + std::to_string(ctx.patches()) +
             " patches in a pass of its own, and this pass is one too large to keep every stage.");
    if (ctx.ask && ctx.ask->occlusion && !ctx.ask->occlusion->complete())
        PendingCellsLegend(ctx.ask->occlusion->computed, static_cast<int>(ctx.ask->occlusion->probabilities.size()));
}

// The tiles of the chosen layer for token `tok`, in order: the image to click on, every head, their mean,
// rollout (when traced) and the occlusion map (when the Ask panel made one).
struct AttentionTiles {
    std::vector<Tile> tiles;
    std::vector<const float*> layer_maps;  // the heads' maps, then their mean: they share a scale
    bool rollout = false;
    Range roll_range;  // rollout's own stretch
};

// The occlusion map (Ask panel) as a tile: how much the answer's probability falls, a signed map on its own
// diverging bar (colormap.h); while it fills in, the patches not computed yet drawn as such, and marked stale
// over the picture while it is another pass's.
Tile occlusion_tile(ViewContext& ctx, const AskResults& ask) {
    const OcclusionMap& occ = *ask.occlusion;
    const std::vector<double> version = {double(occ.computed), ask.occlusion_stale ? 1.0 : 0.0};
    const std::vector<float>& importance =
        ctx.derived.get(derived_key({StageKind::Probs}, Purpose::Occlusion, version), [&] {
            std::vector<float> drop(occ.probabilities.size());
            for (size_t q = 0; q < drop.size(); ++q)
                drop[q] = occ.top_probability - occ.probabilities[q];  // NaN stays NaN
            return drop;
        });
    std::string detail = " · p(" + ctx.model.config.labels[occ.top_class] + ") lost";
    if (!occ.complete())
        detail += " · " + std::to_string(occ.computed) + "/" + std::to_string(occ.probabilities.size());
    if (ask.occlusion_stale) detail += " · stale";
    const ColourScale scale = signed_map_scale(importance.data(), importance.size());
    Tile tile{"occlusion", detail, importance.data(),
              texture_key(ctx, {StageKind::Probs}, -1, scale.cmap, Purpose::Occlusion, version), scale.range};
    tile.help = kOcclusionHelp;
    tile.pending = occ.complete() ? nullptr : &occ.probabilities;
    tile.cmap = scale.cmap;
    tile.own_bar = true;
    tile.stale = ask.occlusion_stale;
    return tile;
}

AttentionTiles attention_tiles(ViewContext& ctx, int tok, const Tensor* roll) {
    const Pipeline& p = ctx.pipeline;
    const int T = p.tokens, N = ctx.patches(), H = p.heads, layer = ctx.state.layer;
    const StageRef attn_stage{StageKind::Attn, layer};
    // Permuted or dropped tokens (Ask panel): rows and columns back in image order, zeros where dropped.
    const float* roll_data = roll ? image_order_data(ctx, {StageKind::Rollout}, *roll) : nullptr;
    auto row = [&](int h) { return attention_row(ctx, layer, h, tok); };
    const std::vector<float>& mean = ctx.derived.get(derived_key(attn_stage, Purpose::HeadMeanRow, {double(tok)}), [&] {
        std::vector<float> m(T, 0.f);
        for (int h = 0; h < H; ++h)
            for (int c = 0; c < T; ++c) m[c] += row(h)[c] / H;
        return m;
    });

    const AttentionScale scale = ctx.state.attention_scale;
    AttentionTiles out;
    std::vector<const float*>& layer_maps = out.layer_maps;
    layer_maps = layer_attention_maps(ctx, layer, tok);
    const int P = p.layout.count();  // the patch columns start here
    layer_maps.push_back(mean.data() + P);
    const std::vector<double> token_row = {double(tok), double(static_cast<int>(scale))};  // its row, on the scale
    std::vector<Tile>& tiles = out.tiles;
    tiles.push_back({ctx.ask_painting() ? "paint: drag masks, right-drag clears" : "click a patch",
                     "",
                     nullptr,
                     picker_key(),
                     {},
                     -1});
    for (int h = 0; h < H; ++h)
        tiles.push_back({"head " + std::to_string(h), prefix_shares(row(h), p.layout), layer_maps[h],
                         texture_key(ctx, attn_stage, h, Colormap::Sequential, Purpose::AttentionRow, token_row),
                         attention_range(scale, layer_maps, N, h), h});
    tiles.push_back({"head mean", prefix_shares(mean.data(), p.layout), layer_maps[H],
                     texture_key(ctx, attn_stage, -1, Colormap::Sequential, Purpose::HeadMeanRow, token_row),
                     attention_range(scale, layer_maps, N, H), -1});
    if (roll) {
        const float* r = roll_data + static_cast<size_t>(tok) * T + P;
        out.rollout = true;
        out.roll_range = attention_range(scale, {r}, N, 0);
        tiles.push_back(
            {"rollout 0–" + std::to_string(p.depth - 1), "", r,
             texture_key(ctx, {StageKind::Rollout}, -1, Colormap::Sequential, Purpose::AttentionRow, token_row),
             out.roll_range, -1});
        tiles.back().own_bar = scale == AttentionScale::LayerMax;  // another quantity on its own scale: its own bar
    }
    if (ctx.ask && ctx.ask->occlusion) tiles.push_back(occlusion_tile(ctx, *ctx.ask));
    return out;
}

// How the tiles are laid out: the room for them, the gap between them, the width kept for the shared
// colour bar (0 with a scale per map), what every row of tiles needs besides the pictures (extra_h) and
// what a row with colour bars under its maps needs more (bar_h).
struct TileRoom {
    ImVec2 avail;
    float gap, bar_w, extra_h, bar_h;
    bool own_bars;
    int tok;
};

// How many of the rows of `cols` tiles have colour bars under their maps (every row with a scale per map).
int rows_with_bars(const std::vector<Tile>& tiles, int cols, bool own_bars) {
    int rows = 0;
    for (size_t row = 0; row < tiles.size(); row += cols)
        rows += own_bars || std::any_of(tiles.begin() + row, tiles.begin() + std::min(tiles.size(), row + cols),
                                        [](const Tile& t) { return t.own_bar; });
    return rows;
}

// The side of equal tiles in `cols` columns: each row takes its title and gaps, a row with bars its bars.
float tile_side(const std::vector<Tile>& tiles, const TileRoom& room, int cols) {
    const int rows = (static_cast<int>(tiles.size()) + cols - 1) / cols;
    const float bars = room.bar_h * rows_with_bars(tiles, cols, room.own_bars);
    return std::min(room.avail.x / cols - room.gap, (room.avail.y - bars) / rows - room.extra_h);
}

// The columns that make equal tiles largest in the room.
int grid_columns(const std::vector<Tile>& tiles, const TileRoom& room) {
    int cols = 1;
    for (int c = 2; c <= static_cast<int>(tiles.size()); ++c)
        if (tile_side(tiles, room, c) > tile_side(tiles, room, cols)) cols = c;
    return cols;
}

// One head enlarged to fill the view, the image to click on beside it; returns the big tile's bottom right.
ImVec2 DrawEnlargedHead(ViewContext& ctx, const std::vector<Tile>& tiles, const TileRoom& room) {
    const AppState& st = ctx.state;
    const int H = ctx.pipeline.heads;
    const Tile& big = tiles[1 + st.head];
    const float bars = room.own_bars || big.own_bar ? room.bar_h : 0.f;
    const float side = std::max(40.f, std::min(room.avail.y - room.extra_h - bars, room.avail.x * 0.72f));
    DrawTile(ctx, big, side, room.own_bars, room.tok);
    const ImVec2 big_max = ImGui::GetItemRectMax();
    ImGui::SameLine(0, room.bar_w + 2 * room.gap);
    ImGui::BeginGroup();
    const float small = std::max(40.f, std::min(room.avail.x - side - 3 * room.gap, side * 0.45f));
    DrawTile(ctx, tiles[0], small, room.own_bars, room.tok);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + small);
    ImGui::TextWrapped("head %d of %d (0–%d). H: the next head; Z or a click on the title: all heads.", st.head, H,
                       H - 1);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    return big_max;
}

// Every tile, as large as equal tiles can be in the room; returns the bottom right of them all
// (no less than `from`).
ImVec2 DrawTileGrid(ViewContext& ctx, const std::vector<Tile>& tiles, const TileRoom& room, ImVec2 from) {
    const int n = static_cast<int>(tiles.size());
    const int cols = grid_columns(tiles, room);
    const float side = std::max(40.f, tile_side(tiles, room, cols));
    const bool shorten = short_titles(tiles, side);
    ImVec2 corner = from;
    for (int i = 0; i < n; ++i) {
        if (i % cols) ImGui::SameLine(0, room.gap);
        DrawTile(ctx, tiles[i], side, room.own_bars, room.tok, shorten);
        corner.x = std::max(corner.x, ImGui::GetItemRectMax().x);
        corner.y = std::max(corner.y, ImGui::GetItemRectMax().y);
        if (i % cols == cols - 1 || i == n - 1) ImGui::Dummy(ImVec2(1.f, room.gap * 0.5f));
    }
    return corner;
}

// Below the tiles, at the bottom of the view: what the colours mean.
std::string attention_caption(ViewContext& ctx, const AttentionTiles& at, Range shared) {
    const AttentionScale scale = ctx.state.attention_scale;
    std::string caption = attention_scale_caption(scale, shared, ctx.pipeline.heads, ctx.state.layer);
    if (at.rollout && scale == AttentionScale::LayerMax)
        caption += "; rollout its own, 0 … " + percent(at.roll_range.hi);
    caption += ". Each map: the token's attention over the " + std::to_string(ctx.patches()) + " patches";
    const TokenLayout& layout = ctx.pipeline.layout;
    const std::string kinds = prefix_kinds(layout);
    if (layout.count() == 1) caption += "; CLS: what it gives the CLS token";
    else if (layout.count() > 1) caption += "; " + kinds + ": what it gives those tokens";
    if (kinds.find("REG") != std::string::npos) caption += " (REG: all registers together)";
    return caption + ".";
}

// The tiles' room in `avail`: with one scale for the layer, its colour bar's width kept at their right.
TileRoom tile_room(const AppState& st, int tok, ImVec2 avail) {
    const bool own_bars = st.attention_scale == AttentionScale::EachMap;
    const float gap = std::round(ImGui::GetFontSize() * 0.6f);
    const float bar_w = own_bars ? 0.f : ImGui::CalcTextSize("100%").x + 16.f + 8.f + 2 * gap;
    // Per row of tiles: the title, the half-gap between rows and ImGui's item spacing; and a row with bars
    // (own scales, or a signed map's own) those.
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float extra_h = title_height() + gap * 0.5f + 3 * spacing;
    return {ImVec2(avail.x - bar_w, avail.y), gap, bar_w, extra_h, bar_height() + spacing, own_bars, tok};
}

// The tiles in `avail`, as large as they fit, and (one scale for the layer) its colour bar at their right;
// returns the right edge of what it drew.
float DrawAttentionTiles(ViewContext& ctx, const AttentionTiles& at, Range shared, int tok, ImVec2 avail) {
    const AppState& st = ctx.state;
    const TileRoom room = tile_room(st, tok, avail);
    const ImVec2 tiles_at = ImGui::GetCursorScreenPos();
    const ImVec2 corner =
        st.head >= 0 ? DrawEnlargedHead(ctx, at.tiles, room) : DrawTileGrid(ctx, at.tiles, room, tiles_at);
    if (room.own_bars) return corner.x;
    const float top = tiles_at.y + title_height();  // the one colour bar of the shared scale, as tall as the tiles
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    DrawColorBar(ctx.cache, Colormap::Sequential, shared, ImVec2(corner.x + room.gap, top), 16.f,
                 std::max(corner.y - top, 4 * lh), percent);
    return corner.x + room.bar_w;
}

// The width of a column beside the tiles for the caption when the tiles are larger with it there than with
// the caption under them (the window is wider than the tiles' rows need: presenter mode's grid); 0 if not.
float caption_column(const AppState& st, const AttentionTiles& at, int tok, const std::string& caption, ImVec2 avail,
                     float footer_h) {
    if (st.head >= 0) return 0.f;
    const TileRoom under = tile_room(st, tok, ImVec2(avail.x, avail.y - footer_h));
    float best = tile_side(at.tiles, under, grid_columns(at.tiles, under)), column = 0.f;
    const float em = ImGui::GetFontSize();
    for (float w = 8.f * em; w <= 20.f * em; w += em) {  // narrower than 8 of its letters wide, a caption reads poorly
        if (WrappedHeight(caption, w) > avail.y * 0.8f) continue;
        const TileRoom beside = tile_room(st, tok, ImVec2(avail.x - w - under.gap, avail.y));
        const float side = tile_side(at.tiles, beside, grid_columns(at.tiles, beside));
        if (side > best) best = side, column = w;
    }
    return column;
}

// The attention screen's right half with a comparison model: the CLS token's attention for every
// head of the comparison's block, through the same tile grid and colour bar as the loaded model's
// (no head to enlarge or silence there); a model without a CLS token or without blocks says so.
void DrawComparisonClsAttention(ViewContext& cmp) {
    const Pipeline& p = cmp.pipeline;
    const int layer = cmp.state.layer;
    if (p.depth == 0)
        return (void)ImGui::TextWrapped("This model has no encoder blocks, so there is no attention to show.");
    if (!p.layout.has_cls())
        return (void)ImGui::TextWrapped(
            "This model has no CLS token (its head pools the patches): no CLS attention to show.");
    AttentionTiles at;
    at.layer_maps = layer_attention_maps(cmp, layer, 0);
    if (at.layer_maps.empty()) return (void)ImGui::TextDisabled("The trace has no block %d attention.", layer);
    const AttentionScale scale = cmp.state.attention_scale;
    const int N = cmp.patches();
    for (int h = 0; h < static_cast<int>(at.layer_maps.size()); ++h)
        at.tiles.push_back({"head " + std::to_string(h), " · CLS", at.layer_maps[h],
                            texture_key(cmp, {StageKind::Attn, layer}, h, Colormap::Sequential, Purpose::ComparedCls,
                                        {double(static_cast<int>(scale))}),
                            attention_range(scale, at.layer_maps, N, h), -1});
    DrawAttentionTiles(cmp, at, attention_range(scale, at.layer_maps, N, 0), 0, ImGui::GetContentRegionAvail());
}

}  // namespace

void DrawAttentionScreen(ViewContext& ctx) {
    const Pipeline& p = ctx.pipeline;
    if (p.depth == 0) {
        ImGui::TextDisabled("This model has no encoder blocks, so there is no attention to show.");
        return;
    }
    AppState& st = ctx.state;
    select_layer(st, p, st.layer);
    const int tok = std::clamp(attention_token(st), 0, p.tokens - 1);
    DrawAttentionHeader(ctx, tok);

    const Tensor* attn = ctx.tensor({StageKind::Attn, st.layer});
    const Tensor* roll = ctx.tensor({StageKind::Rollout});
    if (!attn) return;
    const AttentionTiles at = attention_tiles(ctx, tok, roll);

    // The maps of this layer (heads, then their mean) share a scale; rollout is another quantity with its own.
    const Range shared = attention_range(st.attention_scale, at.layer_maps, ctx.patches(), 0);
    // The caption's room: its wrapped lines (at least two, so the tiles do not jump with its length).
    const std::string caption = attention_caption(ctx, at, shared);
    const float footer_h = std::max(ImGui::GetTextLineHeightWithSpacing() * 2.f,
                                    WrappedHeight(caption, ImGui::GetContentRegionAvail().x)) +
                           ImGui::GetStyle().ItemSpacing.y + 4.f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 room(avail.x, avail.y - footer_h);
    const auto tiles = [&](ViewContext& loaded) {
        DrawAttentionTiles(loaded, at, shared, tok, ImGui::GetContentRegionAvail());
    };
    const float column = ctx.comparison ? 0.f : caption_column(st, at, tok, caption, avail, footer_h);
    if (column > 0.f) {  // the caption beside the tiles, at their top
        const ImVec2 top = ImGui::GetCursorScreenPos();
        const float right = DrawAttentionTiles(ctx, at, shared, tok, ImVec2(avail.x - column, avail.y));
        ImGui::SetCursorScreenPos(ImVec2(right + ImGui::GetFontSize(), top.y + title_height()));
        ImGui::BeginChild("caption", ImVec2(column - ImGui::GetFontSize(), avail.y - title_height()));
        Note(caption);
        ImGui::EndChild();
        return;
    }
    if (ctx.comparison) DrawComparisonHalves(ctx, room, tiles, DrawComparisonClsAttention);
    else DrawAttentionTiles(ctx, at, shared, tok, room);
    ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), ImGui::GetWindowContentRegionMax().y - footer_h));
    Note(caption);
}

}  // namespace vit::gui
