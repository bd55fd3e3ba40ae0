// What the findings screens (attention distance, patch PCA, token norms, DINO
// masks) share: which patch rows the trace holds (core/findings/patch_tokens.h),
// a block chooser, a title with a subtitle, a formula with its PyTorch line, and
// the model's picture with one colour per patch laid over it and patches outlined.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "findings/patch_tokens.h"
#include "views/widgets/views.h"

namespace vit::gui {

// The patch rows of the trace the views show.
PatchTokens findings_tokens(const ViewContext& ctx);
// "block [slider]" bound to state.layer; false when the model has no block (nothing to show).
bool FindingsBlockChooser(ViewContext& ctx);
// The screen's heading, in the heading font.
void FindingsHeading(ViewContext& ctx, const char* text);
// A heading and a dimmed line under it, both fitted to `width`.
void FindingsTitle(ViewContext& ctx, const std::string& title, const std::string& subtitle, float width);
// The formula (highlighted, monospace) and the PyTorch line that computes the same quantity.
void FindingsFormula(ViewContext& ctx, const std::string& formula, const std::string& pytorch);
// Room FindingsFormula takes at the current width.
float FindingsFormulaHeight(ViewContext& ctx, const std::string& formula, const std::string& pytorch);

// grid² RGBA colours, one per patch in image order, as a grid × grid texture.
RgbaImage patch_colour_pixels(const std::vector<Rgb>& colours, const std::vector<uint8_t>& alpha, int grid);
// The model's picture `side` px wide with the texture `key` (made by `make`, grid × grid) over it,
// and `outlined` patches (grid², may be empty) framed in `outline` colour; a tooltip names the patch.
void DrawPatchColours(ViewContext& ctx, const CacheKey& key, const std::function<RgbaImage()>& make, float side,
                      const std::vector<uint8_t>& outlined = {}, ImU32 outline = IM_COL32(255, 60, 60, 255),
                      const std::function<std::string(int)>& tooltip = {});

}  // namespace vit::gui
