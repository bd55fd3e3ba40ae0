// LessonController's hand-out (controllers/lesson_controller.h): while
// `--lesson FILE --handout OUT.html` plays the lesson like --tour, each step's
// figure is cut out of its screenshot (logic/lesson/handout_figure.h), saved as
// the step's PNG and kept with its text (narration, answer, question and its
// written answer, the stage's formula and PyTorch line); after the last step
// the page is written (logic/lesson/handout.h) and the app exits, 1 when it
// could not be written.
#include <cstdio>

#include "base/file_io.h"
#include "controllers/lesson_controller.h"
#include "logic/describe/stage_info.h"
#include "services/files.h"

namespace vit::gui {

void LessonController::save_handout_step(const std::string& png_path, const RgbaImage& frame,
                                         const FigureDrawing& drawn) {
    const PixelRect box = figure_rect(drawn);
    RgbaImage figure = crop(frame, box);
    auto in_figure = [&box](std::vector<PixelRect> rects) {
        for (PixelRect& r : rects) r = {r.x0 - box.x0, r.y0 - box.y0, r.x1 - box.x0, r.y1 - box.y0};
        return rects;
    };
    lighten_around(figure, in_figure(drawn.pictures), in_figure(drawn.regions));
    const std::vector<uint8_t> png = figure_png(figure, handout_figure_budget(size_t(lesson_->steps())));
    save_file(png_path, [&] { write_whole_file(png_path, std::string(png.begin(), png.end()), "the PNG"); });
    const LessonText t = text();  // with the live values of the pass on screen
    HandoutStep h{t.title, t.narration, t.question, answer(), "", "", "", png, t.answer};
    if (const std::optional<StageRef> stage = handout_stage(app_.state, app_.pipeline)) {
        const StageInfo info = describe_stage(*stage, app_.model->config, app_.pipeline.tokens);
        h.stage_title = info.title, h.formula = info.formula, h.pytorch = info.pytorch;
    }
    handout_.push_back(std::move(h));
}

bool LessonController::finish_handout() {
    if (app_.options.handout.empty() || !lesson_) return true;
    try {
        const std::string html = handout_html(lesson_->lesson.title, handout_);
        save_file(app_.options.handout, [&] { write_handout(app_.options.handout, html); });
        std::printf("handout: %zu steps in %s (pictures in %s)\n", handout_.size(), app_.options.handout.c_str(),
                    app_.options.tour_dir.c_str());
        return true;
    } catch (const std::exception& e) {
        app_.show_error(e.what());
        return false;
    }
}

}  // namespace vit::gui
