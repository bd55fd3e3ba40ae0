// The two halves of a screen that shows the loaded model beside the comparison
// model (controllers/compare_controller.h): the attention and CLS-mask screens.
// Each half is a child window titled with its model's name and block; the
// comparison's block is the one at the same relative depth as the loaded
// model's (logic/jobs/compare_pass.h: comparison_layer), and its title says so.
#pragma once
#include <functional>

#include "views/widgets/views.h"

namespace vit::gui {

// `size` at the cursor split in two halves under their titles: left `draw_loaded(main)`, right
// `draw_compared(the comparison's views)` (`main.comparison`), with a note while its pass is on
// its way, or only that note before its first pass.
void DrawComparisonHalves(ViewContext& main, ImVec2 size, const std::function<void(ViewContext&)>& draw_loaded,
                          const std::function<void(ViewContext&)>& draw_compared);

}  // namespace vit::gui
