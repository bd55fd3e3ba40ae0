// TrainTour: the driver of `vitviz --train --tour DIR`. The training run
// starts paused; the driver saves DIR/train-start.png (step 0),
// train-middle.png (paused at half the steps) and train-end.png (finished),
// each once the main view runs the run's newest weights, then ends the app.
#pragma once
#include <string>

#include "controllers/drivers/driver.h"

namespace vit::gui {

class TrainTour : public Driver {
public:
    explicit TrainTour(const DriverParts& parts);
    void after_drawn() override;  // a shot falls due
    void after_render(int fb_width, int fb_height) override;
    bool takes_person() const override { return false; }
    std::optional<double> held_transition() const override { return 1.0; }

private:
    static constexpr int kShots = 3;
    static constexpr int kSettleFrames = 3;  // frames rendered before a shot is read: layout and textures settle

    DriverParts parts_;
    int shot_ = 0;  // the next of start, middle, end
    bool due_ = false;
    int due_frames_ = 0;
    std::string file_;
};

}  // namespace vit::gui
