// The layouts' rename tables and the renamed view of a checkpoint (see key_layouts.h).
#include "formats/key_layouts.h"

#include <cstring>

#include "base/error.h"
#include "base/parse.h"

namespace vit {

const KeyLayout kTimmLayout = {"timm", false, true, {}, {}, "blocks.", {}};

// transformers' modeling_vit.py: ViTEmbeddings, ViTLayer, ViTForImageClassification's classifier.
const std::vector<Rename> kHfEmbeddings = {
    {"embeddings.cls_token", "cls_token"},
    {"embeddings.position_embeddings", "pos_embed"},
    {"embeddings.patch_embeddings.projection", "patch_embed.proj"},
    {"layernorm", "norm"},
};
const std::vector<Rename> kHfAttention = {
    {"attention.attention.query", "attn.q"},
    {"attention.attention.key", "attn.k"},
    {"attention.attention.value", "attn.v"},
    {"attention.output.dense", "attn.proj"},
};

static KeyLayout hf_layout(std::vector<Rename> global, std::vector<Rename> block) {
    KeyLayout l = {"Hugging Face", true, false, std::move(global), {{"classifier", "head"}}, "encoder.layer.", {}};
    l.block = kHfAttention;
    l.block.insert(l.block.end(), block.begin(), block.end());
    l.split_qkv = true;
    l.layer_scale = false;
    l.norm_pre = false;
    l.reg_setting = "num_register_tokens";
    l.pos_always_on_cls = true;
    return l;
}

const KeyLayout kHfVitLayout = hf_layout(kHfEmbeddings, {{"layernorm_before", "norm1"},
                                                         {"layernorm_after", "norm2"},
                                                         {"intermediate.dense", "mlp.fc1"},
                                                         {"output.dense", "mlp.fc2"}});

// transformers' modeling_dinov2.py: Dinov2Layer's norm1, mlp.fc1/fc2 (Dinov2SwiGLUFFN's
// weights_in/weights_out) and LayerScale layer_scale1/2.lambda1 around ViT's attention
// names; the classifier reads the CLS row beside the patch mean; the positions are resized
// bicubically. modeling_dinov2_with_registers.py adds embeddings.register_tokens
// (1, num_register_tokens, D), inserted after CLS once the positions are added to
// [CLS; patches], and resizes with antialias=True.
static KeyLayout dinov2_layout(bool registers, bool swiglu) {
    std::vector<Rename> global = kHfEmbeddings;
    if (registers) global.push_back({"embeddings.register_tokens", "reg_token"});
    const std::vector<Rename> mlp =
        swiglu ? std::vector<Rename>{{"mlp.weights_in", "mlp.fc1"}, {"mlp.weights_out", "mlp.fc2"}}
               : std::vector<Rename>{{"mlp.fc1", "mlp.fc1"}, {"mlp.fc2", "mlp.fc2"}};
    std::vector<Rename> block = {{"norm1", "norm1"},
                                 {"norm2", "norm2"},
                                 {"layer_scale1.lambda1", "ls1.gamma"},
                                 {"layer_scale2.lambda1", "ls2.gamma"}};
    block.insert(block.end(), mlp.begin(), mlp.end());
    KeyLayout l = hf_layout(global, block);
    l.layer_scale = true;
    l.cls_mean_head = true;
    l.pos_resample = registers ? PosResample::Antialiased : PosResample::Bicubic;
    l.pos_on_registers = !registers;
    l.swiglu_hidden = SwigluHidden::TwoThirdsRoundedTo8;
    return l;
}

const KeyLayout& hf_dinov2_layout(bool registers, bool swiglu) {
    static const KeyLayout layouts[2][2] = {{dinov2_layout(false, false), dinov2_layout(false, true)},
                                            {dinov2_layout(true, false), dinov2_layout(true, true)}};
    return layouts[registers][swiglu];
}

static const std::string kTimmBlocks = "blocks.";

std::string timm_block_key(int block, const std::string& name) {
    return kTimmBlocks + std::to_string(block) + "." + name;
}

// `name` renamed by the first rule whose module it is or lies in ("a.b" or "a.b.weight" for
// the rule "a.b"), from the family's names to timm's or back; false when no rule fits.
static bool rename(const std::string& name, const std::vector<Rename>& rules, bool to_timm, std::string& out) {
    for (const Rename& r : rules) {
        const std::string from = to_timm ? r.theirs : r.timm;
        const bool inside =
            name.size() > from.size() && name.compare(0, from.size(), from) == 0 && name[from.size()] == '.';
        if (name == from || inside) {
            out = (to_timm ? r.timm : r.theirs) + name.substr(from.size());
            return true;
        }
    }
    return false;
}

static bool starts_with(const std::string& s, const std::string& start) {
    return s.compare(0, start.size(), start) == 0;
}

// "12.attn.qkv.weight" → 12 and "attn.qkv.weight"; false unless a block number and a name follow.
static bool split_block(const std::string& rest, std::string& number, std::string& inner) {
    const size_t dot = rest.find('.');
    if (dot == std::string::npos || !to_int(rest.substr(0, dot), 0, 999999)) return false;
    number = rest.substr(0, dot);
    inner = rest.substr(dot + 1);
    return true;
}

TimmKeys::TimmKeys(const SafetensorsFile& file, const KeyLayout& layout, std::string prefix, std::string head_prefix)
    : file_(file), layout_(&layout), prefix_(std::move(prefix)), head_prefix_(std::move(head_prefix)) {
    for (const SafetensorsEntry& e : file.entries()) {
        bool known = false;
        const std::string name = to_timm(e.name, known);
        if (!known || by_timm_name_.count(name)) continue;
        renamed_.emplace_back(name, &e);
        by_timm_name_.emplace(name, &e);
    }
}

std::string TimmKeys::to_timm(const std::string& key, bool& known) const {
    known = true;
    const KeyLayout& l = *layout_;
    if (l.keeps_names && starts_with(key, prefix_)) return key.substr(prefix_.size());
    std::string out, number, inner;
    if (!l.keeps_names && starts_with(key, prefix_)) {
        const std::string rest = key.substr(prefix_.size());
        if (starts_with(rest, l.blocks) && split_block(rest.substr(std::strlen(l.blocks)), number, inner) &&
            rename(inner, l.block, true, out))
            return timm_block_key(std::stoi(number), out);
        if (rename(rest, l.global, true, out)) return out;
    }
    if (!l.keeps_names && starts_with(key, head_prefix_) && rename(key.substr(head_prefix_.size()), l.head, true, out))
        return out;
    known = false;
    return key;
}

const SafetensorsEntry* TimmKeys::find(const std::string& name) const {
    const auto it = by_timm_name_.find(name);
    return it == by_timm_name_.end() ? nullptr : it->second;
}

// Timm's `name` as `l` spells it under the prefixes.
static std::string name_in(const KeyLayout& l, const std::string& prefix, const std::string& head_prefix,
                           const std::string& name) {
    if (l.keeps_names) return prefix + name;
    std::string out, number, inner;
    if (starts_with(name, kTimmBlocks) && split_block(name.substr(kTimmBlocks.size()), number, inner) &&
        rename(inner, l.block, false, out))
        return prefix + l.blocks + number + "." + out;
    if (rename(name, l.head, false, out)) return head_prefix + out;
    if (rename(name, l.global, false, out)) return prefix + out;
    return prefix + name;  // a timm name the layout has no name for
}

std::string TimmKeys::theirs(const std::string& name) const { return name_in(*layout_, prefix_, head_prefix_, name); }

// The CLS token under timm's name or transformers' (ViTForImageClassification's "vit.",
// Dinov2ForImageClassification's "dinov2.", Dinov2WithRegistersForImageClassification's
// "dinov2_with_registers.", or the bare models' none), with or without a "module." / "model."
// wrapper; then timm without a class token (global_pool 'avg', e.g. vit_medium_patch16_gap_256).
TimmKeys detect_key_layout(const SafetensorsFile& file) {
    for (const char* outer : {"", "module.", "model."}) {
        for (const auto& [layout, inner] :
             {std::pair{&kTimmLayout, ""}, std::pair{&kHfVitLayout, "vit."}, std::pair{&kHfVitLayout, "dinov2."},
              std::pair{&kHfVitLayout, "dinov2_with_registers."}, std::pair{&kHfVitLayout, ""}}) {
            const std::string prefix = std::string(outer) + inner;
            if (file.find(name_in(*layout, prefix, outer, "cls_token"))) return TimmKeys(file, *layout, prefix, outer);
        }
    }
    for (const char* outer : {"", "module.", "model."})
        if (file.find(std::string(outer) + "patch_embed.proj.weight") && file.find(std::string(outer) + "pos_embed"))
            return TimmKeys(file, kTimmLayout, outer, outer);
    throw Error(file.path() + ": no tensor 'cls_token' (timm) or 'vit.embeddings.cls_token' (Hugging Face): " +
                "not a ViT checkpoint this app can read");
}

static const char* hf_model_type(HfModel model) {
    return model == HfModel::Vit ? "vit" : model == HfModel::Dinov2 ? "dinov2" : "dinov2_with_registers";
}

TimmKeys key_layout_for_config(const TimmKeys& found, const ConfigSpec& spec) {
    if (!found.layout().transformers) return found;
    const bool dinov2 = spec.hf_model != HfModel::Vit;
    const bool swiglu = spec.activation == Activation::SwiGlu;
    const KeyLayout& own =
        dinov2 ? hf_dinov2_layout(spec.hf_model == HfModel::Dinov2WithRegisters, swiglu) : kHfVitLayout;
    const KeyLayout& other = dinov2 ? kHfVitLayout : hf_dinov2_layout(false, false);
    const SafetensorsFile& file = found.file();
    TimmKeys keys(file, own, found.prefix(), found.head_prefix());
    const std::string own_key = keys.theirs(timm_block_key(0, "norm1.weight"));
    const std::string other_key =
        name_in(other, found.prefix(), found.head_prefix(), timm_block_key(0, "norm1.weight"));
    if (!file.find(own_key) && file.find(other_key))
        throw Error(file.path() + ": tensor '" + other_key + "' is in transformers' " + (dinov2 ? "ViT" : "DINOv2") +
                    " layout, but " +
                    (spec.path.empty() ? std::string("there is no config.json to say model_type 'dinov2'")
                                       : spec.path + " says model_type '" + hf_model_type(spec.hf_model) + "'"));
    return keys;
}

}  // namespace vit
