// What the patch-PCA screen's two forms share (findings_features.cpp: one image,
// findings_joint.cpp: one PCA over several images, core/findings/pca.h): the
// formula, the colours kept once per trace and setting, their texture, the
// components' shares as a legend line, a patch's tooltip.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "findings/pca.h"
#include "logic/jobs/joint_passes.h"
#include "views/widgets/views.h"

namespace vit::gui {

extern const char* const kPcaFormula;
extern const char* const kPcaPytorch;

// `compute`'s colours, one per image of `tokens`, computed once per `key` (the derived cache).
std::vector<PatchColours> cached_pca_colours(ViewContext& ctx, CacheKey key, const std::vector<PatchTokens>& tokens,
                                             const std::function<std::vector<PatchColours>()>& compute);
// The colours as a grid × grid texture's pixels.
RgbaImage pca_colour_pixels(const PatchColours& colours, int grid);
// "r, g, b = components 1, 2, 3 (40, 20, 9 % of variance)", or "" before any colours.
std::string pca_shares_line(const PatchColours& colours);
// "r 0.20  g 0.51  b 0.93" for patch p, "(background)" added when it is not coloured.
std::string pca_patch_tooltip(const PatchColours& colours, int p);

// The joint form below the screen's controls: the colours of this image and `joint`'s images
// (the other images' passes; null or partial while they run) fitted together, side by side.
void DrawJointPatchFeatures(ViewContext& ctx, const StageRef& stage, const Tensor& x, const PatchTokens& tokens,
                            const JointPasses* joint);

}  // namespace vit::gui
