// The one registry of built-in models: the models vitviz-cli and vitviz open
// by name, no path needed. Each entry says what menus and usage text show,
// whether the model brings its own image (and that image's display name) and
// how the model is made or loaded. The CLI, the app's options, its Open window
// and lesson files all read this list; load_model (formats/checkpoint.h) loads
// its entries. Also the one way the CLI and the app choose a model's image.
#pragma once
#include <string>
#include <vector>

#include "formats/checkpoint.h"
#include "formats/image.h"
#include "model/model.h"

namespace vit {

inline constexpr const char* kToyModel = "toy-4x4";         // the toy notebook's model (toy_model.h)
inline constexpr const char* kDigitsModel = "digits";       // the trained digits ViT in assets/digits
inline constexpr const char* kRandomVitB = "vit-b-random";  // ViT-B/16's layout with seeded random weights
// Its siblings with timm's other token layouts (random_model.h), seeded random weights too.
inline constexpr const char* kRandomReg4 = "vit-s-reg4-random";             // CLS, 4 registers, no head
inline constexpr const char* kRandomDistilled = "deit-s-distilled-random";  // CLS, DIST, two heads
inline constexpr const char* kRandomGap = "vit-m-gap-random";               // no CLS, mean of the patches
inline constexpr const char* kRandomClip = "vit-b-clip-random";             // norm_pre, no patch bias, no head

struct BuiltinModel {
    const char* name;         // kToyModel, ...
    const char* description;  // one line for menus and usage text
    const char* image_name;   // the display name of its own image; nullptr: it has none
    Image (*image)();         // its own image; nullptr with image_name
    Model (*load)(const LoadProgress& progress);
};

// Every built-in model, in the order menus list them.
const std::vector<BuiltinModel>& builtin_models();
// The entry named `name`; nullptr for anything else (a checkpoint path).
const BuiltinModel* find_builtin_model(const std::string& name);
bool is_builtin_model(const std::string& name);
// A model given by name, not by path: a built-in one or one on the Hub ("hf-hub:ORG/NAME").
bool is_named_model(const std::string& name);
// True for a built-in model that brings its own image (it needs no --image).
bool brings_own_image(const std::string& name);
// The names joined by `separator`: "toy-4x4|digits|vit-b-random".
std::string builtin_model_names(const std::string& separator);
// One usage line per model, "<indent><name>: <description>\n".
std::string builtin_model_lines(const std::string& indent);

// The image model `model_name` runs on: the file at `path` decoded with the
// model's `channels`, or when `path` is empty the built-in model's own image
// in those channels (vit::Error for a model without one).
Image model_image(const std::string& model_name, const std::string& path, int channels);

}  // namespace vit
