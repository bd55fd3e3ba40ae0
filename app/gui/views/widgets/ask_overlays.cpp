// Patch marks, painting and silenced-head veils (see ask_overlays.h).
#include "views/widgets/ask_overlays.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace vit::gui {

static const ImU32 kMaskFill = IM_COL32(90, 90, 100, 215), kMaskLine = IM_COL32(220, 220, 230, 200);
static const ImU32 kDropFill = IM_COL32(200, 30, 40, 120), kDropLine = IM_COL32(255, 70, 70, 255);

static void MaskedCell(ImDrawList* dl, ImVec2 a, ImVec2 b) {
    dl->AddRectFilled(a, b, kMaskFill);
    const float w = b.x - a.x, step = std::max(4.f, w / 4.f);
    dl->PushClipRect(a, b, true);
    for (float o = step * 0.5f; o < 2.f * w; o += step)  // hatching
        dl->AddLine(ImVec2(a.x + o, a.y), ImVec2(a.x + o - w, b.y), kMaskLine, 1.f);
    dl->PopClipRect();
}

static const ImU32 kPendingFill = IM_COL32(70, 70, 74, 255), kPendingDot = IM_COL32(150, 150, 156, 255);

// Not a value: opaque grey with three dots ("…"), unlike the colour scale and the masked patches' hatching.
static void PendingCell(ImDrawList* dl, ImVec2 a, ImVec2 b) {
    dl->AddRectFilled(a, b, kPendingFill);
    const float w = b.x - a.x, r = std::max(0.75f, w * 0.05f), y = (a.y + b.y) * 0.5f;
    for (int i = -1; i <= 1; ++i) dl->AddCircleFilled(ImVec2(a.x + w * (0.5f + 0.22f * i), y), r, kPendingDot);
}

static void DroppedCell(ImDrawList* dl, ImVec2 a, ImVec2 b) {
    dl->AddRectFilled(a, b, kDropFill);
    const float th = std::max(1.5f, (b.x - a.x) * 0.08f), in = (b.x - a.x) * 0.18f;
    dl->AddLine(ImVec2(a.x + in, a.y + in), ImVec2(b.x - in, b.y - in), kDropLine, th);
    dl->AddLine(ImVec2(b.x - in, a.y + in), ImVec2(a.x + in, b.y - in), kDropLine, th);
    dl->AddRect(a, b, kDropLine, 0.f, 0, 1.5f);
}

void DrawPatchMarks(const AskState& ask, ImVec2 p0, ImVec2 p1, int grid) {
    if (grid <= 0 || static_cast<int>(ask.marks.size()) != grid * grid) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float cell = (p1.x - p0.x) / grid;
    for (int p = 0; p < grid * grid; ++p) {
        if (ask.marks[p] == PatchMark::None) continue;
        ImVec2 a(p0.x + (p % grid) * cell, p0.y + (p / grid) * cell), b(a.x + cell, a.y + cell);
        if (ask.marks[p] == PatchMark::Masked) MaskedCell(dl, a, b);
        else DroppedCell(dl, a, b);
    }
}

void DrawPendingCells(const std::vector<float>& values, ImVec2 p0, ImVec2 p1, int grid) {
    if (grid <= 0 || static_cast<int>(values.size()) != grid * grid) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float cell = (p1.x - p0.x) / grid;
    for (int p = 0; p < grid * grid; ++p) {
        if (!std::isnan(values[p])) continue;
        ImVec2 a(p0.x + (p % grid) * cell, p0.y + (p / grid) * cell);
        PendingCell(dl, a, ImVec2(a.x + cell, a.y + cell));
    }
}

void PendingCellsLegend(int computed, int total) {
    const float s = ImGui::GetTextLineHeight();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    PendingCell(ImGui::GetWindowDrawList(), at, ImVec2(at.x + s, at.y + s));
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine();
    ImGui::Text("not computed yet (%d of %d patches done)", computed, total);
}

void PaintPatches(AskState& ask, const PictureResult& picture) {
    if (picture.hovered_patch < 0) return;
    if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) paint_patch(ask, picture.hovered_patch, true);
    else if (ImGui::IsMouseDown(ImGuiMouseButton_Right)) paint_patch(ask, picture.hovered_patch, false);
}

void DrawSilencedVeil() {
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(a, b, IM_COL32(30, 30, 34, 190));
    const char* text = "silenced";
    ImVec2 ts = ImGui::CalcTextSize(text);
    ImVec2 c((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f);
    dl->AddRectFilled(ImVec2(c.x - 6, c.y - 3), ImVec2(c.x + ts.x + 6, c.y + ts.y + 3), IM_COL32(0, 0, 0, 220), 4.f);
    dl->AddText(c, IM_COL32(255, 255, 255, 255), text);
}

void StaleMark(ImVec2 p0, float side) {
    const char* text = "STALE: recomputing for this pass";
    ImFont* font = ImGui::GetFont();
    const float size =
        std::min(ImGui::GetFontSize(), ImGui::GetFontSize() * (side - 12.f) / ImGui::CalcTextSize(text).x);
    const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.f, text);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p0.x + 2, p0.y + 2), ImVec2(p0.x + ts.x + 12, p0.y + ts.y + 8), IM_COL32(200, 110, 0, 235),
                      3.f);
    dl->AddText(font, size, ImVec2(p0.x + 7, p0.y + 5), IM_COL32(0, 0, 0, 255), text);
}

void PatchMarksLegend() {
    const float s = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 at = ImGui::GetCursorScreenPos();
    MaskedCell(dl, at, ImVec2(at.x + s, at.y + s));
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine();
    ImGui::TextUnformatted("masked (pixels = mean colour)");
    ImGui::SameLine(0, 16);
    at = ImGui::GetCursorScreenPos();
    DroppedCell(dl, at, ImVec2(at.x + s, at.y + s));
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine();
    ImGui::TextUnformatted("dropped (token removed)");
}

}  // namespace vit::gui
