// The lesson editor panel (see lesson_editor_panel.h).
#include "panels/lesson_editor_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>

#include "logic/describe/drawn_text.h"

namespace vit::gui {

static const ImVec4 kUnsaved(1.f, 0.75f, 0.2f, 1.f);

// A label at the left of a field that fills the rest of the line (`room`: what to leave at the right).
static void FieldLabel(const char* label, float room = 0.f) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(ImGui::GetFontSize() * 5.2f);
    ImGui::SetNextItemWidth(room > 0.f ? -room : -FLT_MIN);
}

// An edit callback that cuts a field back to its bound in bytes (`UserData`: a const size_t*), so a
// field holds no more than a lesson file may (typing stops there; a long paste is cut).
static int KeepWithinBound(ImGuiInputTextCallbackData* data) {
    const size_t bound = *static_cast<const size_t*>(data->UserData);
    if (static_cast<size_t>(data->BufTextLen) <= bound) return 0;
    const int keep =
        static_cast<int>(utf8_prefix(std::string(data->Buf, static_cast<size_t>(data->BufTextLen)), bound).size());
    data->DeleteChars(keep, data->BufTextLen - keep);
    return 0;
}

static void* bound_of(const size_t& bytes) { return const_cast<size_t*>(&bytes); }

// The steps, one line each; a click shows that step.
static void DrawStepList(LessonPlayer& player) {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float rows = static_cast<float>(std::clamp(player.steps(), 1, 5));
    ImGui::BeginChild("steps", ImVec2(0, rows * line + ImGui::GetStyle().WindowPadding.y * 2), true);
    if (player.steps() == 0) ImGui::TextDisabled("no steps yet: show a view, then add it");
    for (int i = 0; i < player.steps(); ++i) {
        const std::string label = std::to_string(i + 1) + ". " + player.lesson.steps[static_cast<size_t>(i)].title +
                                  "##step" + std::to_string(i);
        const bool shown = i == player.index;
        if (ImGui::Selectable(label.c_str(), shown)) player.go(i);
        if (shown && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
    }
    ImGui::EndChild();
}

// Add, move, delete, undo.
static void DrawStepButtons(LessonEditor& editor, LessonPlayer& player, LessonEditorRequests& requests) {
    if (ImGui::Button("+ Add this view as a step")) requests.add_view = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the stage, screen, token, layer, head and colours on screen, after the shown step");
    const bool any = player.steps() > 0;
    ImGui::BeginDisabled(!any || player.index == 0);
    if (ImGui::Button("Earlier")) move_step(player, -1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!any || player.index + 1 >= player.steps());
    if (ImGui::Button("Later")) move_step(player, +1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!any);
    if (ImGui::Button("Delete")) delete_step(editor, player);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(editor.deleted.empty());
    if (ImGui::Button("Undo delete")) undo_delete(editor, player);
    ImGui::EndDisabled();
}

// The shown step's words, edited in place (the caption under the picture follows as you type,
// wrapped: the narration field scrolls sideways, Enter starts a new line).
static void DrawStepWords(LessonPlayer& player) {
    if (player.steps() == 0) return;
    LessonStep& step = player.lesson.steps[static_cast<size_t>(player.index)];
    ImGui::Separator();
    ImGui::TextDisabled("step %d of %d", player.index + 1, player.steps());
    FieldLabel("Title");
    ImGui::InputText("##title", &step.title, ImGuiInputTextFlags_CallbackEdit, KeepWithinBound,
                     bound_of(kMaxLessonTitleBytes));
    ImGui::TextUnformatted("Narration");
    ImGui::InputTextMultiline("##narration", &step.narration, ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.4f),
                              ImGuiInputTextFlags_CallbackEdit, KeepWithinBound, bound_of(kMaxNarrationBytes));
    FieldLabel("Question");
    ImGui::InputTextWithHint("##question", "for the class (optional)", &step.question, ImGuiInputTextFlags_CallbackEdit,
                             KeepWithinBound, bound_of(kMaxLessonTitleBytes));
    FieldLabel("Answer");
    ImGui::InputTextWithHint("##answer", "shown on the next press (optional)", &step.answer,
                             ImGuiInputTextFlags_CallbackEdit, KeepWithinBound, bound_of(kMaxNarrationBytes));
}

static void DrawSaveRow(LessonEditor& editor, LessonEditorRequests& requests) {
    ImGui::Separator();
    const float button = ImGui::CalcTextSize("Save").x + ImGui::GetStyle().FramePadding.x * 2;
    FieldLabel("Save to", button + ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::InputText("##path", &editor.save_path,
                         ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackEdit, KeepWithinBound,
                         bound_of(kMaxLessonPathBytes)))
        requests.save = true;
    ImGui::SameLine();
    if (ImGui::Button("Save")) requests.save = true;
}

void DrawLessonEditorPanel(LessonEditor& editor, LessonPlayer& player, LessonEditorRequests& requests) {
    if (!editor.visible) return;
    FieldLabel("Lesson");
    ImGui::InputText("##lesson_title", &player.lesson.title, ImGuiInputTextFlags_CallbackEdit, KeepWithinBound,
                     bound_of(kMaxLessonTitleBytes));
    ImGui::TextDisabled("steps: click one to show it");
    DrawStepList(player);
    DrawStepButtons(editor, player, requests);
    DrawStepWords(player);
    DrawSaveRow(editor, requests);
    if (unsaved_changes(editor, player)) {
        ImGui::TextColored(kUnsaved, "unsaved changes");
        ImGui::SameLine();
    }
    ImGui::TextDisabled("R closes · PgUp/PgDn step");
}

}  // namespace vit::gui
