// LessonController (controllers/lesson_controller.h): opening a lesson file,
// loading each step's model and image (or running its training to the step's
// stop), applying its view once they are there (checked against the model)
// with the transition from the view before, the keys and caption of lesson
// mode, and the lesson editor (R).
#include "controllers/lesson_controller.h"

#include <imgui.h>

#include <cstdlib>

#include "panels/lesson_caption.h"
#include "services/files.h"
#include "logic/lesson/step_answer.h"
#include "hub/hub_fetch.h"
#include "loading/builtin.h"

namespace vit::gui {

LessonController::LessonController(AppContext& app, const GpuController& gpu, const AskController& ask,
                                   TrainingController& training)
    : app_(app), gpu_(gpu), ask_(ask), training_(training) {}

void LessonController::begin_frame() {
    if (lesson_) lesson_->transition.begin_frame(clock(), app_.generation);
}

// The lesson at `path`; the lesson it names instead ("otherwise") when its Hub model is known
// to be out of reach.
void LessonController::open(const std::string& path, const std::string& instead_of) {
    try {
        LessonPlayer player;
        player.lesson = load_lesson(path);
        player.path = path;
        player.instead_of = instead_of;
        if (may_play_otherwise(player) && vit::hub_model_out_of_reach(player.lesson.model))
            return play_otherwise(player, "is not in the cache and the Hub is out of reach");
        player.go(0);  // the first step as any other: its question before its answer
        lesson_ = std::move(player);
        edit_lesson(editor_, *lesson_);  // what the editor saves, and compares with for "unsaved changes"
        app_.set_presenter(true);        // lessons play in the presenter layout
    } catch (const std::exception& e) {
        app_.fail(e.what());
    }
}

// The lesson `replaced` names as its "otherwise", its caption saying why `replaced`'s model is not
// used (a tour of the lesson under way becomes a tour of that one: controllers/drivers/tour_run.h).
void LessonController::play_otherwise(const LessonPlayer& replaced, const std::string& why) {
    open(otherwise_path(replaced.lesson, replaced.path),
         "Played instead of \"" + replaced.lesson.title + "\", whose model " + why + ".");
}

bool LessonController::may_play_otherwise(const LessonPlayer& player) {
    return !player.lesson.otherwise.empty() && player.instead_of.empty();
}

// Each frame: the step's model and image (or its training run) are asked for once; when
// they are the ones on screen, the step's view is applied (or its mistake shown).
void LessonController::play() {
    if (!lesson_ || !lesson_->pending || app_.loader.busy() || !app_.model) return;
    if (lesson_->steps() == 0) return void(lesson_->pending = false);  // a new lesson before its first step
    const int i = lesson_->index;
    training_.panel().visible = lesson_->step().train.on && lesson_->step().train.window;
    if (!(lesson_->step().train.on ? run_ready() : images_ready())) return;
    try {
        check_step(lesson_->lesson, i, app_.pipeline, lesson_->path);
        const AppState before = app_.state;
        app_.state = step_view(lesson_->step(), app_.pipeline, app_.state);
        lesson_->transition.start(before, app_.state, app_.pipeline, app_.generation, ImGui::GetTime());
        text_failed_ = -1;
    } catch (const std::exception& e) {
        failed(e.what());
    }
    lesson_->pending = false;
}

// The real clock, except where a driver holds it (a tour: a transition over as soon as it starts,
// screenshots the same on every run, or held at its middle for a halfway shot).
double LessonController::clock() const {
    const std::optional<double> held = app_.held_transition();
    if (!held) return ImGui::GetTime();
    return lesson_->transition.started_at() + *held * kTransitionSeconds;
}

void LessonController::failed(const std::string& message) {
    lesson_->pending = false;
    app_.fail(message);
}

// True once the step's model runs on its image; asks the loader for them the first time.
bool LessonController::images_ready() {
    const int i = lesson_->index;
    const std::string model = step_model(lesson_->lesson, lesson_->path, i);
    std::string image = step_image(lesson_->lesson, lesson_->path, i);
    // No image named: a built-in model's own, else whatever photo the checkpoint opened on.
    if (image.empty() && !brings_own_image(model) && model == app_.model_name) image = app_.image_path;
    if (model == app_.model_name && image == app_.image_path) return true;
    if (lesson_->requested != i) {
        lesson_->requested = i;
        if (!open_hub_model_in_page(model, HubLink::Keep)) app_.request(model, image);
    } else if (plays_otherwise_without(model)) {
        const LessonPlayer replaced = *lesson_;  // its Hub model did not load (the message bar says why)
        play_otherwise(replaced, "could not be opened");
    } else {
        lesson_->pending = false;  // asked already and it did not load: the message bar says why
        app_.fail("");
    }
    return false;
}

// True once the step's training run has reached its stop and the main view shows those
// weights. The first time: starts the run (paused) unless the one going can get there.
bool LessonController::run_ready() {
    const int i = lesson_->index;
    const LessonTrain& t = lesson_->step().train;
    TrainPanelState& train = training_.panel();
    TrainingSession& run = training_.session();
    TrainProgress progress = run.progress();
    if (lesson_->requested != i) {
        lesson_->requested = i;
        const bool continues = progress.phase != TrainPhase::Idle && progress.phase != TrainPhase::Failed &&
                               !train.from_shipped && train.epochs == t.epochs && train.seed == t.seed &&
                               (t.until_step < 0 || progress.step <= t.until_step);
        if (!continues) {
            train.epochs = t.epochs, train.seed = t.seed, train.from_shipped = false;
            training_.start(true);
            progress = run.progress();
        }
        train.follow = true;
        training_.follow_run();
        run.pause_at(std::max(0, t.until_step));
        if (t.until_step < 0 || progress.step < t.until_step) run.resume();
        else run.pause();
        return false;
    }
    if (progress.phase == TrainPhase::Failed) {
        failed(lesson_->path + ": step " + std::to_string(i + 1) + ": training failed: " + progress.error);
        return false;
    }
    if (progress.total_steps == 0) return false;  // the run has not counted its steps yet
    try {
        check_train(lesson_->lesson, i, progress.total_steps, lesson_->path);
    } catch (const std::exception& e) {
        failed(e.what());
        return false;
    }
    const int until = t.until_step < 0 ? progress.total_steps : t.until_step;
    if (progress.step < until || (progress.phase == TrainPhase::Running && t.until_step >= 0)) return false;
    return training_.shows_latest();
}

bool LessonController::quotes_occlusion() const {
    return lesson_ && lesson_->steps() > 0 && step_quotes_occlusion(lesson_->lesson, lesson_->index);
}

bool LessonController::values_ready() const {
    if (!quotes_occlusion() || !ask_.runs_occlusion()) return true;
    const AskResults& r = ask_.results();
    return r.occlusion && r.occlusion->complete() && !r.occlusion_stale;
}

bool LessonController::take_key(const KeyEvent& e) { return apply_lesson_key(e, *lesson_, editor_.visible); }

std::string LessonController::answer() const {
    if (!lesson_ || !app_.trace || !app_.model) return "";
    return answer_line(*gpu_.shown_trace(), ask_.results().asked.empty() ? nullptr : ask_.results().original.get(),
                       app_.model->config.labels);
}

LessonText LessonController::text() {
    if (lesson_->steps() == 0 || !app_.model) return {};
    NarrationPasses passes;
    passes.labels = app_.model->config.labels;
    passes.class_token = app_.model->config.class_token;
    const AskResults& asked = ask_.results();
    if (!lesson_->pending && !app_.loader.busy() && app_.trace && asked.asked == to_interventions(app_.state.ask)) {
        passes.shown = gpu_.shown_trace().get();  // held by the app or the GPU session
        if (!asked.asked.empty()) passes.plain = asked.original.get();
        if (asked.occlusion && !asked.occlusion_stale) passes.occlusion = &*asked.occlusion;
    }
    try {
        return step_text(lesson_->lesson, lesson_->index, passes, lesson_->path);
    } catch (const std::exception& e) {
        if (text_failed_ != lesson_->index) text_failed_ = lesson_->index, failed(e.what());
        return step_text(lesson_->lesson, lesson_->index, NarrationPasses{}, lesson_->path);
    }
}

float LessonController::caption_height(float width) {
    return lesson_ ? lesson_caption_height(*lesson_, editor_, width, text(), answer()) : 0.f;
}

void LessonController::draw_caption(float height) {
    if (lesson_) DrawLessonCaption(*lesson_, editor_, app_.fonts, app_.state.presenter, height, text(), answer());
}

// Opens the editor on the lesson playing, or on a new one recorded from the view on screen;
// closing it keeps the lesson playing (a new lesson with no step is dropped).
void LessonController::show_editor(bool on) {
    editor_.visible = on;
    if (on && !lesson_)
        lesson_ = new_lesson(editor_, app_.model_name, app_.image_path, default_lesson_path(std::getenv("HOME")));
    if (on || !lesson_) return;
    if (lesson_->steps() == 0) lesson_.reset();
    else if (unsaved_changes(editor_, *lesson_))
        app_.show_notice("the lesson has unsaved changes: R opens the editor to save them");
}

std::string LessonController::editor_title() const {
    return lesson_ && unsaved_changes(editor_, *lesson_) ? "Lesson editor — unsaved changes" : "Lesson editor";
}

void LessonController::draw_editor() {
    if (!lesson_ || !editor_.visible) return;
    LessonEditorRequests requests;
    DrawLessonEditorPanel(editor_, *lesson_, requests);
    if (requests.add_view && app_.model)
        add_view_as_step(*lesson_, app_.state, app_.pipeline, app_.model_name, app_.image_path);
    if (requests.save) {
        try {
            save_file(expand_home(editor_.save_path, std::getenv("HOME")),
                      [&] { save_edited_lesson(editor_, *lesson_); });
            app_.show_notice("saved the lesson (" + std::to_string(lesson_->steps()) + " steps) to " + lesson_->path);
        } catch (const std::exception& e) {
            app_.show_error(e.what());
        }
    }
}

}  // namespace vit::gui
