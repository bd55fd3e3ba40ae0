// PassMeasure: the driver of `vitviz --measure-pass N`. Reruns the pass 2 + N times the way a
// click in the Ask panel does (a patch masked or shown again: the panel's
// question changes while the frame is drawn, AskController::sync sends it on
// the next frame, the worker runs it, App applies the answer and draws it),
// times each after the first two from the click to the frame that drew its
// answer on screen,
// then prints the median, minimum and maximum beside the core's own pass on
// the same model and input (time_forward: the pass `vitviz-cli --bench`
// times), for a Stream trace the time to recompute one block for the views
// beside that block's share of the pass, and ends the app.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "pass/timing.h"
#include "controllers/drivers/driver.h"

namespace vit::gui {

// What a measurement ran, for its printed line: "MODEL at S×S px (T tokens)", the input size from the trace.
std::string measured_run(const std::string& model, const Trace& trace);

class PassMeasure : public Driver {
public:
    explicit PassMeasure(AppContext& app) : Driver(true), app_(app) {}
    // At the end of a frame's drawing: an answer arrived (a new trace), or the next question once the last is shown.
    void after_drawn() override;
    void presented() override;  // the answer's frame is on screen: one more figure; after the last, the report

private:
    void report();
    void report_block(const TimingStats& core);
    static constexpr double kAnswerLimitMs = 60000;  // a click with no answer by then ends the measure (exit 1)
    // Clicks answered before the timed ones: the first two reruns after a load make the
    // trace storage (the app shows one pass beside the unmodified one) that the later ones
    // reuse, as time_forward runs one pass before the passes it times.
    static constexpr int kWarmUpClicks = 2;
    static constexpr int kBlockSteps = 6;  // blocks stepped through for report_block

    AppContext& app_;
    int answers_ = 0;                   // clicks answered, the warm-up ones too
    std::optional<Stopwatch> clicked_;  // a question is on its way
    uint64_t asked_generation_ = 0;     // the views' generation (AppContext::generation) when it was asked
    bool answered_ = false;             // its answer was applied this frame
    std::vector<double> pass_ms_, forward_ms_;
};

}  // namespace vit::gui
