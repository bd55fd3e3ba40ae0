// The key layouts a checkpoint may use, each a table of renames to timm's
// VisionTransformer names, applied to every key before one reader
// (checkpoint.cpp) reads timm's layout — as timm's checkpoint_filter_fn,
// _convert_dinov2 and _convert_openai_clip rename a foreign state_dict before
// load_state_dict. The one liberty: a family that keeps the query, key and value
// apart keeps them apart as attn.q, attn.k and attn.v (read into the rows of qkv).
// What the names cannot say (how the positions are resized, the classifier's
// input, SwiGLU's width) are settings of the layout beside its renames.
// A TimmKeys is a checkpoint seen through one layout: tensors found by timm's
// name, and every name a message shows spelled as the file spells it.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/safetensors.h"
#include "model/config.h"
#include "model/model.h"

namespace vit {

// One module (or one parameter) as a family names it and as timm does.
struct Rename {
    const char* theirs;  // "layernorm_before", "embeddings.cls_token"
    const char* timm;    // "norm1", "cls_token"
};

// How SwiGLU's hidden width follows mlp_ratio: timm's D × ratio / 2, or transformers'
// Dinov2SwiGLUFFN's D × ratio × 2/3 rounded up to a multiple of 8.
enum class SwigluHidden { Half, TwoThirdsRoundedTo8 };

struct KeyLayout {
    const char* library;         // "timm", "Hugging Face": messages name the layout by it
    bool transformers;           // written by transformers: its config form, and its defaults without a config.json
    bool keeps_names;            // timm's own: every key is already timm's (the renames are empty)
    std::vector<Rename> global;  // outside the blocks, after the encoder's prefix
    std::vector<Rename> head;    // the classifier, after the head's prefix
    const char* blocks;          // "blocks.", "encoder.layer.": then the block's number and "."
    std::vector<Rename> block;   // inside a block
    bool split_qkv = false;      // attn.q, attn.k and attn.v rather than one attn.qkv
    bool layer_scale = true;     // has names for timm's LayerScale (ls1, ls2)
    bool norm_pre = true;        // has a name for timm's norm_pre
    const char* reg_setting = "reg_tokens";               // the config's name for the register count, for messages
    bool cls_mean_head = false;                           // the classifier reads [CLS row, patch mean] (HF DINOv2)
    PosResample pos_resample = PosResample::Antialiased;  // how the library resizes the positions
    bool pos_on_registers = true;                         // false: the registers are inserted after the positions (HF)
    bool pos_always_on_cls = false;                       // the position table always has the CLS row (transformers)
    SwigluHidden swiglu_hidden = SwigluHidden::Half;
};

extern const KeyLayout kTimmLayout;
extern const KeyLayout kHfVitLayout;
// transformers' Dinov2Model / Dinov2WithRegistersModel, each with Dinov2SwiGLUFFN's names for ViT-g.
const KeyLayout& hf_dinov2_layout(bool registers, bool swiglu);

// "blocks.3.norm1.weight": a block's key under timm's names.
std::string timm_block_key(int block, const std::string& name);

class TimmKeys {
public:
    // `prefix`: before the encoder's keys ("", "vit.", "module.vit."); `head_prefix` before
    // the classifier's ("vit." is not part of it).
    TimmKeys(const SafetensorsFile& file, const KeyLayout& layout, std::string prefix, std::string head_prefix);

    const SafetensorsFile& file() const { return file_; }
    const KeyLayout& layout() const { return *layout_; }
    const std::string& prefix() const { return prefix_; }
    const std::string& head_prefix() const { return head_prefix_; }
    // The tensor timm calls `name`; nullptr when the file has none.
    const SafetensorsEntry* find(const std::string& name) const;
    bool has(const std::string& name) const { return find(name) != nullptr; }
    // The file's name for timm's `name`, whether or not the file holds it: what messages show.
    std::string theirs(const std::string& name) const;
    // Every tensor the layout renames, under timm's name, in the file's order.
    const std::vector<std::pair<std::string, const SafetensorsEntry*>>& renamed() const { return renamed_; }

private:
    std::string to_timm(const std::string& key, bool& known) const;

    const SafetensorsFile& file_;
    const KeyLayout* layout_;
    std::string prefix_, head_prefix_;
    std::vector<std::pair<std::string, const SafetensorsEntry*>> renamed_;
    std::unordered_map<std::string, const SafetensorsEntry*> by_timm_name_;
};

// Finds the layout and its prefixes by the CLS token's name (timm's patch embedding and
// positions without one); transformers' layout is ViT's until the config's model_type
// says otherwise (key_layout_for_config). vit::Error for a file of neither.
TimmKeys detect_key_layout(const SafetensorsFile& file);
// The transformers layout config.json's model_type names (timm's stays as found); block
// names of the other family (ViT or DINOv2) are refused, naming the key and the model_type.
TimmKeys key_layout_for_config(const TimmKeys& found, const ConfigSpec& spec);

}  // namespace vit
