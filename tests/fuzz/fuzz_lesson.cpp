// libFuzzer target: the lesson reader (app/gui/logic/lesson/lesson.h) on bytes
// in memory as load_lesson reads a file. Errors must be vit::Error; a lesson
// it accepts must keep its text within the bounds the caption draws, save to
// JSON that reads back the same, and have each step checked against a model of
// the digits model's shape (4 blocks, 4 heads, 17 tokens) and shown, as the
// lesson player does.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.h"
#include "logic/lesson/lesson.h"
#include "pass/stages.h"

namespace {

// Relative model and image paths are looked for in a folder that does not exist.
const char* const kPath = "/nonexistent-vitviz-fuzz/lesson.json";

void check_bounds(const vit::gui::Lesson& lesson) {
    if (lesson.title.size() > vit::gui::kMaxLessonTitleBytes) __builtin_trap();
    for (const vit::gui::LessonStep& s : lesson.steps)
        if (s.title.empty() || s.title.size() > vit::gui::kMaxLessonTitleBytes ||
            s.question.size() > vit::gui::kMaxLessonTitleBytes || s.narration.size() > vit::gui::kMaxNarrationBytes)
            __builtin_trap();
}

void play(const vit::gui::Lesson& lesson) {
    static const vit::gui::Pipeline digits = vit::gui::make_pipeline(vit::stage_list(4, true), 17, 4);
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
        try {
            vit::gui::check_step(lesson, i, digits, kPath);
        } catch (const vit::Error&) {
            continue;
        }
        vit::gui::step_view(lesson.steps[static_cast<size_t>(i)], digits, vit::gui::AppState{});
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    vit::gui::Lesson lesson;
    try {
        lesson = vit::gui::parse_lesson(std::string(reinterpret_cast<const char*>(data), size), kPath);
    } catch (const vit::Error&) {
        return 0;
    }
    check_bounds(lesson);
    if (!(vit::gui::parse_lesson(vit::gui::lesson_json(lesson), kPath) == lesson)) __builtin_trap();
    play(lesson);
    return 0;
}
