// The whole model at a glance (CNN Explainer's overview): every stage of the
// pipeline as a small picture of its tensor, in order, one row per block
// (overview_layout.h), arrows for the flow from stage to stage and, under each
// block, the residual stream skipping around attention and the MLP to be added
// back at res1 and out. The current stage is outlined; a click goes there.
// Thumbnails are the stage view's own textures (same cache keys).
#include <algorithm>

#include "logic/describe/overview_layout.h"
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

// A stage's name centred above `top_centre` in at most `width` pixels: the id inside its block
// ("ln1"), in a font down to kSmallestName of the size if need be (names_cut() says when
// even that is too wide: the overview numbers the columns instead).
void DrawStageName(ImDrawList* dl, const StageRef& stage, ImVec2 top_centre, float width, ImU32 col) {
    ImFont* font = ImGui::GetFont();
    const std::string name = stage_def(stage.kind).name;
    auto w = [&](const std::string& s, float size) { return font->CalcTextSizeA(size, FLT_MAX, 0.f, s.c_str()).x; };
    float size = ImGui::GetFontSize();
    size = std::max(size * kSmallestName, std::min(size, size * width / std::max(w(name, size), 1.f)));
    dl->AddText(font, size, ImVec2(top_centre.x - w(name, size) / 2, top_centre.y + ImGui::GetFontSize() - size), col, name.c_str());
}

// Whether some stage name above a row would be cut even at the smallest size.
bool names_cut(const Pipeline& p, const OverviewLayout& L, float gap) {
    const float room = L.thumb_w + gap - 2.f;
    for (const OverviewRow& r : L.rows)
        for (int i = r.first; r.names && i < r.first + r.count; ++i)
            if (ImGui::CalcTextSize(stage_def(p.stages[i].kind).name).x * kSmallestName > room) return true;
    return false;
}

// "3  patch_embed": column number and stage name, a legend line.
std::string legend_line(const Pipeline& p, const OverviewRow& r, int i) {
    return std::to_string(i - r.first + 1) + "  " + stage_def(p.stages[i].kind).name;
}

// The legend at `x`: for each row that carries names, its group ("Block") and its
// numbered stage names one a line, in the smallest name size.
void DrawLegend(ImDrawList* dl, const Pipeline& p, const OverviewLayout& L, ImVec2 at, ImU32 text, ImU32 dim) {
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize() * kSmallestName, line = size * 1.25f;
    for (const OverviewRow& r : L.rows) {
        if (!r.names) continue;
        const std::string group = p.depth > 0 && r.group >= 1 && r.group <= p.depth ? "Blocks" : group_name(p, r.group);
        dl->AddText(font, size, at, text, group.c_str());
        at.y += line;
        for (int i = r.first; i < r.first + r.count; ++i, at.y += line)
            dl->AddText(font, size, ImVec2(at.x + size, at.y), dim, legend_line(p, r, i).c_str());
        at.y += line * 0.5f;
    }
}

}  // namespace

void DrawOverviewScreen(ViewContext& ctx) {
    const Pipeline& p = ctx.pipeline;
    AppState& st = ctx.state;
    ImGui::PushFont(ctx.heading());
    ImGui::TextUnformatted("The whole model at a glance");
    ImGui::PopFont();
    Note("Every stage in order, one row per block (all heads: head " + std::to_string(std::max(st.head, 0)) +
         "). Grey arrows: one stage feeds the next. Blue arrows: the residual stream skips around attention and the MLP "
         "and is added back at res1 and out. Click a picture to open that stage.");

    const float lh = ImGui::GetTextLineHeight();
    OverviewSizes s;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    s.width = avail.x;
    s.height = avail.y;
    s.label_w = ImGui::CalcTextSize("Embedding").x + lh;
    s.name_h = lh + 2.f;
    s.skip_h = std::max(10.f, lh * 0.7f);
    s.gap = std::max(10.f, lh * 0.7f);
    OverviewLayout L = overview_layout(p, s);
    // Names that would be cut (a deep model, a large font): numbered columns, the names in a legend at the right.
    const bool numbered = names_cut(p, L, s.gap);
    float legend_w = 0.f;
    if (numbered) {
        for (const OverviewRow& r : L.rows)
            for (int i = r.first; r.names && i < r.first + r.count; ++i)
                legend_w = std::max(legend_w, ImGui::CalcTextSize(legend_line(p, r, i).c_str()).x * kSmallestName);
        legend_w += ImGui::GetFontSize() * kSmallestName + s.gap * 2.f;
        s.width -= legend_w;
        L = overview_layout(p, s);
    }
    const ImVec2 o = ImGui::GetCursorScreenPos();
    auto at = [&](float x, float y) { return ImVec2(o.x + x, o.y + y); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

    for (const OverviewRow& r : L.rows) {
        const LayoutRect& first = L.thumbs[r.first];
        if (r.group_start) {
            std::string name = group_name(p, r.group);
            ImVec2 ts = ImGui::CalcTextSize(name.c_str());
            dl->AddText(at(s.label_w - s.gap - ts.x, first.y + (first.h - ts.y) / 2), p.group[st.stage] == r.group ? kCurrent : text,
                        name.c_str());
        }
        for (int i = r.first; i < r.first + r.count; ++i) {
            const LayoutRect& t = L.thumbs[i];
            if (r.names && numbered) {
                const std::string n = std::to_string(i - r.first + 1);
                dl->AddText(at(t.x + (t.w - ImGui::CalcTextSize(n.c_str()).x) / 2, t.y - s.name_h), dim, n.c_str());
            } else if (r.names) {
                DrawStageName(dl, p.stages[i], at(t.x + t.w / 2, t.y - s.name_h), t.w + s.gap - 2.f, dim);
            }
            if (i > r.first)  // the flow from the stage before, in the gap
                Arrow(dl, at(t.x - s.gap + 1, t.y + t.h / 2), at(t.x - 1, t.y + t.h / 2), kFlow, std::min(6.f, s.gap * 0.5f), 1.5f);
            CachedTexture tex = thumbnail(ctx, p.stages[i]);
            // Tensors fill their box; the picture keeps its square shape, centred.
            const bool square = p.stages[i].kind == StageKind::Input;
            const float px = square ? std::max(0.f, t.w - t.h) / 2 : 0.f, py = square ? std::max(0.f, t.h - t.w) / 2 : 0.f;
            if (tex.id) dl->AddImage(reinterpret_cast<ImTextureID>(tex.id), at(t.x + px, t.y + py), at(t.x + t.w - px, t.y + t.h - py));
            dl->AddRect(at(t.x - 1, t.y - 1), at(t.x + t.w + 1, t.y + t.h + 1), kFlow);
        }
    }
    // The residual stream: leaves before `from`, runs under the row, is added back at `to`.
    for (const OverviewSkip& k : L.skips) {
        const LayoutRect &a = L.thumbs[k.from], &b = L.thumbs[k.to];
        float y = a.y + a.h + s.skip_h * 0.6f, x0 = a.x - s.gap * 0.5f, x1 = b.x + b.w * 0.5f;
        dl->AddLine(at(x0, a.y + a.h / 2), at(x0, y), kResidual, 2.f);
        dl->AddLine(at(x0, y), at(x1, y), kResidual, 2.f);
        Arrow(dl, at(x1, y), at(x1, b.y + b.h + 1), kResidual, std::min(6.f, s.skip_h * 0.5f), 2.f);
    }
    if (numbered) DrawLegend(dl, p, L, at(s.width + s.gap * 2.f, 0.f), text, dim);
    const LayoutRect& cur = L.thumbs[st.stage];
    dl->AddRect(at(cur.x - 3, cur.y - 3), at(cur.x + cur.w + 3, cur.y + cur.h + 3), kCurrent, 0.f, 0, 3.f);

    ImGui::InvisibleButton("overview", ImVec2(std::max(1.f, s.width + legend_w), std::max(1.f, s.height)));
    if (ImGui::IsItemHovered()) {
        ImVec2 m = ImGui::GetIO().MousePos;
        int i = overview_hit(L, m.x - o.x, m.y - o.y);
        if (i >= 0) {
            const LayoutRect& t = L.thumbs[i];
            dl->AddRect(at(t.x - 2, t.y - 2), at(t.x + t.w + 2, t.y + t.h + 2), IM_COL32(255, 255, 255, 255), 0.f, 0, 2.f);
            const Tensor* tensor = ctx.tensor(p.stages[i]);
            ImGui::BeginTooltip();
            ImGui::Text("%s  %s", p.ids[i].c_str(), tensor ? shape_string(tensor->shape).c_str() : "");
            ImGui::TextDisabled("%s", stage_def(p.stages[i].kind).title);
            ImGui::TextDisabled("click: open this stage");
            ImGui::EndTooltip();
            if (ImGui::IsItemClicked()) {
                go_to_stage(st, p, i);
                st.screen = Screen::Stage;
            }
        }
    }
}

}  // namespace vit::gui
