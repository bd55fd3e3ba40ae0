// libFuzzer target: the config readers, on bytes in memory as read_config
// reads its files. The first byte selects the file: even, config.json (timm
// or Hugging Face form, as the content says); odd, preprocessor_config.json
// on top of a minimal Hugging Face config.json. Errors must be vit::Error;
// the spec a file is accepted with must hold what the loader relies on.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "model/config.h"
#include "base/error.h"

namespace {

void check_spec(const vit::ConfigSpec& spec) {
    const vit::Preprocess& pre = spec.preprocess;
    if (pre.mean.empty() || pre.mean.size() != pre.std.size()) __builtin_trap();
    for (float s : pre.std)
        if (s == 0.0f) __builtin_trap();
    if (!(pre.crop_pct > 0.0f && pre.crop_pct <= 1.0f)) __builtin_trap();
    if (pre.interpolation != "bicubic" && pre.interpolation != "bilinear") __builtin_trap();
    if (spec.input_size && (spec.input_size->value < 1 || spec.input_size->value > 8192)) __builtin_trap();
    for (const auto* size : {&spec.channels, &spec.patch_size, &spec.embed_dim, &spec.depth, &spec.num_heads,
                             &spec.mlp_dim, &spec.num_classes, &spec.img_size})
        if (*size && ((*size)->value < 0 || (*size)->value > vit::kMaxStatedSize)) __builtin_trap();
    for (const auto& [index, name] : spec.labels)
        if (index < 0 || index >= vit::kMaxStatedSize) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const bool preprocessor = data[0] & 1;
    try {
        vit::ConfigSpec spec;
        if (preprocessor) {
            static const char hf_config[] = R"({"model_type": "vit"})";
            spec =
                vit::parse_config(reinterpret_cast<const uint8_t*>(hf_config), std::strlen(hf_config), "config.json");
            vit::apply_preprocessor_config(data + 1, size - 1, "preprocessor_config.json", spec);
        } else {
            spec = vit::parse_config(data + 1, size - 1, "config.json");
        }
        check_spec(spec);
    } catch (const vit::Error&) {}
    return 0;
}
