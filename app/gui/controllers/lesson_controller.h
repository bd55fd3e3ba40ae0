// LessonController: lesson mode. `--lesson FILE` and each step's loads and
// views (or its training run), the transitions between steps, the keys and
// caption of lesson mode, the lesson editor (R), and the hand-out
// (`--lesson FILE --handout OUT.html`, lesson_handout.cpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "controllers/app_context.h"
#include "controllers/ask_controller.h"
#include "controllers/gpu_controller.h"
#include "controllers/training_controller.h"
#include "logic/describe/colormap.h"
#include "logic/lesson/handout.h"
#include "logic/lesson/handout_figure.h"
#include "logic/lesson/lesson_player.h"
#include "panels/lesson_editor_panel.h"

namespace vit::gui {

class LessonController {
public:
    LessonController(AppContext& app, const GpuController& gpu, const AskController& ask, TrainingController& training);

    // The lesson at `path` (`instead_of`: played instead of another, whose "otherwise" it is: why).
    void open(const std::string& path, const std::string& instead_of = "");
    // Whether the lesson plays the lesson it names instead when `model` does not load (its Hub model).
    bool plays_otherwise_without(const std::string& model) const {
        return lesson_ && may_play_otherwise(*lesson_) && model == lesson_->lesson.model;
    }
    void begin_frame();  // the transition's clock, before anything else this frame
    void play();         // the step's loads, then its view
    LessonPlayer* player() { return lesson_ ? &*lesson_ : nullptr; }  // nullptr: no lesson
    LessonEditor& editor() { return editor_; }
    const LessonEditor& editor() const { return editor_; }

    // The step's text quotes the occlusion map (computed then on any screen); ready: the map
    // of the pass on screen is complete, or cannot come (no classifier head).
    bool quotes_occlusion() const;
    bool values_ready() const;
    bool take_key(const KeyEvent& e);  // a lesson key (next, back…) taken; false: the app's own
    float caption_height(float width);
    void draw_caption(float height);
    void show_editor(bool on);
    std::string editor_title() const;  // "Lesson editor", with "unsaved changes" while it differs from its file
    void draw_editor();

    // The hand-out (lesson_handout.cpp).
    bool making_handout() const { return !app_.options.handout.empty() && lesson_; }
    // A step's figure, cut out of `frame` where `drawn` says (pixels of `frame`), saved at `png_path`
    // and kept for the page. Throws vit::Error.
    void save_handout_step(const std::string& png_path, const RgbaImage& frame, const FigureDrawing& drawn);
    bool finish_handout();  // after the last step: writes the page (false, said on screen, when it cannot)

private:
    bool images_ready();  // the step's model and image are on screen (else asked for)
    bool run_ready();     // a train step's run reached its stop and the view shows it
    void failed(const std::string& message);
    static bool may_play_otherwise(const LessonPlayer& player);  // names one, and is not one itself
    void play_otherwise(const LessonPlayer& replaced, const std::string& why);
    std::string answer() const;  // the caption's answer line for the trace on screen
    // The step's texts with their live values (every value "…" while the step's pass is on its way);
    // a value the pass does not hold is reported once per step.
    LessonText text();
    double clock() const;  // the transitions' clock (--tour: held still)

    AppContext& app_;
    const GpuController& gpu_;
    const AskController& ask_;
    TrainingController& training_;
    std::optional<LessonPlayer> lesson_;
    LessonEditor editor_;
    std::vector<HandoutStep> handout_;
    int text_failed_ = -1;  // the step whose text named a value its pass lacks (reported)
};

}  // namespace vit::gui
