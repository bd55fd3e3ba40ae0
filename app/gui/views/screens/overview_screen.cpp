// The whole model at a glance (CNN Explainer's overview): every stage of the
// pipeline as a small picture of its tensor, in order, one row per block
// (overview_layout.h), arrows for the flow from stage to stage and, under each
// block, the residual stream skipping around attention and the MLP to be added
// back at res1 and out. The current stage is outlined; a click goes there.
// Thumbnails are the stage view's own textures (same cache keys).
#include <algorithm>

#include "logic/layout/overview_layout.h"
#include "views/widgets/views.h"

namespace vit::gui {

namespace {

const ImU32 kFlow = IM_COL32(150, 150, 165, 255);
const ImU32 kResidual = IM_COL32(90, 200, 230, 255);
const ImU32 kCurrent = IM_COL32(255, 200, 0, 255);

// The texture of stage i: the picture for `input`, else its heatmap (head 0, or
// the chosen head, of an H×T×… stage).
CachedTexture thumbnail(ViewContext& ctx, const StageRef& stage) {
    if (stage.kind == StageKind::Input) return model_picture_texture(ctx);
    const Tensor* t = ctx.tensor(stage);
    if (!t || t->data.empty()) return {};
    const int slice = t->rank() == 3 ? std::max(ctx.state.head, 0) : -1;
    return HeatmapTexture(ctx.cache, stage_spec(ctx, stage, *t, slice).matrix);
}

void Arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float head, float thick) {
    dl->AddLine(a, b, col, thick);
    ImVec2 d(b.x - a.x, b.y - a.y);
    float len = std::max(1e-3f, std::sqrt(d.x * d.x + d.y * d.y));
    d = ImVec2(d.x / len, d.y / len);
    ImVec2 n(-d.y, d.x);
    dl->AddTriangleFilled(b, ImVec2(b.x - d.x * head + n.x * head * 0.6f, b.y - d.y * head + n.y * head * 0.6f),
                          ImVec2(b.x - d.x * head - n.x * head * 0.6f, b.y - d.y * head - n.y * head * 0.6f), col);
}

// Stage names may shrink to this share of the font (in presenter mode, still the normal size).
constexpr float kSmallestName = 0.6f;
// The legend's lines take this share of the font: it has a column of its own, so it need not shrink as
// far as a name squeezed above its picture (large enough for the back row in presenter mode).
constexpr float kLegendName = 0.8f;

// A stage's name centred above `top_centre` in at most `width` pixels: the id inside its block
// ("ln1"), in a font down to kSmallestName of the size if need be (names_cut() says when
// even that is too wide: the overview numbers the columns instead).
void DrawStageName(ImDrawList* dl, const StageRef& stage, ImVec2 top_centre, float width, ImU32 col) {
    ImFont* font = ImGui::GetFont();
    const std::string name = stage_def(stage.kind).name;
    auto w = [&](const std::string& s, float size) { return font->CalcTextSizeA(size, FLT_MAX, 0.f, s.c_str()).x; };
    float size = ImGui::GetFontSize();
    size = std::max(size * kSmallestName, std::min(size, size * width / std::max(w(name, size), 1.f)));
    dl->AddText(font, size, ImVec2(top_centre.x - w(name, size) / 2, top_centre.y + ImGui::GetFontSize() - size), col,
                name.c_str());
}

// Whether some stage name above a row would be cut even at the smallest size, each name having
// the room of `span` columns (2: the names alternate between two lines).
bool names_cut(const Pipeline& p, const OverviewLayout& L, float gap, int span) {
    for (const OverviewRow& r : L.rows)
        for (int i = r.first; r.names && i < r.first + r.count; ++i)
            if (ImGui::CalcTextSize(stage_def(p.stages[i].kind).name).x * kSmallestName >
                span * (L.thumbs[i].w + gap) - 2.f)
                return true;
    return false;
}

// "3  patch_embed": column number and stage name, a legend line.
std::string legend_line(const Pipeline& p, const OverviewRow& r, int i) {
    return std::to_string(i - r.first + 1) + "  " + stage_def(p.stages[i].kind).name;
}

// The legend at `x`: for each row that carries names, its group ("Block") and its
// numbered stage names one a line, in the legend's size or smaller to fit `height`.
void DrawLegend(ImDrawList* dl, const Pipeline& p, const OverviewLayout& L, ImVec2 at, float height, ImU32 text) {
    ImFont* font = ImGui::GetFont();
    float lines = 0.f;  // a group's name, its stages, half a line after them
    for (const OverviewRow& r : L.rows)
        if (r.names) lines += r.count + 1.5f;
    const float size = std::min(ImGui::GetFontSize() * kLegendName, height / std::max(lines * 1.25f, 1.f));
    const float line = size * 1.25f;
    for (const OverviewRow& r : L.rows) {
        if (!r.names) continue;
        const std::string group = p.depth > 0 && r.group >= 1 && r.group <= p.depth ? "Blocks" : group_name(p, r.group);
        dl->AddText(font, size, at, text, group.c_str());
        at.y += line;
        for (int i = r.first; i < r.first + r.count; ++i, at.y += line)
            dl->AddText(font, size, ImVec2(at.x + size, at.y), text, legend_line(p, r, i).c_str());
        at.y += line * 0.5f;
    }
}

// The overview's sizes and layout for the room left, and how the stage names fit: on one line, on
// two lines taking turns (each name with two columns' room: presenter mode's large font), or, when
// even that would cut them, numbered with a legend `legend_w` wide at the right (a deep model).
struct OverviewPlan {
    OverviewSizes s;
    OverviewLayout L;
    bool staggered = false;
    bool numbered = false;
    float legend_w = 0.f;
};

OverviewPlan plan_overview(const Pipeline& p, int focus) {
    OverviewPlan plan;
    OverviewSizes& s = plan.s;
    s.focus = focus;
    const float lh = ImGui::GetTextLineHeight();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    s.width = avail.x;
    s.height = avail.y;
    s.label_w = ImGui::CalcTextSize("Embedding").x + lh;
    s.name_h = lh + 2.f;
    s.skip_h = std::max(10.f, lh * 0.7f);
    s.gap = std::max(10.f, lh * 0.7f);
    plan.L = overview_layout(p, s);
    if (names_cut(p, plan.L, s.gap, 1)) {
        s.name_h = 2.f * lh + 2.f;
        plan.L = overview_layout(p, s);
        plan.staggered = !names_cut(p, plan.L, s.gap, 2);
        plan.numbered = !plan.staggered;
    }
    if (plan.numbered) {
        s.name_h = lh + 2.f;
        for (const OverviewRow& r : plan.L.rows)
            for (int i = r.first; r.names && i < r.first + r.count; ++i)
                plan.legend_w =
                    std::max(plan.legend_w, ImGui::CalcTextSize(legend_line(p, r, i).c_str()).x * kLegendName);
        plan.legend_w += ImGui::GetFontSize() * kLegendName + s.gap * 2.f;
        s.width -= plan.legend_w;
        plan.L = overview_layout(p, s);
    }
    return plan;
}

// Where the overview is drawn: its top-left corner on the screen, the draw list and the text colours.
struct Canvas {
    ImVec2 o;
    ImDrawList* dl;
    ImU32 text, dim;
    ImVec2 at(float x, float y) const { return ImVec2(o.x + x, o.y + y); }
};

// Stage i's thumbnail in its box `t` (the picture keeps its square shape, centred; tensors fill the box),
// with its name or column number above and the flow arrow from the stage before.
void DrawThumbnail(ViewContext& ctx, const OverviewPlan& plan, const Canvas& c, const OverviewRow& r, int i) {
    const Pipeline& p = ctx.pipeline;
    const OverviewSizes& s = plan.s;
    const LayoutRect& t = plan.L.thumbs[i];
    if (r.names && plan.numbered) {
        const std::string n = std::to_string(i - r.first + 1);
        c.dl->AddText(c.at(t.x + (t.w - ImGui::CalcTextSize(n.c_str()).x) / 2, t.y - s.name_h), c.dim, n.c_str());
    } else if (r.names && plan.staggered) {  // even columns on the upper line, odd ones on the lower
        const float y = t.y - s.name_h + ((i - r.first) % 2 ? ImGui::GetTextLineHeight() : 0.f);
        DrawStageName(c.dl, p.stages[i], c.at(t.x + t.w / 2, y), 2.f * (t.w + s.gap) - 2.f, c.dim);
    } else if (r.names) {
        DrawStageName(c.dl, p.stages[i], c.at(t.x + t.w / 2, t.y - s.name_h), t.w + s.gap - 2.f, c.dim);
    }
    if (i > r.first && t.h >= 8.f)  // the flow from the stage before, in the gap (not between strips)
        Arrow(c.dl, c.at(t.x - s.gap + 1, t.y + t.h / 2), c.at(t.x - 1, t.y + t.h / 2), kFlow,
              std::min(6.f, s.gap * 0.5f), 1.5f);
    CachedTexture tex = thumbnail(ctx, p.stages[i]);
    const bool square = p.stages[i].kind == StageKind::Input;
    const float px = square ? std::max(0.f, t.w - t.h) / 2 : 0.f, py = square ? std::max(0.f, t.h - t.w) / 2 : 0.f;
    if (tex.id)
        c.dl->AddImage(reinterpret_cast<ImTextureID>(tex.id), c.at(t.x + px, t.y + py),
                       c.at(t.x + t.w - px, t.y + t.h - py));
    c.dl->AddRect(c.at(t.x - 1, t.y - 1), c.at(t.x + t.w + 1, t.y + t.h + 1), kFlow);
}

// Each row: its group's name at the left where a group starts (the current group's in colour), then its thumbnails.
void DrawRows(ViewContext& ctx, const OverviewPlan& plan, const Canvas& c) {
    const Pipeline& p = ctx.pipeline;
    const OverviewSizes& s = plan.s;
    float free_y = -FLT_MAX;  // below the last name written: strips thinner than a name skip theirs
    for (const OverviewRow& r : plan.L.rows) {
        const LayoutRect& first = plan.L.thumbs[r.first];
        const std::string name = group_name(p, r.group);
        const float size = std::max(ImGui::GetFontSize() * kSmallestName, std::min(ImGui::GetFontSize(), r.band.h));
        const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.f, name.c_str());
        const float y = first.y + (first.h - ts.y) / 2;
        if (r.group_start && y >= free_y) {
            c.dl->AddText(ImGui::GetFont(), size, c.at(s.label_w - s.gap - ts.x, y),
                          p.group[ctx.state.stage] == r.group ? kCurrent : c.text, name.c_str());
            free_y = y + ts.y;
        }
        for (int i = r.first; i < r.first + r.count; ++i) DrawThumbnail(ctx, plan, c, r, i);
    }
}

// The residual stream: leaves before `from`, runs under the row, is added back at `to`.
void DrawSkips(const OverviewPlan& plan, const Canvas& c) {
    const OverviewSizes& s = plan.s;
    for (const OverviewSkip& k : plan.L.skips) {
        const LayoutRect &a = plan.L.thumbs[k.from], &b = plan.L.thumbs[k.to];
        float y = a.y + a.h + s.skip_h * 0.6f, x0 = a.x - s.gap * 0.5f, x1 = b.x + b.w * 0.5f;
        c.dl->AddLine(c.at(x0, a.y + a.h / 2), c.at(x0, y), kResidual, 2.f);
        c.dl->AddLine(c.at(x0, y), c.at(x1, y), kResidual, 2.f);
        Arrow(c.dl, c.at(x1, y), c.at(x1, b.y + b.h + 1), kResidual, std::min(6.f, s.skip_h * 0.5f), 2.f);
    }
}

// The overview as one button: the stage under the mouse is outlined, named in a tooltip, and opened by a click.
void HandleOverviewMouse(ViewContext& ctx, const OverviewPlan& plan, const Canvas& c) {
    const Pipeline& p = ctx.pipeline;
    ImGui::InvisibleButton("overview",
                           ImVec2(std::max(1.f, plan.s.width + plan.legend_w), std::max(1.f, plan.s.height)));
    if (!ImGui::IsItemHovered()) return;
    ImVec2 m = ImGui::GetIO().MousePos;
    int i = overview_hit(plan.L, m.x - c.o.x, m.y - c.o.y);
    if (i < 0) return;
    const LayoutRect& t = plan.L.thumbs[i];
    c.dl->AddRect(c.at(t.x - 2, t.y - 2), c.at(t.x + t.w + 2, t.y + t.h + 2), IM_COL32(255, 255, 255, 255), 0.f, 0,
                  2.f);
    const Tensor* tensor = ctx.tensor(p.stages[i]);
    // A strip (a block other than the one drawn large) is too thin to aim at a stage: a click enlarges its block.
    const int block = p.stages[i].block;
    const bool strip = plan.L.focus >= 0 && block >= 0 && block != plan.L.focus;
    ImGui::BeginTooltip();
    ImGui::Text("%s  %s", p.ids[i].c_str(), tensor ? shape_string(tensor->shape).c_str() : "");
    ImGui::TextDisabled("%s", stage_def(p.stages[i].kind).title);
    ImGui::TextDisabled(strip ? "click: draw this block large" : "click: open this stage");
    ImGui::EndTooltip();
    if (!ImGui::IsItemClicked()) return;
    if (strip) return select_layer(ctx.state, p, block);
    go_to_stage(ctx.state, p, i);
    ctx.state.screen = Screen::Stage;
}

}  // namespace

void DrawOverviewScreen(ViewContext& ctx) {
    const Pipeline& p = ctx.pipeline;
    AppState& st = ctx.state;
    ImGui::PushFont(ctx.heading());
    ImGui::TextUnformatted("The whole model at a glance");
    ImGui::PopFont();
    const bool focused = plan_overview(p, st.layer).L.focus >= 0;  // the note's room aside: geometry only
    Note(
        "Every stage in order, one row per block (all heads: head " + std::to_string(std::max(st.head, 0)) +
        "). Grey arrows: one stage feeds the next. Blue arrows: the residual stream skips around attention and the MLP "
        "and is added back at res1 and out. Click a picture to open that stage." +
        (focused ? " Block " + std::to_string(st.layer) +
                       " is drawn large, the others as strips: click a strip to "
                       "enlarge its block (PgUp PgDn step through them)."
                 : std::string()));
    StreamBlocksNote(ctx);

    const OverviewPlan plan = plan_overview(p, st.layer);
    const Canvas c{ImGui::GetCursorScreenPos(), ImGui::GetWindowDrawList(), ImGui::GetColorU32(ImGuiCol_Text),
                   ImGui::GetColorU32(ImGuiCol_TextDisabled)};
    DrawRows(ctx, plan, c);
    DrawSkips(plan, c);
    if (plan.numbered) DrawLegend(c.dl, p, plan.L, c.at(plan.s.width + plan.s.gap * 2.f, 0.f), plan.s.height, c.text);
    const LayoutRect& cur = plan.L.thumbs[st.stage];
    c.dl->AddRect(c.at(cur.x - 3, cur.y - 3), c.at(cur.x + cur.w + 3, cur.y + cur.h + 3), kCurrent, 0.f, 0, 3.f);
    HandleOverviewMouse(ctx, plan, c);
}

}  // namespace vit::gui
