// FpsMeasure (controllers/drivers/fps_measure.h): frames a second over the stages.
#include "controllers/drivers/fps_measure.h"

#include <imgui.h>

#include <cstdio>
#include <string>

#include "controllers/drivers/pass_measure.h"

namespace vit::gui {

void FpsMeasure::before_frame(UiActions&) {
    if (!app_.trace) return;
    const double now = ImGui::GetTime();
    if (first_ < 0) {
        first_ = now;
        return;
    }
    if (start_ < 0) start_ = now;
    ++frames_;
    if (frames_ % 20 == 0 && !app_.options.fixed_screen) step_stage();  // --screen: that screen alone
    if (now - start_ >= app_.options.measure_fps) report(now);
}

void FpsMeasure::step_stage() {
    AppState& state = app_.state;
    const Pipeline& pipeline = app_.pipeline;
    if (state.stage + 1 >= pipeline.size())
        state.screen = state.screen == Screen::Stage ? Screen::Attention : Screen::Stage;
    go_to_stage(state, pipeline, (state.stage + 1) % pipeline.size());
}

void FpsMeasure::report(double now) {
    const Options& o = app_.options;
    const std::string what = (o.fixed_screen ? "on the " + std::string(screen_name(app_.state.screen)) + " screen"
                                             : "over " + std::to_string(app_.pipeline.size()) + " stages") +
                             " of " + measured_run(app_.model_name, *app_.trace);
    std::printf(
        "measure-fps: first frame %.0f ms, then %ld frames in %.1f s = %.1f FPS %s; %llu texture uploads, "
        "%zu textures cached\n",
        1000 * (start_ - first_), frames_, now - start_, frames_ / (now - start_), what.c_str(),
        static_cast<unsigned long long>(app_.cache.uploads()), app_.cache.size());
    finish(0);
}

}  // namespace vit::gui
