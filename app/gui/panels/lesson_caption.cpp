// The lesson caption (see lesson_caption.h).
#include "panels/lesson_caption.h"

#include <imgui.h>

#include <string>
#include <vector>

#include "logic/describe/drawn_text.h"
#include "views/widgets/view_common.h"

namespace vit::gui {

static const ImVec4 kQuestion(1.f, 0.8f, 0.3f, 1.f);
static const char* kNoStepYet = "No step yet: show a view, then \"+ Add this view as a step\" in the lesson editor.";

static const ImVec4 kAnswer(0.55f, 0.85f, 1.f, 1.f);

// "unsaved changes   step 3 of 12   → next  ← back" (defined below).
static std::string where_we_are(const LessonPlayer& player, const LessonEditor& editor);

// The title fits on one line with where we are at its right (a caption as wide as the window), else
// they take a line each, the title wrapped (a caption in the side column).
static bool title_beside_where(const std::string& title, const std::string& where, float wrap) {
    return ImGui::CalcTextSize(title.c_str()).x * 1.35f + ImGui::CalcTextSize(where.c_str()).x + 24.f <= wrap;
}

// The lines under the title, each with its colour: the narration, the question, once
// revealed the question's answer and the model's, and why this lesson plays instead of another.
struct CaptionLine {
    std::string text;
    ImVec4 colour;
};
static std::vector<CaptionLine> caption_lines(const LessonPlayer& player, const LessonText& text,
                                              const std::string& answer) {
    const ImVec4 plain = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    std::vector<CaptionLine> lines;
    if (!text.narration.empty()) lines.push_back({drawn_text(text.narration), plain});
    if (!text.question.empty()) lines.push_back({drawn_text("Question: " + text.question), kQuestion});
    if (player.revealed && !text.answer.empty()) lines.push_back({drawn_text("Answer: " + text.answer), kAnswer});
    if (player.revealed && !answer.empty()) lines.push_back({drawn_text(answer), kAnswer});
    if (!player.instead_of.empty())
        lines.push_back({drawn_text(player.instead_of), ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)});
    return lines;
}

float lesson_caption_height(const LessonPlayer& player, const LessonEditor& editor, float width, const LessonText& text,
                            const std::string& answer) {
    const float wrap = width - 2.f * ImGui::GetStyle().WindowPadding.x;
    const std::string title = drawn_text(player.steps() == 0 ? player.lesson.title : text.title);
    float h = ImGui::GetTextLineHeightWithSpacing() * 1.6f;           // title (heading font)
    h += WrappedHeight(drawn_text(player.lesson.title), wrap) + 4.f;  // the footer: the lesson's title
    const std::string where = where_we_are(player, editor);
    if (!title_beside_where(title, where, wrap))
        h += WrappedHeight(where, wrap) + ImGui::GetStyle().ItemSpacing.y +
             1.35f * ImGui::CalcTextSize(title.c_str(), nullptr, false, wrap / 1.35f).y -
             1.35f * ImGui::GetTextLineHeight();
    if (player.steps() == 0)
        return h + ImGui::CalcTextSize(kNoStepYet, nullptr, false, wrap).y + 2.f * ImGui::GetStyle().WindowPadding.y;
    for (const CaptionLine& line : caption_lines(player, text, answer)) h += WrappedHeight(line.text, wrap) + 4.f;
    return h + 2.f * ImGui::GetStyle().WindowPadding.y;
}

static std::string where_we_are(const LessonPlayer& player, const LessonEditor& editor) {
    std::string where = unsaved_changes(editor, player) ? "unsaved changes   " : "";
    if (player.steps() == 0) return where + "new lesson";
    where += "step " + std::to_string(player.index + 1) + " of " + std::to_string(player.steps());
    const char* next = player.revealed ? "next" : "answer";
    return where + (editor.visible ? "   PgDn " : "   → ") + next + (editor.visible ? "  PgUp back" : "  ← back");
}

void DrawLessonCaption(const LessonPlayer& player, const LessonEditor& editor, const Fonts& fonts, bool presenter,
                       float height, const LessonText& text, const std::string& answer) {
    ImGui::BeginChild("lesson_caption", ImVec2(0, height), true);  // a long answer scrolls
    const std::string title = drawn_text(player.steps() == 0 ? player.lesson.title : text.title);
    const std::string where = where_we_are(player, editor);
    const bool one_line = title_beside_where(title, where, ImGui::GetContentRegionAvail().x);
    ImGui::PushFont(presenter ? fonts.big_heading : fonts.heading);
    ImGui::TextWrapped("%s", title.c_str());
    ImGui::PopFont();
    if (one_line) {
        ImGui::SameLine();
        ImGui::SetCursorPosX(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(where.c_str()).x);
    }
    KeysHint(where);  // a narrow column wraps it between words
    if (player.steps() == 0) {
        ImGui::TextWrapped("%s", kNoStepYet);
        ImGui::EndChild();
        return;
    }
    for (const CaptionLine& line : caption_lines(player, text, answer)) WrappedWords(line.text, line.colour);
    if (!player.lesson.title.empty())
        WrappedWords(drawn_text(player.lesson.title), ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::EndChild();
}

}  // namespace vit::gui
