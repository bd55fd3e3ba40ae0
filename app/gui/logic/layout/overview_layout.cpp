// The overview screen's geometry: rows of thumbnails, their names and residual skips.
#include "logic/layout/overview_layout.h"

#include <algorithm>

namespace vit::gui {

// Stages [first, first + count) as rows: one per group, with every block (`split`) or only
// block `focus` cut before ln2.
static std::vector<OverviewRow> make_rows(const Pipeline& p, bool split, int focus = -1) {
    std::vector<OverviewRow> rows;
    for (int i = 0; i < p.size(); ++i) {
        bool new_group = i == 0 || p.group[i] != p.group[i - 1];
        bool cut = (split || p.group[i] == 1 + focus) && p.stages[i].kind == StageKind::Ln2;
        if (new_group || cut) rows.push_back({p.group[i], i, 0, false, new_group, {}});
        ++rows.back().count;
    }
    for (size_t r = 0; r < rows.size(); ++r) {
        bool same = r > 0 && rows[r].count == rows[r - 1].count;
        for (int c = 0; same && c < rows[r].count; ++c)
            same = p.stages[rows[r].first + c].kind == p.stages[rows[r - 1].first + c].kind;
        rows[r].names = !same;
    }
    return rows;
}

static bool is_block_row(const Pipeline& p, const OverviewRow& r) { return r.group >= 1 && r.group <= p.depth; }

static OverviewLayout layout_rows(const Pipeline& p, const OverviewSizes& s, bool split) {
    OverviewLayout L;
    L.split_blocks = split;
    L.rows = make_rows(p, split);
    int cols = 1;
    float fixed_h = 0;  // names and skip bands
    for (const OverviewRow& r : L.rows) {
        cols = std::max(cols, r.count);
        fixed_h += (r.names ? s.name_h : 0.f) + (is_block_row(p, r) ? s.skip_h : 0.f) + s.gap;
    }
    const int n = static_cast<int>(L.rows.size());
    float by_w = (s.width - s.label_w) / cols - s.gap;
    float by_h = (s.height - fixed_h) / std::max(n, 1);
    const float side = std::max(0.f, std::min(by_w, by_h));
    L.thumb_w = std::min(by_w, side * kMaxThumbWide);
    L.thumb_h = std::min(by_h, side * kMaxThumbTall);
    L.thumbs.resize(p.size());
    float y = 0;
    for (OverviewRow& r : L.rows) {
        float top = y;
        if (r.names) y += s.name_h;
        for (int c = 0; c < r.count; ++c)
            L.thumbs[r.first + c] = {s.label_w + c * (L.thumb_w + s.gap), y, L.thumb_w, L.thumb_h};
        y += L.thumb_h + (is_block_row(p, r) ? s.skip_h : 0.f) + s.gap;
        r.band = {0, top, s.width, y - top};
    }
    for (const OverviewRow& r : L.rows) {
        if (!is_block_row(p, r)) continue;
        // The stream leaves at a LayerNorm and is added back at the row's residual stage.
        for (int from = r.first; from < r.first + r.count; ++from) {
            StageKind k = p.stages[from].kind;
            StageKind add = k == StageKind::Ln1 ? StageKind::Res1 : k == StageKind::Ln2 ? StageKind::Out : k;
            if (add == k) continue;
            int to = p.index_of(StageRef{add, p.stages[from].block});
            if (to >= 0) L.skips.push_back({from, to});
        }
    }
    return L;
}

// A deep model with block `s.focus` large (see the header): its two halves as rows of wide
// thumbnails with names and skips, the embedding and head rows as in `whole`, the other blocks
// as strips kStripShare of a plain row; `whole` itself when the block would not come out larger.
static OverviewLayout focus_rows(const Pipeline& p, const OverviewSizes& s, const OverviewLayout& whole) {
    OverviewLayout L = whole;
    L.focus = s.focus;
    L.rows = make_rows(p, false, s.focus);  // names set below
    // The embedding and head rows keep their height (at least a line's); the strips the whole width.
    const float plain = std::max(whole.thumb_h, s.name_h), strip = std::max(4.f, whole.thumb_h * kStripShare);
    const float strip_gap = 2.f;
    float fixed = 0.f;  // everything but the focused rows' thumbnails
    int focus_rows_n = 0, focus_cols = 1, cols = 1;
    for (OverviewRow& r : L.rows) {
        cols = std::max(cols, r.count);
        const bool focused = r.group == 1 + s.focus, block = is_block_row(p, r);
        r.names = !block || focused;
        fixed += r.names ? s.name_h : 0.f;
        if (focused) fixed += s.skip_h + s.gap, ++focus_rows_n, focus_cols = std::max(focus_cols, r.count);
        else fixed += block ? strip + strip_gap : plain + s.gap;
    }
    const float wide = (s.width - s.label_w) / focus_cols - s.gap;
    const float tall = std::min((s.height - fixed) / std::max(focus_rows_n, 1), wide * kMaxThumbTall);
    if (tall < 2.f * plain) return whole;  // not worth it
    const float narrow = std::min((s.width - s.label_w) / cols - s.gap, plain * kMaxThumbWide);
    L.thumb_w = wide;
    L.thumb_h = tall;
    float y = 0;
    for (OverviewRow& r : L.rows) {
        const bool focused = r.group == 1 + s.focus, block = is_block_row(p, r);
        const float top = y, h = focused ? tall : block ? strip : plain;
        const float w = focused ? wide : block ? (s.width - s.label_w) / cols - s.gap : narrow;
        if (r.names) y += s.name_h;
        for (int c = 0; c < r.count; ++c) L.thumbs[r.first + c] = {s.label_w + c * (w + s.gap), y, w, h};
        y += h + (focused ? s.skip_h + s.gap : block ? strip_gap : s.gap);
        r.band = {0, top, s.width, y - top};
    }
    L.skips.clear();
    for (const OverviewSkip& k : whole.skips)
        if (p.stages[k.from].block == s.focus) L.skips.push_back(k);
    return L;
}

OverviewLayout overview_layout(const Pipeline& p, const OverviewSizes& sizes) {
    OverviewLayout whole = layout_rows(p, sizes, false);
    if (p.depth == 0) return whole;
    if (sizes.focus >= 0 && sizes.focus < p.depth && whole.thumb_h < kFocusBelow * sizes.name_h)
        return focus_rows(p, sizes, whole);
    OverviewLayout split = layout_rows(p, sizes, true);
    return split.thumb_w * split.thumb_h > whole.thumb_w * whole.thumb_h ? split : whole;
}

int overview_hit(const OverviewLayout& layout, float x, float y) {
    for (size_t i = 0; i < layout.thumbs.size(); ++i)
        if (layout.thumbs[i].contains(x, y)) return static_cast<int>(i);
    return -1;
}

}  // namespace vit::gui
