// PassMeasure (controllers/drivers/pass_measure.h): the Ask panel's rerun, timed from
// the click to the frame that shows its answer.
#include "controllers/drivers/pass_measure.h"

#include <algorithm>
#include <cstdio>

#include "logic/ask/ask_state.h"
#include "pass/forward.h"
#include "pass/trace.h"

namespace vit::gui {

std::string measured_run(const std::string& model, const Trace& trace) {
    const Tensor& input = trace.at(StageRef{StageKind::Input});
    const std::string side = std::to_string(input.shape.back());
    const Tensor* tokens = trace.tensor({StageKind::Tokens});
    return model + " at " + side + "×" + side + " px" +
           (tokens ? " (" + std::to_string(tokens->rows()) + " tokens)" : std::string());
}

void PassMeasure::after_drawn() {
    if (clicked_ && app_.generation != asked_generation_) answered_ = true;
    if (clicked_ && clicked_->ms() > kAnswerLimitMs) {  // a pass that failed (its error is on screen) or never ends
        std::fprintf(stderr, "vitviz: --measure-pass: no answer %.0f s after a click\n", kAnswerLimitMs / 1000);
        return finish(1);
    }
    if (clicked_ || !app_.trace || app_.loader.busy() || app_.state.ask.marks.empty()) return;
    if (answers_ >= kWarmUpClicks + app_.options.measure_pass) return;
    // As clicks on the panel's patch grid, each a question not asked before: masks
    // {0}, {0, 1}, {1}, {1, 2}, {2}, … (never none: that is the plain pass, shown
    // again without running it).
    AskState& ask = app_.state.ask;
    const int clicks = answers_, patches = static_cast<int>(ask.marks.size());
    if (clicks % 2 == 1) paint_patch(ask, (clicks + 1) / 2 % patches, true);
    else if (clicks == 0) paint_patch(ask, 0, true);
    else paint_patch(ask, (clicks / 2 - 1) % patches, false);
    clicked_.emplace();
    asked_generation_ = app_.generation;
}

void PassMeasure::presented() {
    if (!answered_) return;
    if (++answers_ > kWarmUpClicks) {
        pass_ms_.push_back(clicked_->ms());
        forward_ms_.push_back(app_.forward_ms);
    }
    clicked_.reset();
    answered_ = false;
    if (answers_ == kWarmUpClicks + app_.options.measure_pass) report();
}

// A Stream trace's blocks recomputed as the views recompute the block on screen, stepping
// from the middle block on as a student does (BlockFocus), timed against a block's share
// of the core's pass.
void PassMeasure::report_block(const TimingStats& core) {
    const int depth = app_.model->config.depth, first = depth / 2, steps = kBlockSteps;
    std::vector<double> ms;
    for (int i = 0; i < steps; ++i) {
        const Stopwatch watch;
        app_.focus.seen(app_.trace, (first + i) % depth);
        ms.push_back(watch.ms());
    }
    const double share = core.median_ms / depth, median = timing_stats(ms).median_ms;
    std::printf(
        "block_ms median=%.1f first=%.1f steps=%d (blocks %d on recomputed for the views, one step at a time; a "
        "block's share of the core's pass %.1f ms: %.2f x)\n",
        median, ms.front(), steps, first, share, median / share);
}

void PassMeasure::report() {
    const TimingStats pass = timing_stats(pass_ms_);
    double max_ms = 0;
    for (double ms : pass_ms_) max_ms = std::max(max_ms, ms);
    std::printf(
        "pass_ms median=%.1f min=%.1f max=%.1f n=%zu (%s; click in the Ask panel to its answer on screen, after "
        "%d clicks that make the trace storage the later ones reuse; the worker's forward median=%.1f)\n",
        pass.median_ms, pass.min_ms, max_ms, pass_ms_.size(), measured_run(app_.model_name, *app_.trace).c_str(),
        kWarmUpClicks, timing_stats(forward_ms_).median_ms);
    const Tensor& input = app_.trace->at(StageRef{StageKind::Input});
    const TraceKeep keep = app_.trace->keep();
    const ForwardTiming core =
        time_forward(*app_.model, input, app_.options.measure_pass, keep, WeightPacking::AsItGoes);
    std::printf("core_ms median=%.1f min=%.1f runs=%d (%s, same model and input)\n", core.median_ms, core.min_ms,
                app_.options.measure_pass,
                keep == TraceKeep::Stream
                    ? "the core's pass keeping the residual stream, its weights not packed ahead, as the app's"
                    : "the pass vitviz-cli --bench times, its weights not packed ahead, as the app's");
    if (keep == TraceKeep::Stream) report_block(core);
    std::fflush(stdout);
    finish(0);
}

}  // namespace vit::gui
