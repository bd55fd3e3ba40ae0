// TourRun: the driver of `vitviz --tour DIR`. Once the first pass is on
// screen it plans the tour (logic/state/tour.h: a shot per stage, the screens,
// the Ask and Draw windows; with --lesson, a shot per step and answer:
// logic/lesson/lesson_player.h), shows each shot in turn, and saves it when
// every pass, map and walk it shows has arrived, printing the share of the
// window its pictures cover. With --handout each shot is cut to its figure and
// the page is written at the end. The pointer stays off the window (no
// tooltips) and a lesson's transitions are held still, so every run saves the
// same pictures. A failure on screen ends the run with exit code 1.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "controllers/drivers/driver.h"
#include "logic/state/tour.h"

namespace vit::gui {

class TourRun : public Driver {
public:
    explicit TourRun(const DriverParts& parts) : Driver(true), parts_(parts) {}
    void before_frame(UiActions& actions) override;
    void after_render(int fb_width, int fb_height) override;
    bool takes_person() const override { return false; }
    std::optional<double> held_transition() const override;

private:
    void plan();  // the stages' tour, or the lesson's
    void show(const TourShot& shot);
    void save_shot(int fb_width, int fb_height);
    void save_handout_figure(const std::string& path, int fb_width, int fb_height);
    void end();

    DriverParts parts_;
    std::optional<TourSchedule> schedule_;
    std::string planned_lesson_;    // the lesson the schedule tours ("" for the stages')
    std::vector<double> coverage_;  // each screenshot's share of the window covered by pictures
};

}  // namespace vit::gui
