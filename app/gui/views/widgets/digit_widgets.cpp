// The Draw and Train windows' shared widgets (see digit_widgets.h).
#include "views/widgets/digit_widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace vit::gui {

void DrawGreyImage(const Image& img, float cell) {
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(cell * img.width, cell * img.height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            int g = int(std::clamp(img.data[static_cast<size_t>(y) * img.width + x], 0.f, 1.f) * 255.f + 0.5f);
            ImVec2 a(p0.x + x * cell, p0.y + y * cell);
            dl->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell), IM_COL32(g, g, g, 255));
        }
    dl->AddRect(p0, ImVec2(p0.x + cell * img.width, p0.y + cell * img.height), IM_COL32(120, 120, 140, 255));
}

void DrawTopPredictions(const Trace& trace, const Model& model, int top, const char* heading) {
    const Stage* probs = trace.find(StageRef{StageKind::Probs});
    if (!probs) {
        ImGui::TextDisabled("this model has no classifier head");
        return;
    }
    const FloatStorage& p = probs->tensor.data;
    std::vector<int> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    top = std::min<int>(top, static_cast<int>(order.size()));
    std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](int a, int b) { return p[a] > p[b]; });
    ImGui::TextUnformatted(heading);
    auto label_of = [&](int c) {
        return c < static_cast<int>(model.config.labels.size()) ? model.config.labels[c] : std::to_string(c);
    };
    float label_w = 0.f;
    for (int i = 0; i < top; ++i) label_w = std::max(label_w, ImGui::CalcTextSize(label_of(order[i]).c_str()).x);
    label_w = std::min(label_w, ImGui::GetFontSize() * 8.f);
    for (int i = 0; i < top; ++i) {
        int c = order[i];
        std::string label = label_of(c);
        if (i == 0) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImVec4(0.25f, 0.75f, 0.35f, 1.f));
        char text[64];
        std::snprintf(text, sizeof text, "%.1f %%", 100.f * p[c]);
        ImGui::TextUnformatted(label.c_str());
        ImGui::SameLine(0.f, label_w - ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().ItemSpacing.x);
        ImGui::ProgressBar(p[c], ImVec2(ImGui::GetFontSize() * 9.f, 0), text);
        if (i == 0) ImGui::PopStyleColor();
    }
}

}  // namespace vit::gui
