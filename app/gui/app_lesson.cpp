// The App's lesson hooks (issue 15), kept apart from app.cpp: opening a lesson
// file, loading each step's model and image, applying its view once they are
// there (checked against the model), and the keys and caption of lesson mode.
#include "app.h"
#include "lesson_caption.h"

namespace vit::gui {

void App::open_lesson(const std::string& path) {
    try {
        LessonPlayer player;
        player.lesson = load_lesson(path);
        player.path = path;
        lesson_ = std::move(player);
        set_presenter(true);  // lessons play in the presenter layout
    } catch (const std::exception& e) {
        show_error(e.what());
        if (touring()) quit_ = true, exit_code_ = 1;
    }
}

// Each frame: the step's model and image are asked for once; when they are the ones on
// screen, the step's view is applied (or its mistake shown).
void App::play_lesson() {
    if (!lesson_ || !lesson_->pending || loader_.busy() || !model_) return;
    const int i = lesson_->index;
    const std::string model = step_model(lesson_->lesson, lesson_->path, i);
    std::string image = step_image(lesson_->lesson, lesson_->path, i);
    // No image named: a built-in model's own, else whatever photo the checkpoint opened on.
    if (image.empty() && model != "toy-4x4" && model != "digits" && model == model_name_) image = image_path_;
    if (model != model_name_ || image != image_path_) {
        if (lesson_->requested != i) {
            lesson_->requested = i;
            request(model, image);
            return;
        }
        lesson_->pending = false;  // asked already and it did not load: the message bar says why
        if (touring()) quit_ = true, exit_code_ = 1;
        return;
    }
    try {
        check_step(lesson_->lesson, i, pipeline_, lesson_->path);
        state_ = step_view(lesson_->step(), pipeline_, state_);
    } catch (const std::exception& e) {
        show_error(e.what());
        if (touring()) quit_ = true, exit_code_ = 1;
    }
    lesson_->pending = false;
}

bool App::lesson_key() {
    if (!lesson_) return false;
    std::optional<KeyEvent> e = input_.next_press();
    if (!e) return true;
    if (apply_lesson_key(*e, *lesson_)) return true;
    carry_out(apply_key(*e, state_, pipeline_, bookmarks_));
    return true;
}

float App::lesson_caption_h(float width) const { return lesson_ ? lesson_caption_height(*lesson_, width) : 0.f; }

void App::draw_lesson_caption(float height) {
    if (lesson_) DrawLessonCaption(*lesson_, fonts_, state_.presenter, height);
}

}  // namespace vit::gui
