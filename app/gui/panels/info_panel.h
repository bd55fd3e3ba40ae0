// The side panel: what the current stage computes (describe_stage: title,
// formula, shapes with the model's real sizes, the PyTorch line, an
// explanation, and where a seed notebook goes wrong), the selected token, and
// the keyboard keys.
#pragma once
#include "views/widgets/view_common.h"

namespace vit::gui {

void DrawInfoPanel(ViewContext& ctx);

}  // namespace vit::gui
