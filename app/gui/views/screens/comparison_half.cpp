// The loaded model's half and the comparison model's half (see comparison_half.h).
#include "views/screens/comparison_half.h"

namespace vit::gui {

namespace {

std::string block_of(const ViewContext& ctx) {
    return "block " + std::to_string(ctx.state.layer) + " of 0–" + std::to_string(ctx.pipeline.depth - 1);
}

// Wrapped text in `colour`, in `font` (no word is shrunk or cut, however long the model's name).
void WrappedLine(ImFont* font, ImU32 colour, const std::string& text) {
    ImGui::PushFont(font);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// One half: a child window of `size` with the model's name (heading), its block (in the formulas'
// blue: not dimmed, it says which block this half shows), the note (amber), then `draw`.
void DrawHalf(ViewContext* views, const char* id, ImVec2 size, const std::string& name, const std::string& block,
              const std::string& note, const std::function<void(ViewContext&)>& draw, const ViewContext& fonts_of) {
    ImGui::BeginChild(id, size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    WrappedLine(fonts_of.heading(), ImGui::GetColorU32(ImGuiCol_Text), name);
    WrappedLine(ImGui::GetFont(), IM_COL32(150, 210, 255, 255), block);
    if (!note.empty()) WrappedLine(ImGui::GetFont(), IM_COL32(255, 200, 90, 255), note);
    if (views) draw(*views);
    ImGui::EndChild();
}

}  // namespace

void DrawComparisonHalves(ViewContext& main, ImVec2 size, const std::function<void(ViewContext&)>& draw_loaded,
                          const std::function<void(ViewContext&)>& draw_compared) {
    const ComparisonSide& side = *main.comparison;
    const float gap = ImGui::GetFontSize() * 1.2f;
    const ImVec2 half((size.x - gap) * 0.5f, size.y);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    DrawHalf(&main, "loaded_half", half, side.loaded_name, block_of(main), "", draw_loaded, main);
    ImGui::SameLine(0, gap);
    std::string subtitle = "its block at the same relative depth";
    if (side.views) {
        const ViewContext& c = *side.views;
        subtitle = c.pipeline.depth > 0 ? block_of(c) + ": the same relative depth as block " +
                                              std::to_string(main.state.layer) + " on the left"
                                        : "no encoder blocks";
    }
    DrawHalf(side.views, "comparison_half", half, side.name, subtitle, side.note, draw_compared, main);
    // The line between the halves.
    const float x = at.x + half.x + gap * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, at.y), ImVec2(x, at.y + size.y),
                                        ImGui::GetColorU32(ImGuiCol_Separator), 2.f);
}

}  // namespace vit::gui
