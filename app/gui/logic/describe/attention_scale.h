// Honest colour scales for attention maps. By default every head of a layer is
// coloured on one scale (0 to the largest weight any of them shows), so equal
// colours mean equal weights and heads can be compared; 0–100% compares across
// layers too; each map's own stretch (minimum dark, maximum bright) shows the
// shape of one map best, and its caption says so. Plain data, no ImGui.
#pragma once
#include <string>
#include <vector>

#include "logic/describe/colormap.h"

namespace vit::gui {

// The colour range of map `index` of `maps` (each `n` values, e.g. one head's
// attention row over the patches). LayerMax and Percent give every map the same
// range; EachMap gives each its own minimum … maximum.
Range attention_range(AttentionScale scale, const std::vector<const float*>& maps, int n, int index);
// One line under the maps that names the scale, e.g. "one colour scale for the
// 4 heads of block 2: 0 … 23% (their largest weight)".
std::string attention_scale_caption(AttentionScale scale, Range shared, int heads, int layer);
// The rule for a screen of many layers' maps (the model view), e.g. "the heads of a block
// share one colour scale, 0 to their largest weight (beside the block's name)".
std::string attention_scale_rule(AttentionScale scale);
// The names of the choices, in enum order, for a selector.
const char* attention_scale_name(AttentionScale scale);

}  // namespace vit::gui
