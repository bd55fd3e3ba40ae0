// The App's hand-out hooks, kept apart from app.cpp: while
// `--lesson FILE --handout OUT.html` plays the lesson like --tour, each step's
// screenshot is kept with its text (narration, answer, question, the stage's
// formula and PyTorch line); after the last step the page is written
// (logic/lesson/handout.h) and the app exits, 1 when it could not be written.
#include <cstdio>

#include "controllers/app.h"
#include "base/file_io.h"
#include "logic/describe/stage_info.h"

namespace vit::gui {

void App::keep_handout_step(const std::string& png_path) {
    if (options_.handout.empty() || !lesson_) return;
    const LessonStep& step = lesson_->step();
    HandoutStep h{step.title, step.narration, step.question, lesson_answer(), "", "", "", {}};
    if (const std::optional<StageRef> stage = handout_stage(state_, pipeline_)) {
        const StageInfo info = describe_stage(*stage, model_->config, pipeline_.tokens);
        h.stage_title = info.title, h.formula = info.formula, h.pytorch = info.pytorch;
    }
    h.png = read_file(png_path, size_t(1) << 30);
    handout_.push_back(std::move(h));
}

void App::write_lesson_handout() {
    if (options_.handout.empty() || !lesson_) return;
    try {
        write_handout(options_.handout, handout_html(lesson_->lesson.title, handout_));
        std::printf("handout: %zu steps in %s (pictures in %s)\n", handout_.size(), options_.handout.c_str(),
                    options_.tour_dir.c_str());
    } catch (const std::exception& e) {
        show_error(e.what());
        exit_code_ = 1;
    }
}

}  // namespace vit::gui
