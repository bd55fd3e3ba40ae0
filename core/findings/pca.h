// Principal components and the pictures made of them:
// - pca(X, k): X (n × d, one sample a row) centred on its column means, its top k
//   right singular vectors (components, k × d) and the samples' coordinates on them
//   (n × k), each component's sign chosen so its largest |coordinate| is positive
//   (a sign is arbitrary; this makes it repeatable). PyTorch:
//   U, S, V = torch.pca_lowrank(X, q=k, center=True) (up to sign), coords = (X − X.mean(0)) @ V.
// - patch features as RGB: the coordinates on 3 components, each min-max scaled
//   to 0…1 over the patches: rgb[i, c] = (z[i, c] − min_c) / (max_c − min_c).
// - DINOv2's two-step form (Oquab et al. 2023, Figure 1; the recipe of the DINOv2
//   repository's PCA answers): the first component, min-max scaled, thresholded
//   (foreground where ≥ threshold), then a second PCA of the foreground patches
//   alone gives their colours; background patches are black.
// - joint over images (DINOv2's Figure 1): the patch rows of several images' token
//   stages stacked and treated as one sample set (one PCA, one min-max, one threshold),
//   so the same component gives the same colour in every image.
#pragma once
#include <vector>

#include "findings/patch_tokens.h"

namespace vit {

struct Pca {
    Mat components;            // k × d, unit rows
    Mat coords;                // n × k
    std::vector<float> share;  // each component's share of the total variance
};
Pca pca(const Mat& samples, int k);

struct PatchColours {
    std::vector<float> rgb;           // grid² × 3 in image patch order, 0…1 (black where no patch row)
    std::vector<uint8_t> foreground;  // grid²: 1 where coloured (all patches in the one-step form)
    std::vector<float> share;         // variance share of the three components used for the colours
};
// PCA of the patch rows of `x` (a T × D token stage); `two_step`: DINOv2's form with `threshold`.
PatchColours patch_pca_colours(const Tensor& x, const PatchTokens& tokens, bool two_step, float threshold);
// The same fitted on every image's patch rows together (`xs[i]`: image i's stage of one layer,
// `tokens[i]` its patch rows): one PatchColours per image, in order, all with the joint shares.
// Throws vit::Error when the counts or the token widths differ. The app fits it on
// kJointPcaImages at most, as Figure 1 does (the image on screen and three others).
inline constexpr size_t kJointPcaImages = 4;
std::vector<PatchColours> joint_patch_pca_colours(const std::vector<const Tensor*>& xs,
                                                  const std::vector<PatchTokens>& tokens, bool two_step,
                                                  float threshold);

// The first layer's filters (patch_w, D × C·P·P) as samples: their top k components
// (k × C·P·P, each a C×P×P picture) — the ViT paper's Figure 7 (left).
Pca filter_components(const Model& model, int k);

}  // namespace vit
