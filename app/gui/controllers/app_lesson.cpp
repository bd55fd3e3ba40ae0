// The App's lesson hooks (issue 15), kept apart from app.cpp: opening a lesson
// file, loading each step's model and image (or running its training to the
// step's stop), applying its view once they are there (checked against the
// model) with the transition from the view before, the keys and caption of
// lesson mode, and the lesson editor (R).
#include <imgui.h>

#include <cstdlib>

#include "controllers/app.h"
#include "panels/lesson_caption.h"
#include "logic/lesson/step_answer.h"

namespace vit::gui {

void App::open_lesson(const std::string& path) {
    try {
        LessonPlayer player;
        player.lesson = load_lesson(path);
        player.path = path;
        lesson_ = std::move(player);
        edit_lesson(editor_, *lesson_);  // what the editor saves, and compares with for "unsaved changes"
        set_presenter(true);  // lessons play in the presenter layout
    } catch (const std::exception& e) {
        show_error(e.what());
        if (touring()) quit_ = true, exit_code_ = 1;
    }
}

// Each frame: the step's model and image (or its training run) are asked for once; when
// they are the ones on screen, the step's view is applied (or its mistake shown).
void App::play_lesson() {
    if (!lesson_ || !lesson_->pending || loader_.busy() || !model_) return;
    if (lesson_->steps() == 0) return void(lesson_->pending = false);  // a new lesson before its first step
    const int i = lesson_->index;
    train_.visible = lesson_->step().train.on && lesson_->step().train.window;
    if (!(lesson_->step().train.on ? lesson_run_ready() : lesson_images_ready())) return;
    try {
        check_step(lesson_->lesson, i, pipeline_, lesson_->path);
        const AppState before = state_;
        state_ = step_view(lesson_->step(), pipeline_, state_);
        lesson_->transition.start(before, state_, pipeline_, generation_, ImGui::GetTime());
    } catch (const std::exception& e) {
        lesson_failed(e.what());
    }
    lesson_->pending = false;
}

// The real clock, except under --tour: there a transition is over as soon as it starts
// (screenshots the same on every run), or held at its middle for a halfway shot.
double App::lesson_clock() const {
    if (!touring()) return ImGui::GetTime();
    const bool halfway = tour_ && !tour_->done() && tour_->current().halfway();
    return lesson_->transition.started_at() + (halfway ? 0.5 : 1.0) * kTransitionSeconds;
}

void App::lesson_failed(const std::string& message) {
    show_error(message);
    lesson_->pending = false;
    if (touring()) quit_ = true, exit_code_ = 1;
}

// True once the step's model runs on its image; asks the loader for them the first time.
bool App::lesson_images_ready() {
    const int i = lesson_->index;
    const std::string model = step_model(lesson_->lesson, lesson_->path, i);
    std::string image = step_image(lesson_->lesson, lesson_->path, i);
    // No image named: a built-in model's own, else whatever photo the checkpoint opened on.
    if (image.empty() && model != "toy-4x4" && model != "digits" && model == model_name_) image = image_path_;
    if (model == model_name_ && image == image_path_) return true;
    if (lesson_->requested != i) {
        lesson_->requested = i;
        request(model, image);
    } else {
        lesson_->pending = false;  // asked already and it did not load: the message bar says why
        if (touring()) quit_ = true, exit_code_ = 1;
    }
    return false;
}

// True once the step's training run has reached its stop and the main view shows those
// weights. The first time: starts the run (paused) unless the one going can get there.
bool App::lesson_run_ready() {
    const int i = lesson_->index;
    const LessonTrain& t = lesson_->step().train;
    TrainProgress progress = training_.progress();
    if (lesson_->requested != i) {
        lesson_->requested = i;
        const bool continues = progress.phase != TrainPhase::Idle && progress.phase != TrainPhase::Failed &&
                               !train_.from_shipped && train_.epochs == t.epochs && train_.seed == t.seed &&
                               (t.until_step < 0 || progress.step <= t.until_step);
        if (!continues) {
            train_.epochs = t.epochs, train_.seed = t.seed, train_.from_shipped = false;
            start_training(true);
            progress = training_.progress();
        }
        train_.follow = true;
        train_shown_.reset();  // the main view goes back to the run's weights
        training_.pause_at(std::max(0, t.until_step));
        if (t.until_step < 0 || progress.step < t.until_step) training_.resume();
        else training_.pause();
        return false;
    }
    if (progress.phase == TrainPhase::Failed) {
        lesson_failed(lesson_->path + ": step " + std::to_string(i + 1) + ": training failed: " + progress.error);
        return false;
    }
    if (progress.total_steps == 0) return false;  // the run has not counted its steps yet
    try {
        check_train(lesson_->lesson, i, progress.total_steps, lesson_->path);
    } catch (const std::exception& e) {
        lesson_failed(e.what());
        return false;
    }
    const int until = t.until_step < 0 ? progress.total_steps : t.until_step;
    if (progress.step < until || (progress.phase == TrainPhase::Running && t.until_step >= 0)) return false;
    return model_ == training_.latest() && train_shown_ == model_;
}

void App::place_lesson_train_window() {
    const bool fill = lesson_ && lesson_->step().train.on && lesson_->step().train.window;
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    train_.place[0] = pos.x, train_.place[1] = pos.y;
    train_.place[2] = fill ? size.x : 0.f, train_.place[3] = size.y;
}

bool App::lesson_key() {
    if (!lesson_) return false;
    std::optional<KeyEvent> e = input_.next_press();
    if (!e) return true;
    if (apply_lesson_key(*e, *lesson_, editor_.visible)) return true;
    carry_out(apply_key(*e, state_, pipeline_, bookmarks_));
    return true;
}

std::string App::lesson_answer() const {
    if (!lesson_ || !trace_ || !model_) return "";
    return answer_line(shown_trace(), ask_.asked.empty() ? nullptr : ask_.original.get(), model_->config.labels);
}

float App::lesson_caption_h(float width) const {
    return lesson_ ? lesson_caption_height(*lesson_, width, lesson_answer()) : 0.f;
}

void App::draw_lesson_caption(float height) {
    if (lesson_) DrawLessonCaption(*lesson_, editor_, fonts_, state_.presenter, height, lesson_answer());
}

// Opens the editor on the lesson playing, or on a new one recorded from the view on screen;
// closing it keeps the lesson playing (a new lesson with no step is dropped).
void App::show_lesson_editor(bool on) {
    editor_.visible = on;
    if (on && !lesson_) lesson_ = new_lesson(editor_, model_name_, image_path_, default_lesson_path(std::getenv("HOME")));
    if (on || !lesson_) return;
    if (lesson_->steps() == 0) lesson_.reset();
    else if (unsaved_changes(editor_, *lesson_)) show_notice("the lesson has unsaved changes: R opens the editor to save them");
}

void App::draw_lesson_editor() {
    if (!lesson_ || !editor_.visible) return;
    LessonEditorRequests requests;
    DrawLessonEditorPanel(editor_, *lesson_, requests);
    if (requests.add_view && model_) add_view_as_step(*lesson_, state_, pipeline_, model_name_, image_path_);
    if (requests.save) {
        try {
            save_edited_lesson(editor_, *lesson_);
            show_notice("saved the lesson (" + std::to_string(lesson_->steps()) + " steps) to " + lesson_->path);
        } catch (const std::exception& e) {
            show_error(e.what());
        }
    }
    if (!editor_.visible) show_lesson_editor(false);  // closed by its window's ×
}

}  // namespace vit::gui
