// The caption under the picture while a lesson plays: the step's title, its
// narration (their live values read by logic/lesson/narration.h), the question for
// the class, and once it is revealed (the press after the question) its answer and
// the model's (logic/lesson/step_answer.h), and where we are ("step 3 of 12", and "unsaved changes" while the
// lesson editor's changes are not saved). A new lesson with no step yet says
// how to add one. It takes its own strip of the window, so it never covers the picture.
#pragma once
#include "services/fonts.h"
#include "logic/lesson/lesson_editor.h"

#include <string>

namespace vit::gui {

// The height the caption needs at `width` with the current font.
// `text`: the step's texts with their values; `answer`: the model's answer line.
float lesson_caption_height(const LessonPlayer& player, const LessonEditor& editor, float width, const LessonText& text,
                            const std::string& answer);
// `editor`: while it is open PageDown/PageUp step (the arrows explore); its unsaved changes.
void DrawLessonCaption(const LessonPlayer& player, const LessonEditor& editor, const Fonts& fonts, bool presenter,
                       float height, const LessonText& text, const std::string& answer);

}  // namespace vit::gui
