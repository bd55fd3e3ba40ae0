// TourRun (controllers/drivers/tour_run.h): the tour's plan, its shots shown
// one at a time, and each saved once the screen has settled.
#include "controllers/drivers/tour_run.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>

#include "controllers/ask_controller.h"
#include "controllers/lesson_controller.h"
#include "logic/describe/canvas_image.h"
#include "logic/lesson/lesson_player.h"
#include "services/gl_texture.h"
#include "views/widgets/drawn_screen.h"

namespace vit::gui {

namespace fs = std::filesystem;

std::optional<double> TourRun::held_transition() const {
    const bool halfway = schedule_ && !schedule_->done() && schedule_->current().halfway();
    return halfway ? 0.5 : 1.0;
}

void TourRun::plan() {
    const AppContext& app = parts_.app;
    const Options& o = app.options;
    if (const LessonPlayer* player = parts_.lessons.player(); player && player->steps() > 0) {
        // One screenshot per step, NN-step.png, NN-answer.png after a question (with the editor: NN-edit.png,
        // NN-halfway.png); the hand-out keeps one page per step, its answers whole.
        schedule_.emplace(lesson_tour_plan(player->steps(), o.edit_lesson,
                                           o.handout.empty() ? question_steps(player->lesson) : std::vector<bool>{}));
        planned_lesson_ = player->path;
        return;
    }
    std::vector<TourShot> plan = tour_plan(app.pipeline, o.gpu);  // + the Ask panel, the Draw window with a drawn 7
    if (o.interventions.any()) plan.push_back(window_shot(app.pipeline, ShotKind::Ask, static_cast<int>(plan.size())));
    if (takes_drawings(app.model->config))
        plan.push_back(window_shot(app.pipeline, ShotKind::Draw, static_cast<int>(plan.size())));
    pad_tour_numbers(plan);
    schedule_.emplace(std::move(plan));
}

void TourRun::before_frame(UiActions&) {
    if (!parts_.app.started) return;  // the command line's lesson, token and view come first
    const LessonPlayer* player = parts_.lessons.player();
    // A lesson that gave way to its "otherwise" lesson is toured as that one.
    const bool lesson_changed = schedule_ && player && !planned_lesson_.empty() && player->path != planned_lesson_;
    if (!schedule_ || lesson_changed) plan();
    if (!schedule_->done()) show(schedule_->current());
}

void TourRun::show(const TourShot& shot) {
    AppContext& app = parts_.app;
    LessonController& lessons = parts_.lessons;
    if (lessons.player() &&
        shot.lesson_step >= 0) {  // the editor shows in its shots, not over a transition held halfway
        lessons.editor().visible = app.options.edit_lesson && !shot.halfway();
        lessons.player()->go(shot.lesson_step);
        if (shot.kind == ShotKind::LessonAnswer || !app.options.handout.empty()) lessons.player()->revealed = true;
        return;
    }
    go_to_stage(app.state, app.pipeline, shot.stage);
    app.state.screen = shot.screen;
    app.state.gradients = shot.gradients();
    app.state.cell = shot.cell;
    if (app.options.interventions.any()) parts_.ask.panel().visible = shot.kind == ShotKind::Ask;
    if (shot.kind == ShotKind::Draw && !app.draw.visible) {
        app.draw.visible = true;
        draw_sample_seven(app.draw.canvas, app.draw.thickness);
    }
}

void TourRun::after_render(int fb_width, int fb_height) {
    if (!schedule_ || !parts_.app.trace) return;
    if (schedule_->done()) return end();
    if (!parts_.settled()) return;  // every shot waits for the passes, maps and walks it shows
    if (schedule_->capture_this_frame()) {
        try {
            save_shot(fb_width, fb_height);
        } catch (const std::exception& e) {  // the run ends here: no hand-out page for the steps saved so far
            parts_.app.show_error(e.what());
            return finish(1);
        }
    }
    schedule_->end_frame();
    if (schedule_->done()) end();
}

void TourRun::save_shot(int fb_width, int fb_height) {
    const std::string file = schedule_->current().file;
    const std::string path = (fs::path(parts_.app.options.tour_dir) / file).string();
    const ImVec2 window = ImGui::GetIO().DisplaySize;
    const std::vector<PixelRect> pictures = drawn_rects(ImGui::GetDrawData(), Drawn::Pictures);
    if (parts_.lessons.making_handout()) save_handout_figure(path, fb_width, fb_height);
    else save_framebuffer_png(path, fb_width, fb_height);
    const double share = covered_share(pictures, int(window.x), int(window.y));
    coverage_.push_back(share);
    std::printf("tour: %s: pictures cover %.1f%% of the %.0f×%.0f window\n", file.c_str(), 100.0 * share, window.x,
                window.y);
}

// A hand-out step's figure: the pictures and charts of the view (and the dock under it) cut out of the
// frame with the text beside them (titles, axis labels, colour-bar ticks: logic/lesson/handout_figure.h).
void TourRun::save_handout_figure(const std::string& path, int fb_width, int fb_height) {
    const float scale = fb_width / std::max(1.f, ImGui::GetIO().DisplaySize.x);  // window points to framebuffer pixels
    auto to_pixels = [scale](std::vector<PixelRect> rects) {
        for (PixelRect& r : rects) r = {r.x0 * scale, r.y0 * scale, r.x1 * scale, r.y1 * scale};
        return rects;
    };
    const ImDrawData* dd = ImGui::GetDrawData();
    FigureDrawing drawn{to_pixels(drawn_rects(dd, Drawn::PicturesAndCharts)), to_pixels(drawn_rects(dd, Drawn::Text)),
                        to_pixels(parts_.figure_regions), 1.6f * body_px(parts_.app.fonts) * scale};
    parts_.lessons.save_handout_step(path, read_framebuffer(fb_width, fb_height), drawn);
}

void TourRun::end() {
    if (done()) return;
    std::printf("tour: %zu screenshots in %s\n", schedule_->count(), parts_.app.options.tour_dir.c_str());
    std::printf("tour: pictures cover %.1f%% of the window on average\n", 100.0 * mean_share(coverage_));
    finish(parts_.lessons.finish_handout() ? 0 : 1);
}

}  // namespace vit::gui
