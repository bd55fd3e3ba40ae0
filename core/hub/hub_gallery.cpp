// The gallery of real models (hub_gallery.h).
#include "hub/hub_gallery.h"

namespace vit {

const std::vector<HubGalleryModel>& hub_gallery() {
    static const std::vector<HubGalleryModel> kGallery = {
        {"hf-hub:timm/vit_tiny_patch16_224.augreg_in21k_ft_in1k", "ViT-Ti/16", 23, "ImageNet-21k, then ImageNet-1k",
         "the smallest real ViT (3 heads of 64): fast on any laptop, 1,000 classes"},
        {"hf-hub:timm/vit_small_patch16_224.augreg_in21k_ft_in1k", "ViT-S/16", 88, "ImageNet-21k, then ImageNet-1k",
         "6 heads: heads that look near and heads that look far"},
        {"hf-hub:timm/vit_base_patch16_224.augreg2_in21k_ft_in1k", "ViT-B/16", 346, "ImageNet-21k, then ImageNet-1k",
         "the paper's model: 12 blocks of 12 heads"},
        {"hf-hub:timm/deit_small_distilled_patch16_224.fb_in1k", "DeiT-S distilled", 89, "ImageNet-1k, taught by a CNN",
         "a CLS and a DIST token, two heads that vote"},
        {"hf-hub:timm/vit_small_patch16_224.dino", "DINO ViT-S/16", 87, "ImageNet-1k without labels",
         "no classifier: its CLS attention finds the object on its own"},
        {"hf-hub:timm/vit_small_patch14_reg4_dinov2.lvd142m", "DINOv2 ViT-S/14, 4 registers", 88,
         "142 million curated images without labels", "registers, patch features as colours (PCA)"},
        {"hf-hub:timm/vit_base_patch16_clip_224.openai", "CLIP ViT-B/16 image tower", 346,
         "400 million image-text pairs", "what a text-aligned ViT attends to (no classes)"},
        {"hf-hub:timm/vit_medium_patch16_gap_256.sw_in12k_ft_in1k", "ViT-M/16, no class token", 155,
         "ImageNet-12k, then ImageNet-1k", "the head reads the mean of the patches, not a CLS token"},
    };
    return kGallery;
}

}  // namespace vit
