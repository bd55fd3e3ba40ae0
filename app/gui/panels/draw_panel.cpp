// The "Draw a digit" window (see draw_panel.h).
#include "panels/draw_panel.h"

#include <imgui.h>

#include <algorithm>

#include "views/widgets/digit_widgets.h"

namespace vit::gui {

static void DrawCanvas(DrawPanelState& panel, float side) {
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##canvas", ImVec2(side, side));
    const float k = side / panel.canvas.side();  // screen px per canvas px
    if (ImGui::IsItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        ImVec2 m = ImGui::GetIO().MousePos;
        CanvasPoint here{std::clamp((m.x - p0.x) / k, 0.f, float(panel.canvas.side())),
                         std::clamp((m.y - p0.y) / k, 0.f, float(panel.canvas.side()))};
        if (!panel.stroking || here.x != panel.last.x || here.y != panel.last.y)
            panel.canvas.add_stroke_segment(panel.stroking ? panel.last : here, here, panel.thickness);
        panel.last = here;
        panel.stroking = true;
    } else {
        panel.stroking = false;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p1(p0.x + side, p0.y + side);
    dl->PushClipRect(p0, p1, true);
    dl->AddRectFilled(p0, p1, IM_COL32(0, 0, 0, 255));
    // MNIST's 20-px box inside 28: a faint guide for where a digit should go.
    float m = side * 4.f / 28.f;
    dl->AddRect(ImVec2(p0.x + m, p0.y + m), ImVec2(p1.x - m, p1.y - m), IM_COL32(70, 70, 90, 255), 0.f, 0, 1.f);
    const ImU32 ink = IM_COL32(255, 255, 255, 255);
    for (const CanvasSegment& s : panel.canvas.segments()) {
        ImVec2 a(p0.x + s.from.x * k, p0.y + s.from.y * k), b(p0.x + s.to.x * k, p0.y + s.to.y * k);
        float r = s.thickness * 0.5f * k;
        dl->AddCircleFilled(a, r, ink, 20);
        dl->AddCircleFilled(b, r, ink, 20);
        if (a.x != b.x || a.y != b.y) dl->AddLine(a, b, ink, 2.f * r);
    }
    dl->PopClipRect();
    dl->AddRect(p0, p1, IM_COL32(120, 120, 140, 255));
    if (panel.canvas.empty()) {
        const char* hint = "draw a digit here";
        ImVec2 ts = ImGui::CalcTextSize(hint);
        dl->AddText(ImVec2(p0.x + (side - ts.x) * 0.5f, p0.y + (side - ts.y) * 0.5f), IM_COL32(150, 150, 160, 255),
                    hint);
    }
}

static void DrawPrediction(const DrawPanelState& panel, const Trace* trace, const Model* model, bool busy) {
    bool current = trace && panel.shown_version == panel.canvas.version();
    if (!trace || !model || panel.shown_version == ~0ull) {
        ImGui::TextDisabled(busy ? "computing…" : "draw to see the prediction");
        return;
    }
    DrawTopPredictions(*trace, *model, 3, current ? "prediction" : "prediction (updating…)");
}

void DrawDrawPanel(DrawPanelState& panel, const Trace* trace, const Model* model, bool busy) {
    if (!panel.visible) return;
    // Docked at the top of the side column: it covers no picture and no navigator.
    ImGui::TextUnformatted("Draw a digit");
    ImGui::SameLine(ImGui::GetContentRegionMax().x - ImGui::CalcTextSize("Close").x -
                    ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton("Close")) panel.visible = false;
    const float width = ImGui::GetContentRegionAvail().x;
    const float side = std::min(width, ImGui::GetFontSize() * 17.f);
    DrawCanvas(panel, side);
    if (ImGui::Button("Clear")) panel.canvas.clear();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(side - ImGui::GetItemRectSize().x - ImGui::GetStyle().ItemSpacing.x);
    ImGui::SliderFloat("##thickness", &panel.thickness, 6.f, 48.f, "stroke %.0f px");
    // What the model sees, small, beside the prediction (which keeps at least 9 font sizes for its bars).
    ImGui::TextWrapped("the model sees (%d×%d), and says", kMnistSide, kMnistSide);
    const float cell =
        std::max(2.f, std::min(ImGui::GetFontSize() * 0.3f, (width - ImGui::GetFontSize() * 9.f) / kMnistSide));
    if (panel.preview) DrawGreyImage(*panel.preview, cell);
    else DrawGreyImage(to_mnist(panel.canvas), cell);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("cropped to the ink, scaled to %d px, centred by mass, like MNIST", kMnistBox);
    ImGui::SameLine();
    ImGui::BeginGroup();
    DrawPrediction(panel, trace, model, busy);
    ImGui::EndGroup();
}

}  // namespace vit::gui
