// Line charts with axes (see line_chart.h).
#include "views/widgets/line_chart.h"

#include "views/widgets/view_common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vit::gui {

// A round step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten.
static float tick_step(float span, int count) {
    const float raw = span / std::max(1, count);
    const float power = std::pow(10.f, std::floor(std::log10(std::max(raw, 1e-6f))));
    for (float m : {1.f, 2.f, 5.f})
        if (m * power >= raw) return m * power;
    return 10.f * power;
}

void DrawLineChart(const ChartAxes& axes, const std::vector<ImVec2>& faint, const std::vector<ImVec2>& bold,
                   ImVec2 size, float marker_x) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    const float lh = ImGui::GetTextLineHeight();
    const float left = ImGui::CalcTextSize("100 %").x + lh * 1.6f;  // room for tick labels and the y name
    const ImVec2 p0(origin.x + left, origin.y + lh * 1.8f);         // under the title's line
    const ImVec2 p1(origin.x + size.x - lh * 0.5f, origin.y + size.y - lh * 2.4f);  // room for x ticks and name
    if (p1.x - p0.x < 20.f || p1.y - p0.y < 20.f) return;
    const float x_max = std::max(axes.x_max, 1e-6f), y_span = std::max(axes.y_max - axes.y_min, 1e-6f);
    auto at = [&](float x, float y) {
        return ImVec2(p0.x + std::clamp(x / x_max, 0.f, 1.f) * (p1.x - p0.x),
                      p1.y - std::clamp((y - axes.y_min) / y_span, 0.f, 1.f) * (p1.y - p0.y));
    };
    const ImU32 grid = IM_COL32(70, 70, 80, 255), text = IM_COL32(175, 175, 185, 255);
    dl->AddRectFilled(p0, p1, IM_COL32(22, 22, 28, 255));
    char label[32];
    const float ys = tick_step(y_span, 4);
    for (float y = std::ceil(axes.y_min / ys) * ys; y <= axes.y_max + 1e-6f; y += ys) {
        dl->AddLine(at(0, y), at(x_max, y), grid);
        if (axes.y_percent) std::snprintf(label, sizeof label, "%.0f %%", 100.f * y);
        else std::snprintf(label, sizeof label, "%g", y);
        const ImVec2 ts = ImGui::CalcTextSize(label);
        dl->AddText(ImVec2(p0.x - ts.x - 4.f, at(0, y).y - ts.y * 0.5f), text, label);
    }
    const float xs = tick_step(x_max, static_cast<int>((p1.x - p0.x) / (lh * 4.f)));
    for (float x = 0.f; x <= x_max + 1e-6f; x += xs) {
        dl->AddLine(at(x, axes.y_min), at(x, axes.y_max), grid);
        std::snprintf(label, sizeof label, "%g", x);
        const ImVec2 ts = ImGui::CalcTextSize(label);
        dl->AddText(ImVec2(at(x, 0).x - ts.x * 0.5f, p1.y + 2.f), text, label);
    }
    const ImVec2 xn = ImGui::CalcTextSize(axes.x_name.c_str());
    dl->AddText(ImVec2((p0.x + p1.x - xn.x) * 0.5f, p1.y + lh * 1.2f), text, axes.x_name.c_str());
    // The y axis's name under its tick labels, at the x name's height: it never runs into the top tick.
    FittedText(dl, ImVec2(origin.x, p1.y + lh * 1.2f), left - 4.f, "↑ " + axes.y_name, text);
    dl->AddRect(p0, p1, IM_COL32(120, 120, 135, 255));

    dl->PushClipRect(p0, p1, true);
    auto polyline = [&](const std::vector<ImVec2>& pts, ImU32 colour, float thickness) {
        std::vector<ImVec2> screen;
        screen.reserve(pts.size());
        for (const ImVec2& p : pts) screen.push_back(at(p.x, p.y));
        if (screen.size() == 1) dl->AddCircleFilled(screen[0], thickness + 1.5f, colour);
        else if (screen.size() > 1)
            dl->AddPolyline(screen.data(), static_cast<int>(screen.size()), colour, 0, thickness);
    };
    polyline(faint, (axes.colour & 0x00FFFFFFu) | 0x50000000u, 1.f);
    polyline(bold, axes.colour, 2.5f);
    if (marker_x >= 0.f)
        dl->AddLine(at(marker_x, axes.y_min), at(marker_x, axes.y_max), IM_COL32(255, 200, 0, 220), 2.f);
    dl->PopClipRect();
    FittedText(dl, ImVec2(origin.x, origin.y), size.x, axes.title,
               axes.colour);  // its own line, never into the next chart
}

}  // namespace vit::gui
