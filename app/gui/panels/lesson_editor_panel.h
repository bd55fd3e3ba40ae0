// The lesson editor panel (docked in the side column, views/widgets/docked_panel.h; R, or the toolbar's "Lesson
// editor"): the lesson's title, its steps (click one to show it), "Add this view as a step", move the shown step
// earlier or later, delete it and undo, its title, narration and question edited in place, and Save to a typed path,
// with "unsaved changes" while the lesson differs from its file. The editing itself is logic/lesson_editor; what needs
// the app (the view on screen, writing the file) comes back as requests.
#pragma once
#include "logic/lesson/lesson_editor.h"

namespace vit::gui {

struct LessonEditorRequests {
    bool add_view = false;  // the view on screen as a step after the shown one
    bool save = false;      // to editor.save_path
};

void DrawLessonEditorPanel(LessonEditor& editor, LessonPlayer& player, LessonEditorRequests& requests);

}  // namespace vit::gui
