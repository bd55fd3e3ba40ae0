// config.json (timm or Hugging Face form) and preprocessor_config.json.
// timm: the hub config timm's push_to_hub writes (`architecture`,
// `num_classes`, `model_args`, `pretrained_cfg`), and timm's model names.
// HF: ViTConfig's, Dinov2Config's and Dinov2WithRegistersConfig's keys
// (`model_type` picks the model) and
// ViTImageProcessor's (`size`, `resample`, `image_mean`, `image_std`, plus
// `crop_size`/`crop_pct` of DeiT/ConvNeXt and DINOv2's BitImageProcessor).
#include "model/config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/file_io.h"
#include "base/json_parse.h"
#include "base/parse.h"

namespace vit {

using nlohmann::json;

namespace {

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// Typed access to the keys of one JSON object; errors name the file and the key.
struct Fields {
    const json& object;
    const std::string& path;

    const json* find(const char* key) const {
        if (!object.is_object()) return nullptr;
        const auto it = object.find(key);
        return it == object.end() || it->is_null() ? nullptr : &*it;
    }
    [[noreturn]] void fail(const char* key, const std::string& wanted, const json& got) const {
        throw Error(path + ": '" + key + "' must be " + wanted + ", got " + quoted(got));
    }
    std::optional<int> integer(const char* key, int min, int max) const {
        const json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_number_integer() || v->get<int64_t>() < min || v->get<int64_t>() > max)
            fail(key, "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]", *v);
        return static_cast<int>(v->get<int64_t>());
    }
    std::optional<double> number(const char* key, double min, double max) const {
        const json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_number() || !(v->get<double>() >= min && v->get<double>() <= max))
            fail(key, "a number in [" + json(min).dump() + ", " + json(max).dump() + "]", *v);
        return v->get<double>();
    }
    std::optional<std::string> text(const char* key) const {
        const json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_string()) fail(key, "a string", *v);
        return v->get<std::string>();
    }
    std::optional<bool> flag(const char* key) const {
        const json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) fail(key, "true or false", *v);
        return v->get<bool>();
    }
    const json* object_at(const char* key) const {
        const json* v = find(key);
        if (v && !v->is_object()) fail(key, "an object", *v);
        return v;
    }
    std::optional<std::vector<float>> floats(const char* key) const {
        const json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_array() || v->empty() || v->size() > 4) fail(key, "a list of 1 to 4 numbers", *v);
        std::vector<float> values;
        for (const json& x : *v) {
            if (!x.is_number() || !std::isfinite(x.get<float>()))  // 1e39 overflows float to inf
                fail(key, "a list of 1 to 4 numbers within float range", *v);
            values.push_back(x.get<float>());
        }
        return values;
    }
    // A square size given as N, [N, N] (timm img_size) or {"height": N, "width": N} (HF).
    std::optional<int> square(const char* key) const {
        const json* v = find(key);
        if (!v) return std::nullopt;
        json h, w;
        if (v->is_array() && v->size() == 2) {
            h = (*v)[0], w = (*v)[1];
        } else if (v->is_object() && v->contains("height") && v->contains("width")) {
            h = (*v)["height"], w = (*v)["width"];
        } else {
            h = w = *v;
        }
        if (!h.is_number_integer() || h.get<int64_t>() < 1 || h.get<int64_t>() > kMaxImageSide)
            fail(key, "an image size in [1, " + std::to_string(kMaxImageSide) + "]", *v);
        if (h != w) fail(key, "a square size (non-square inputs are not supported)", *v);
        return h.get<int>();
    }
    StatedSize said(const std::string& what, int value) const {
        return {value, file_name(path) + " says " + what + " " + std::to_string(value)};
    }
    std::optional<StatedSize> stated(const char* key, int min = 1, int max = kMaxStatedSize) const {
        const std::optional<int> v = integer(key, min, max);
        if (!v) return std::nullopt;
        return said(key, *v);
    }
    std::optional<StatedSize> stated_square(const char* key) const {
        const std::optional<int> v = square(key);
        if (!v) return std::nullopt;
        return said(key, *v);
    }
};

template <class T>
void fill(std::optional<T>& slot, const std::optional<T>& value) {
    if (!slot) slot = value;
}

std::string interpolation_name(const Fields& f, const char* key, const std::string& name) {
    if (name != "bicubic" && name != "bilinear") f.fail(key, "\"bicubic\" or \"bilinear\"", json(name));
    return name;
}

void read_mean_std(const Fields& f, const char* mean_key, const char* std_key, ConfigSpec& spec) {
    const auto mean = f.floats(mean_key), std = f.floats(std_key);
    if (!mean && !std) return;
    if (!mean || !std || mean->size() != std->size())
        throw Error(f.path + ": '" + mean_key + "' and '" + std_key + "' must both be given, one value per channel");
    for (float s : *std)
        if (s == 0.0f) f.fail(std_key, "non-zero", json(*std));
    spec.preprocess.mean = *mean;
    spec.preprocess.std = *std;
    spec.mean_std_path = f.path;
}

void read_label_names(const Fields& f, const char* key, ConfigSpec& spec) {
    const json* names = f.find(key);
    if (!names || !spec.labels.empty()) return;
    if (!names->is_array()) f.fail(key, "a list of class names", *names);
    for (size_t i = 0; i < names->size() && i < static_cast<size_t>(kMaxStatedSize); ++i) {
        if (!(*names)[i].is_string()) f.fail(key, "a list of class names", (*names)[i]);
        spec.labels[static_cast<int>(i)] = (*names)[i].get<std::string>();
    }
}

void read_id2label(const Fields& f, ConfigSpec& spec) {
    const json* id2label = f.object_at("id2label");
    if (!id2label) return;
    for (const auto& [key, name] : id2label->items()) {
        const std::optional<int> index = to_int(key, 0, kMaxStatedSize - 1);
        if (!index) f.fail("id2label", "an object with class indices as keys", json(key));
        if (!name.is_string()) f.fail("id2label", "an object of class names", name);
        spec.labels[*index] = name.get<std::string>();
    }
}

void read_timm_pretrained_cfg(const Fields& cfg, ConfigSpec& spec) {
    if (const json* input = cfg.find("input_size")) {
        const auto in_range = [](const json& v, int max) {
            return v.is_number_integer() && v.get<int64_t>() >= 1 && v.get<int64_t>() <= max;
        };
        if (!input->is_array() || input->size() != 3 || !in_range((*input)[0], 4) ||
            !in_range((*input)[1], kMaxImageSide) || (*input)[1] != (*input)[2])
            cfg.fail("input_size", "[channels, size, size] (a square image)", *input);
        fill(spec.input_size, std::optional<StatedSize>(cfg.said("input_size", (*input)[1].get<int>())));
        fill(spec.channels, std::optional<StatedSize>(cfg.said("input_size channels", (*input)[0].get<int>())));
    }
    if (auto interpolation = cfg.text("interpolation"))
        spec.preprocess.interpolation = interpolation_name(cfg, "interpolation", *interpolation);
    if (auto crop_pct = cfg.number("crop_pct", 0.05, 1.0)) spec.preprocess.crop_pct = static_cast<float>(*crop_pct);
    if (auto mode = cfg.text("crop_mode")) {
        if (*mode != "center" && *mode != "squash") cfg.fail("crop_mode", "\"center\" or \"squash\"", json(*mode));
        spec.preprocess.keep_aspect = *mode == "center";
    }
    read_mean_std(cfg, "mean", "std", spec);
    fill(spec.num_classes, cfg.stated("num_classes", 0));
    read_label_names(cfg, "label_names", spec);
}

// A number a timm architecture name spells, within the bounds the config's
// own field has (from 1 to `max`): "config.json's architecture 'vit_base_patch0_224'
// says a patch size of 0, less than the smallest supported (1)".
void check_named_number(const std::string& because, const char* what, int value, int max) {
    if (value >= 1 && value <= max) return;
    throw Error(because + what + " of " + std::to_string(value) +
                (value < 1 ? ", less than the smallest supported (1)"
                           : ", more than the largest supported (" + std::to_string(max) + ")"));
}

// timm's global_pool: 'token', 'avg' or '' (others, such as 'map' or 'max', are refused).
void read_global_pool(const Fields& f, ConfigSpec& spec) {
    const std::optional<std::string> pool = f.text("global_pool");
    if (!pool) return;
    if (*pool == "token") spec.global_pool = GlobalPool::Token;
    else if (*pool == "avg") spec.global_pool = GlobalPool::Avg;
    else if (pool->empty()) spec.global_pool = GlobalPool::None;
    else f.fail("global_pool", "\"token\", \"avg\" or \"\" (the pooling this app runs)", json(*pool));
}

// model_args' token settings: class_token, reg_tokens, no_embed_class, fc_norm, global_pool.
void read_timm_token_args(const Fields& args, ConfigSpec& spec) {
    read_global_pool(args, spec);
    if (const auto v = args.flag("class_token")) spec.class_token = v;
    if (const auto v = args.flag("no_embed_class")) spec.no_embed_class = v;
    if (const json* v = args.find("fc_norm"); v && !v->is_null()) spec.fc_norm = args.flag("fc_norm");
    if (const auto v = args.integer("reg_tokens", 0, 64)) spec.reg_tokens = v;
}

// model_args' act_layer ('gelu', 'quick_gelu') and mlp_layer: 'SwiGLUPacked'
// (the name of timm's class; act_layer then 'silu', its only activation here).
void read_timm_mlp_layer(const Fields& args, ConfigSpec& spec) {
    if (auto layer = args.text("mlp_layer")) {
        if (*layer != "SwiGLUPacked" && *layer != "Mlp")
            args.fail("mlp_layer", "\"Mlp\" or \"SwiGLUPacked\" (the MLPs this app runs)", json(*layer));
        spec.activation = *layer == "SwiGLUPacked" ? Activation::SwiGlu : Activation::Gelu;
    }
    const auto act = args.text("act_layer");
    if (!act) return;
    if (spec.activation == Activation::SwiGlu) {
        if (*act != "silu") args.fail("act_layer", "\"silu\" (mlp_layer is SwiGLUPacked)", json(*act));
        return;
    }
    if (*act != "gelu" && *act != "quick_gelu") args.fail("act_layer", "\"gelu\" or \"quick_gelu\"", json(*act));
    spec.activation = *act == "quick_gelu" ? Activation::QuickGelu : Activation::Gelu;
}

// The variant a timm name implies (TimmName), then what model_args says over it.
void read_timm_variant(const TimmName& named, const json* model_args, const std::string& path, ConfigSpec& spec) {
    spec.layer_scale = named.dinov2;
    spec.norm_pre = named.clip;
    if (named.clip) spec.ln_eps = 1e-5f;  // norm_layer=nn.LayerNorm: PyTorch's default eps
    if (named.quickgelu) spec.activation = Activation::QuickGelu;
    if (named.dinov2 && named.giant) spec.activation = Activation::SwiGlu;  // vit_giant_patch14_dinov2's SwiGLUPacked
    if (!model_args) return;
    const Fields args{*model_args, path};
    if (const json* init = args.find("init_values")) {
        if (!init->is_number()) args.fail("init_values", "a number or null", *init);
        spec.layer_scale = init->get<double>() != 0.0;
        spec.layer_scale_stated = true;
    }
    spec.qkv_bias = args.flag("qkv_bias");
    if (auto pre_norm = args.flag("pre_norm")) {
        spec.norm_pre = *pre_norm;
        spec.norm_pre_stated = true;
    }
    read_timm_mlp_layer(args, spec);
}

void read_timm(const json& root, const std::string& path, ConfigSpec& spec) {
    const Fields top{root, path};
    spec.name = top.text("architecture").value_or("");
    spec.num_classes = top.stated("num_classes", 0);
    read_label_names(top, "label_names", spec);
    read_global_pool(top, spec);
    if (const json* model_args = top.object_at("model_args")) {
        const Fields args{*model_args, path};
        read_timm_token_args(args, spec);
        spec.patch_size = args.stated("patch_size");
        spec.embed_dim = args.stated("embed_dim");
        spec.depth = args.stated("depth");
        spec.num_heads = args.stated("num_heads");
        spec.channels = args.stated("in_chans", 1, 4);
        spec.img_size = args.stated_square("img_size");
        spec.mlp_ratio = args.number("mlp_ratio", 1.0 / 64, 64.0);
        fill(spec.num_classes, args.stated("num_classes", 0));
    }
    if (const json* pretrained = top.object_at("pretrained_cfg"))
        read_timm_pretrained_cfg(Fields{*pretrained, path}, spec);

    const TimmName named = parse_timm_name(spec.name);
    read_timm_variant(named, top.object_at("model_args"), path, spec);
    const std::string because = file_name(path) + "'s architecture '" + shortened(spec.name) + "' says ";
    if (named.patch_size && !spec.patch_size) {
        check_named_number(because, "a patch size", *named.patch_size, kMaxStatedSize);
        spec.patch_size = StatedSize{*named.patch_size, because + "patch_size " + std::to_string(*named.patch_size)};
    }
    if (named.num_heads && !spec.num_heads)
        spec.num_heads = StatedSize{*named.num_heads, because + "num_heads " + std::to_string(*named.num_heads)};
    if (named.img_size && !spec.img_size) check_named_number(because, "an image size", *named.img_size, kMaxImageSide);
    if (spec.img_size) fill(spec.input_size, spec.img_size);
    else if (named.img_size)
        fill(spec.input_size,
             std::optional<StatedSize>({*named.img_size, because + "img_size " + std::to_string(*named.img_size)}));
}

// ViTImageProcessor (straight resize to `size`), DeiT (then centre crop
// `crop_size`), ConvNeXt-style (`shortest_edge` / `crop_pct`).
void read_hf_preprocessor(const json& root, const std::string& path, ConfigSpec& spec) {
    const Fields pre{root, path};
    if (!root.is_object()) throw Error(path + ": expected a JSON object");
    if (const auto resample = pre.integer("resample", 0, 5)) {
        if (*resample != 2 && *resample != 3) pre.fail("resample", "2 (bilinear) or 3 (bicubic)", json(*resample));
        spec.preprocess.interpolation = *resample == 2 ? "bilinear" : "bicubic";
    }
    std::optional<int> size;
    if (const json* s = pre.find("size"); s && s->is_object() && s->contains("shortest_edge")) {
        size = Fields{*s, path}.integer("shortest_edge", 1, kMaxImageSide);
        spec.preprocess.keep_aspect = true;
    } else {
        size = pre.square("size");
    }
    if (size) spec.input_size = pre.said("size", *size);
    if (const auto crop_pct = pre.number("crop_pct", 0.05, 1.0)) {
        spec.preprocess.crop_pct = static_cast<float>(*crop_pct);
    } else if (pre.flag("do_center_crop").value_or(false) && size) {
        const int crop = pre.square("crop_size").value_or(*size);
        if (crop > *size) pre.fail("crop_size", "at most 'size' (" + std::to_string(*size) + ")", json(crop));
        spec.preprocess.crop_pct = static_cast<float>(crop) / static_cast<float>(*size);
        spec.input_size = pre.said("crop_size", crop);
    }
    read_mean_std(pre, "image_mean", "image_std", spec);
    if (!pre.flag("do_normalize").value_or(true)) {
        spec.preprocess.mean.assign(spec.preprocess.mean.size(), 0.0f);
        spec.preprocess.std.assign(spec.preprocess.std.size(), 1.0f);
    }
}

// transformers' `model_type`: "vit" (also when absent), "dinov2" or
// "dinov2_with_registers", whose configs give the MLP width as `mlp_ratio`, have
// LayerScale in every block and layer_norm_eps 1e-6 by default; the latter adds
// `num_register_tokens` (default 4). Other models are refused by name.
void read_hf_model_type(const Fields& f, ConfigSpec& spec) {
    const std::string type = f.text("model_type").value_or("vit");
    if (type != "vit" && type != "dinov2" && type != "dinov2_with_registers")
        f.fail("model_type",
               "\"vit\", \"dinov2\" or \"dinov2_with_registers\" (the Hugging Face models this app reads)", json(type));
    if (auto act = f.text("hidden_act")) {
        if (*act != "gelu" && *act != "quick_gelu") f.fail("hidden_act", "\"gelu\" or \"quick_gelu\"", json(*act));
        spec.activation = *act == "quick_gelu" ? Activation::QuickGelu : Activation::Gelu;
    }
    if (type == "vit") return;
    spec.hf_model = type == "dinov2" ? HfModel::Dinov2 : HfModel::Dinov2WithRegisters;
    spec.layer_scale = true;
    spec.ln_eps = 1e-6f;
    spec.mlp_ratio = f.number("mlp_ratio", 1.0 / 64, 64.0).value_or(4.0);
    if (f.flag("use_swiglu_ffn").value_or(false)) spec.activation = Activation::SwiGlu;
    if (spec.hf_model == HfModel::Dinov2WithRegisters)
        spec.reg_tokens = f.integer("num_register_tokens", 1, 64).value_or(4);
}

void read_hf(const json& root, const std::string& path, ConfigSpec& spec) {
    const Fields f{root, path};
    read_hf_model_type(f, spec);
    spec.name = f.text("_name_or_path").value_or("");
    if (const json* architectures = f.find("architectures"); spec.name.empty() && architectures &&
                                                             architectures->is_array() && !architectures->empty() &&
                                                             (*architectures)[0].is_string())
        spec.name = (*architectures)[0].get<std::string>();
    spec.embed_dim = f.stated("hidden_size");
    spec.depth = f.stated("num_hidden_layers");
    spec.num_heads = f.stated("num_attention_heads");
    spec.mlp_dim = f.stated("intermediate_size");
    spec.patch_size = f.stated("patch_size");
    spec.channels = f.stated("num_channels", 1, 4);
    spec.img_size = f.stated_square("image_size");
    spec.ln_eps = static_cast<float>(f.number("layer_norm_eps", 0.0, 1.0).value_or(spec.ln_eps));
    spec.qkv_bias = f.flag("qkv_bias");
    read_id2label(f, spec);
    if (spec.img_size) spec.input_size = spec.img_size;
}

bool is_huggingface_form(const json& root) {
    return root.contains("hidden_size") || root.contains("model_type") || root.contains("num_hidden_layers");
}

}  // namespace

ConfigSpec default_config(bool huggingface) {
    ConfigSpec spec;
    spec.huggingface = huggingface;
    if (huggingface) {
        spec.ln_eps = 1e-12f;
        spec.preprocess.interpolation = "bilinear";
        spec.preprocess.crop_pct = 1.0f;
        spec.preprocess.keep_aspect = false;
        spec.preprocess.mean = {0.5f, 0.5f, 0.5f};
        spec.preprocess.std = {0.5f, 0.5f, 0.5f};
    }
    return spec;
}

ConfigSpec parse_config(const uint8_t* bytes, size_t size, const std::string& config_path) {
    const json root = parse_json(bytes, bytes + size, config_path);
    if (!root.is_object()) throw Error(config_path + ": expected a JSON object");
    const bool huggingface = is_huggingface_form(root);
    ConfigSpec spec = default_config(huggingface);
    spec.path = config_path;
    if (huggingface) {
        read_hf(root, config_path, spec);
    } else {
        read_timm(root, config_path, spec);
    }
    return spec;
}

void apply_preprocessor_config(const uint8_t* bytes, size_t size, const std::string& path, ConfigSpec& spec) {
    read_hf_preprocessor(parse_json(bytes, bytes + size, path), path, spec);
}

ConfigSpec read_config(const std::string& config_path, const std::string& preprocessor_path) {
    const std::vector<uint8_t> config = read_file(config_path, kMaxConfigBytes);
    ConfigSpec spec = parse_config(config.data(), config.size(), config_path);
    if (spec.huggingface && std::filesystem::exists(preprocessor_path)) {
        const std::vector<uint8_t> preprocessor = read_file(preprocessor_path, kMaxConfigBytes);
        apply_preprocessor_config(preprocessor.data(), preprocessor.size(), preprocessor_path, spec);
    }
    return spec;
}

namespace {

// The whole number a name's token spells in decimal digits (INT_MAX when it
// overflows an int, for the caller's bound to refuse); nullopt for other tokens.
std::optional<int> spelled_number(const std::string& token) {
    if (token.empty() || !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return to_int(token, 0, std::numeric_limits<int>::max()).value_or(std::numeric_limits<int>::max());
}

}  // namespace

TimmName parse_timm_name(const std::string& architecture) {
    static const std::map<std::string, int> heads_of_variant = {
        {"tiny", 3}, {"small", 6}, {"base", 12}, {"large", 16}, {"huge", 16}};
    const std::string model = architecture.substr(0, architecture.find('.'));  // drop the pretrained tag
    TimmName named;
    const bool vit = model.rfind("vit_", 0) == 0;
    size_t start = 0;
    while (start <= model.size()) {
        const size_t end = std::min(model.find('_', start), model.size());
        const std::string token = model.substr(start, end - start);
        if (const auto it = heads_of_variant.find(token); it != heads_of_variant.end()) named.num_heads = it->second;
        const std::optional<int> patch = token.rfind("patch", 0) == 0 ? spelled_number(token.substr(5)) : std::nullopt;
        const std::optional<int> side = spelled_number(token);
        named.dinov2 |= vit && token == "dinov2";
        named.clip |= vit && token == "clip";
        named.quickgelu |= vit && token == "quickgelu";
        named.giant |= vit && token == "giant";
        if (patch) named.patch_size = *patch;
        else if (side && *side > 0 && named.patch_size && !named.img_size) named.img_size = *side;
        start = end + 1;
    }
    return named;
}

}  // namespace vit
