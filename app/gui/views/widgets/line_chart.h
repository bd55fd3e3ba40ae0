// A line chart with its axes: title, tick labels on both axes, axis names, a
// faint raw series under a bold one, and an optional vertical marker (the
// Train panel's loss and held-out accuracy curves, the snapshot shown).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace vit::gui {

struct ChartAxes {
    std::string title;           // its own line above the plot, fitted to the chart's width
    std::string x_name, y_name;  // "epoch", "loss"
    float x_max = 1.f;           // x runs 0 … x_max
    float y_min = 0.f, y_max = 1.f;
    bool y_percent = false;  // tick labels as 0 %, 25 %, … (values 0…1)
    ImU32 colour = IM_COL32(90, 200, 255, 255);
};

// `faint` (may be empty) is drawn thin and translucent, `bold` over it; points
// are (x, y) in axis units. `marker_x` ≥ 0 draws a vertical line there.
void DrawLineChart(const ChartAxes& axes, const std::vector<ImVec2>& faint, const std::vector<ImVec2>& bold,
                   ImVec2 size, float marker_x = -1.f);

}  // namespace vit::gui
