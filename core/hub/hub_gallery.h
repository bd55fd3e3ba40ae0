// The trained models a course would open first, each a timm checkpoint on the
// Hugging Face Hub with safetensors weights that the loaders read: what it was
// trained on, its download size and what it is good for showing. The app's
// Open window lists them; any other hf-hub: name can be typed.
#pragma once
#include <string>
#include <vector>

namespace vit {

struct HubGalleryModel {
    const char* name;        // "hf-hub:timm/…"
    const char* title;       // "ViT-Ti/16"
    int megabytes;           // model.safetensors, about
    const char* trained_on;  // "ImageNet-21k, then ImageNet-1k"
    const char* shows;       // what a class sees with it
};

const std::vector<HubGalleryModel>& hub_gallery();

// True when the Hugging Face cache holds the model's snapshot (it opens with no network).
bool hub_model_cached(const std::string& name);

}  // namespace vit
