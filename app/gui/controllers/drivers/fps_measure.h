// FpsMeasure: `vitviz --measure-fps SECONDS`. Once a pass is on screen it
// counts frames for SECONDS, stepping to the next stage every 20 frames (both
// the stage and the attention screen, or the --screen alone), then prints the
// first frame's time, the frames a second, the texture uploads and the
// textures cached, and ends the app.
#pragma once
#include "controllers/drivers/driver.h"

namespace vit::gui {

class FpsMeasure : public Driver {
public:
    explicit FpsMeasure(AppContext& app) : Driver(true), app_(app) {}
    void before_frame(UiActions& actions) override;

private:
    void step_stage();  // every 20 frames
    void report(double now);

    AppContext& app_;
    double first_ = -1.0;  // when the trace arrived (its first frame builds the textures)
    double start_ = -1.0;  // after that first frame: the frames counted from here
    long frames_ = 0;
};

}  // namespace vit::gui
