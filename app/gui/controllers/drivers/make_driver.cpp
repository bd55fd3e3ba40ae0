// make_driver (controllers/drivers/driver.h): the driver the command line asks for.
#include "controllers/drivers/driver.h"

#include "controllers/drivers/fps_measure.h"
#include "controllers/drivers/monkey_driver.h"
#include "controllers/drivers/pass_measure.h"
#include "controllers/drivers/tour_run.h"
#include "controllers/drivers/train_tour.h"

namespace vit::gui {

std::unique_ptr<Driver> make_driver(const DriverParts& parts) {
    const Options& o = parts.app.options;
    if (o.monkey_seconds > 0) return std::make_unique<MonkeyDriver>(parts);
    if (o.measure_pass > 0) return std::make_unique<PassMeasure>(parts.app);
    if (o.measure_fps > 0) return std::make_unique<FpsMeasure>(parts.app);
    if (!o.tour_dir.empty() && o.train && o.lesson.empty()) return std::make_unique<TrainTour>(parts);
    if (!o.tour_dir.empty()) return std::make_unique<TourRun>(parts);
    return nullptr;
}

}  // namespace vit::gui
