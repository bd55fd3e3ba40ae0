// Checkpoint loading: finds the weights and config, sees the file's keys under
// timm's names (formats/key_layouts.h renames every other layout to timm's first)
// and reads them onto Model in one way (a layout's separate query/key/value
// become the rows [q; k; v] of timm's qkv), takes
// every size the config does not state from the weights, and checks every
// tensor's shape against the sizes, and refuses tensors the model would not
// use. timm's token layouts are read too: register and distillation tokens,
// no class token, positions on the patch grid only (no_embed_class), average
// pooling and fc_norm; and timm's LayerScale (ls1/ls2.gamma) and norm_pre when
// the config names their variant. Hugging Face's Dinov2Model and
// Dinov2ForImageClassification (config.json's model_type "dinov2") in their
// own layout: LayerScale layer_scale1/2.lambda1, the classifier on the CLS
// row joined with the patch mean, transformers' position interpolation; and
// Dinov2WithRegisters (model_type "dinov2_with_registers"): the same with
// embeddings.register_tokens, which take no position, and antialiased resizing.
// Left out: sharded checkpoints (model-0000x-of-0000y), DeiT's HF naming.
#include "formats/checkpoint.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <new>
#include <sstream>
#include <unordered_set>

#include "model/config.h"
#include "base/error.h"
#include "base/file_io.h"
#include "base/finite.h"
#include "base/parse.h"
#include "model/labels.h"
#include "formats/key_layouts.h"
#include "formats/safetensors.h"

namespace vit {

namespace fs = std::filesystem;

namespace {

// Where a checkpoint's files are.
struct CheckpointFiles {
    std::string weights;       // the .safetensors file
    std::string config;        // config.json beside it; empty when there is none
    std::string preprocessor;  // preprocessor_config.json beside it (may not exist)
    std::string name;          // the folder's name, or the file's stem
};

CheckpointFiles find_checkpoint_files(const std::string& path) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw open_error(path, ec ? ec.value() : ENOENT);  // ELOOP: a symlink loop
    CheckpointFiles files;
    fs::path folder;
    if (fs::is_directory(status)) {
        folder = path;
        std::vector<fs::path> candidates;
        for (const auto& entry : fs::directory_iterator(folder, ec))
            if (entry.path().extension() == ".safetensors") candidates.push_back(entry.path());
        if (candidates.empty()) throw Error(path + ": no .safetensors file in this folder");
        std::sort(candidates.begin(), candidates.end());
        const auto preferred = std::find(candidates.begin(), candidates.end(), folder / "model.safetensors");
        files.weights = (preferred != candidates.end() ? *preferred : candidates.front()).string();
        fs::path normal = fs::absolute(folder).lexically_normal();
        if (normal.filename().empty()) normal = normal.parent_path();  // "digits/" ends in an empty name
        files.name = normal.filename().string();
    } else {
        folder = fs::path(path).parent_path();
        files.weights = path;
        files.name = fs::path(path).stem().string();
    }
    const fs::path config = folder / "config.json";
    if (fs::exists(config)) files.config = config.string();
    files.preprocessor = (folder / "preprocessor_config.json").string();
    return files;
}

// The highest block index among the keys plus one (0 when there are none),
// and one key of that block (as the file names it) for messages.
std::pair<int, std::string> count_blocks(const TimmKeys& keys) {
    const std::string start = "blocks.";
    int count = 0;
    std::string example;
    for (const auto& [name, entry] : keys.renamed()) {
        if (name.compare(0, start.size(), start) != 0) continue;
        const size_t digits_end = name.find('.', start.size());
        const std::string digits = name.substr(start.size(), digits_end - start.size());
        const std::optional<int> index = to_int(digits, 0, 999999);  // six digits at most
        if (index && *index + 1 > count) count = *index + 1, example = entry->name;
    }
    return {count, example};
}

std::vector<int64_t> dims(std::initializer_list<int64_t> sizes) { return sizes; }

std::string number_text(double x) {
    std::ostringstream text;
    text << x;
    return text.str();
}

std::string because_text(std::initializer_list<const StatedSize*> facts) {
    std::string text;
    for (const StatedSize* fact : facts) text += (text.empty() ? " (" : "; ") + fact->why;
    return text.empty() ? text : text + ")";
}

// A size read off a tensor's shape, bounded like the sizes a config may state.
StatedSize from_tensor(const SafetensorsFile& file, const char* what, int64_t value, const std::string& key) {
    if (value > kMaxStatedSize)
        throw Error(file.path() + ": tensor '" + key + "' gives " + what + " " + std::to_string(value) +
                    ", too large for this app");
    return {static_cast<int>(value), what + std::string(" ") + std::to_string(value) + " from '" + key + "'"};
}

// Every size of the model, each with where it came from.
struct Sizes {
    StatedSize channels, patch_size, embed_dim, depth, num_heads, mlp_dim, num_classes, pos_grid;
    TokenSettings tokens;  // as the weights and config give them
    // The classifier's input width: D, or 2D for the CLS row joined with the patch mean.
    int head_width() const { return tokens.pooled_width(embed_dim.value); }
};

// The rows of fc1's weight: mlp_dim, or twice it for SwiGLU (gate and value).
int64_t fc1_rows(const Sizes& s, const ConfigSpec& spec) {
    return spec.activation == Activation::SwiGlu ? 2 * int64_t(s.mlp_dim.value) : s.mlp_dim.value;
}

// The positional embedding's rows: the prefix tokens' (unless no_embed_class) and the grid's.
int64_t pos_rows(const Sizes& s) { return s.tokens.pos_prefix() + int64_t(s.pos_grid.value) * s.pos_grid.value; }

// A tensor holding NaN or Inf, and how many.
struct NonFinite {
    std::string key;
    int64_t count, numel;
};

// Reads tensors by timm's names after checking them against the sizes (so
// every allocation made for a tensor is bounded by the file's size), names
// them in messages as the file does, and notes the tensors that hold NaN or Inf.
class WeightReader {
public:
    explicit WeightReader(const TimmKeys& keys) : keys_(keys) {}

    bool has(const std::string& name) const { return keys_.find(name) != nullptr; }
    const SafetensorsEntry& require(const std::string& name, const std::string& context = "") const {
        const SafetensorsEntry* e = keys_.find(name);
        if (!e) throw Error(keys_.file().path() + ": missing tensor '" + keys_.theirs(name) + "'" + context);
        return *e;
    }
    // The tensor `name`, which must have shape `expected`; `because` says where
    // the sizes in `expected` come from.
    const SafetensorsEntry& check(const std::string& name, const std::vector<int64_t>& expected,
                                  std::initializer_list<const StatedSize*> because,
                                  const std::string& context = "") const {
        const SafetensorsEntry& e = require(name, context);
        if (e.shape != expected)
            throw Error(keys_.file().path() + ": tensor '" + e.name + "' has shape " + shape_string(e.shape) +
                        ", expected " + shape_string(expected) + because_text(because));
        return e;
    }
    // `out` holds room for the tensor: call check() before allocating it.
    void read_into(const std::string& name, const std::vector<int64_t>& expected,
                   std::initializer_list<const StatedSize*> because, float* out, const std::string& context = "") {
        const SafetensorsEntry& e = check(name, expected, because, context);
        keys_.file().read_floats(e, out);
        read_.insert(&e);
        const int64_t count = static_cast<int64_t>(count_nonfinite(out, static_cast<size_t>(e.numel())));
        if (count > 0) nonfinite_.push_back({e.name, count, e.numel()});
    }
    Mat matrix(const std::string& name, const std::vector<int64_t>& expected, int64_t rows, int64_t cols,
               std::initializer_list<const StatedSize*> because, const std::string& context = "") {
        check(name, expected, because, context);
        Mat m(rows, cols);
        read_into(name, expected, because, m.data(), context);
        return m;
    }
    Vec vector(const std::string& name, const StatedSize& length, const std::string& context = "") {
        check(name, {length.value}, {&length}, context);
        Vec v(length.value);
        read_into(name, {length.value}, {&length}, v.data(), context);
        return v;
    }
    const std::vector<NonFinite>& nonfinite() const { return nonfinite_; }
    bool was_read(const SafetensorsEntry& e) const { return read_.count(&e) > 0; }

private:
    const TimmKeys& keys_;
    std::vector<NonFinite> nonfinite_;
    std::unordered_set<const SafetensorsEntry*> read_;
};

// "PATH: 2 tensors hold NaN or Inf values: 'a' (1 of 3), 'b' (…)"; empty when none does.
std::string nonfinite_report(const std::string& path, const std::vector<NonFinite>& found) {
    constexpr size_t kNamed = 3;
    if (found.empty()) return "";
    std::string text = path + ": " + std::to_string(found.size()) +
                       (found.size() == 1 ? " tensor holds" : " tensors hold") + " NaN or Inf values:";
    for (size_t i = 0; i < found.size() && i < kNamed; ++i)
        text += (i ? ", '" : " '") + found[i].key + "' (" + std::to_string(found[i].count) + " of " +
                std::to_string(found[i].numel) + ")";
    if (found.size() > kNamed) text += " and " + std::to_string(found.size() - kNamed) + " more";
    return text;
}

// Tensors of model parts this app does not build, found by their name after
// the layout's prefix: loading the rest would show a different model.
struct UnsupportedPart {
    const char* name_start;
    const char* reason;
};
const UnsupportedPart kUnsupportedParts[] = {
    {"pre_logits.", "timm's pre-logits layer (representation_size) is not supported"},
};

// Tensors a checkpoint may carry that the model deliberately does without,
// after the layout's prefix.
const char* const kNotNeeded[] = {
    // Hugging Face's mask token (ViT's and DINOv2's use_mask_token): it stands
    // in for the patches bool_masked_pos hides in masked-image pretraining;
    // inference never masks, so no pass reads it.
    "embeddings.mask_token",
    // Hugging Face ViTModel's pooler: a dense+tanh layer on the CLS token that
    // only pooler_output uses; ViTForImageClassification's classifier reads
    // the CLS token without it, and this app shows no pooled output.
    "pooler.dense.weight",
    "pooler.dense.bias",
};

// "model.safetensors: tensor 'fc_norm.weight' is not used by this model: <reason>"
Error unused_tensor_error(const SafetensorsFile& file, const std::string& key, const std::string& reason) {
    return Error(file.path() + ": tensor '" + shortened(key) + "' is not used by this model: " + reason);
}

// The reason a tensor of an unsupported part is refused; nullptr for others.
const char* unsupported_part_reason(const TimmKeys& keys, const std::string& key) {
    const std::string& prefix = keys.prefix();
    if (key.compare(0, prefix.size(), prefix) != 0) return nullptr;
    for (const UnsupportedPart& part : kUnsupportedParts)
        if (key.compare(prefix.size(), std::strlen(part.name_start), part.name_start) == 0) return part.reason;
    return nullptr;
}

// A setting config.json states that the weights contradict, refused as timm's strict
// load refuses it (the model built from the files would differ from timm's or transformers').
[[noreturn]] void contradicted(const ConfigSpec& spec, const std::string& setting, const TimmKeys& keys,
                               const std::string& tensor, bool held) {
    throw Error(spec.path + ": " + setting + ", but " + keys.file().path() + (held ? " holds '" : " has no '") +
                keys.theirs(tensor) + "' (timm and transformers would build another model from these files)");
}

// The config's variants checked against the weights. LayerScale is read off
// them: timm builds ls1/ls2 with a gamma exactly when init_values is set (DINOv2,
// ViT-M gap, ...), whether or not config.json says so; a config that states
// init_values 0 and weights that hold a gamma are refused, and so is a stated
// qkv_bias or pre_norm the weights contradict. A norm_pre the config does not
// name is refused: its LayerNorm eps (CLIP's 1e-5) comes from the name.
ConfigSpec with_weights_variant(const TimmKeys& keys, ConfigSpec spec) {
    const KeyLayout& l = keys.layout();
    const SafetensorsFile& file = keys.file();
    if ((spec.layer_scale && !l.layer_scale) || (spec.norm_pre && !l.norm_pre))
        throw Error(spec.path + ": asks for LayerScale or norm_pre, which " + file.path() +
                    "'s key layout has no names for (timm's has both, Hugging Face DINOv2's LayerScale)");
    const std::string qkv_bias = timm_block_key(0, l.split_qkv ? "attn.q.bias" : "attn.qkv.bias");
    if (spec.qkv_bias && *spec.qkv_bias != keys.has(qkv_bias))
        contradicted(spec, std::string("'qkv_bias' is ") + (*spec.qkv_bias ? "true" : "false"), keys, qkv_bias,
                     !*spec.qkv_bias);
    const std::string gamma = timm_block_key(0, "ls1.gamma");
    if (l.layer_scale && keys.has(gamma) && spec.layer_scale_stated && !spec.layer_scale)
        contradicted(spec, "model_args.init_values is 0 (no LayerScale)", keys, gamma, true);
    if (l.layer_scale && keys.has(gamma)) spec.layer_scale = true;
    const std::string norm_pre = "norm_pre.weight";
    if (l.norm_pre && spec.norm_pre_stated && spec.norm_pre != keys.has(norm_pre))
        contradicted(spec, std::string("model_args.pre_norm is ") + (spec.norm_pre ? "true" : "false"), keys, norm_pre,
                     !spec.norm_pre);
    const std::string unnamed = spec.path.empty()
                                    ? "needs a config.json"
                                    : "config.json's architecture '" + shortened(spec.name) + "' does not name";
    if (l.norm_pre && !spec.norm_pre && keys.has(norm_pre))
        throw unused_tensor_error(file, keys.theirs(norm_pre),
                                  "it has no place in a model without timm's norm_pre (pre_norm, as in CLIP), which " +
                                      unnamed + ": name a CLIP architecture (vit_*_clip_*) or set model_args.pre_norm");
    return spec;
}

// Refuses a checkpoint with parts this app does not build, before reading it.
void refuse_unsupported_parts(const TimmKeys& keys) {
    for (const SafetensorsEntry& e : keys.file().entries())
        if (const char* reason = unsupported_part_reason(keys, e.name))
            throw unused_tensor_error(keys.file(), e.name, reason);
}

// After loading: every tensor was read, or is one the model deliberately does without.
void refuse_unused_tensors(const TimmKeys& keys, const WeightReader& reader) {
    const auto not_needed = [&](const std::string& key) {
        return std::any_of(std::begin(kNotNeeded), std::end(kNotNeeded),
                           [&](const char* name) { return key == keys.prefix() + name; });
    };
    for (const SafetensorsEntry& e : keys.file().entries())
        if (!reader.was_read(e) && !not_needed(e.name))
            throw unused_tensor_error(
                keys.file(), e.name,
                "it has no place in a ViT of the " + std::string(keys.layout().library) + " layout with these sizes");
}

// The tensor's shape when it has the rank the layout needs, for inferring sizes.
std::vector<int64_t> shape_of_rank(const WeightReader& reader, const std::string& name, size_t rank,
                                   const char* expected, const SafetensorsFile& file) {
    const SafetensorsEntry& e = reader.require(name);
    if (e.shape.size() != rank || std::any_of(e.shape.begin(), e.shape.end(), [](int64_t d) { return d == 0; }))
        throw Error(file.path() + ": tensor '" + e.name + "' has shape " + shape_string(e.shape) + ", expected " +
                    expected);
    return e.shape;
}

// A token setting the config states must match what the weights hold.
void check_stated_token_setting(const ConfigSpec& spec, const char* setting, const std::optional<bool>& stated,
                                bool in_weights, const std::string& key) {
    if (stated && *stated != in_weights)
        throw Error(spec.path + ": says " + setting + " " + (*stated ? "true" : "false") + " but the weights " +
                    (in_weights ? "have" : "have no") + " '" + key + "'");
}

// The token kinds and the pooling head: the tokens and fc_norm from the weights
// (timm's state_dict holds exactly the modules the model built), global_pool
// from the config (timm's default 'token').
TokenSettings resolve_tokens(const TimmKeys& keys, const ConfigSpec& spec) {
    const KeyLayout& l = keys.layout();
    const SafetensorsFile& file = keys.file();
    const std::string cls = keys.theirs("cls_token"), head = keys.theirs("head.weight");
    TokenSettings t;
    t.class_token = keys.has("cls_token");
    t.dist_token = keys.has("dist_token");
    t.fc_norm = keys.has("fc_norm.weight");
    if (const SafetensorsEntry* reg = keys.find("reg_token")) {
        if (reg->shape.size() != 3 || reg->shape[1] < 1 || reg->shape[1] > 64)
            throw Error(file.path() + ": tensor '" + reg->name + "' has shape " + shape_string(reg->shape) +
                        ", expected (1, reg_tokens, embed_dim) with 1 to 64 registers");
        t.reg_tokens = static_cast<int>(reg->shape[1]);
        t.pos_on_registers = l.pos_on_registers;
    }
    check_stated_token_setting(spec, "class_token", spec.class_token, t.class_token, cls);
    check_stated_token_setting(spec, "fc_norm", spec.fc_norm, t.fc_norm, keys.theirs("fc_norm.weight"));
    if (spec.reg_tokens && *spec.reg_tokens != t.reg_tokens)
        throw Error(spec.path + ": says " + l.reg_setting + " " + std::to_string(*spec.reg_tokens) +
                    " but the weights hold " + std::to_string(t.reg_tokens) + " ('" + keys.theirs("reg_token") + "')");
    const bool cls_mean = l.cls_mean_head && keys.has("head.weight");  // Dinov2ForImageClassification
    t.global_pool = spec.global_pool.value_or(cls_mean ? GlobalPool::ClsAvg : GlobalPool::Token);
    if (t.global_pool == GlobalPool::Token && !t.class_token)
        throw Error(file.path() + ": no tensor 'cls_token' (timm) or 'vit.embeddings.cls_token' (Hugging Face), and " +
                    (spec.global_pool ? spec.path + " says global_pool 'token'"
                                      : std::string("no config says global_pool 'avg'")) +
                    ": not a ViT checkpoint this app can read");
    if (t.dist_token && t.global_pool != GlobalPool::Token)
        throw Error(spec.path + ": global_pool must be 'token' for a model with a distillation token ('" +
                    keys.theirs("dist_token") + "')");
    if (t.global_pool == GlobalPool::None && keys.has("head.weight"))
        throw Error(spec.path + ": says global_pool '' (no pooling), but the weights have a classifier head ('" + head +
                    "'), which needs one pooled token");
    if (cls_mean && !t.class_token)
        throw Error(file.path() + ": its head ('" + head +
                    "') reads the CLS token beside the patch mean, but there is " + "no CLS token ('" + cls + "')");
    return t;
}

// The side of a square of n patches, 0 when n is not a square.
int64_t square_side(int64_t n) {
    const auto side = static_cast<int64_t>(std::lround(std::sqrt(static_cast<double>(std::max<int64_t>(n, 0)))));
    return side > 0 && side * side == n ? side : 0;
}

// Whether a position table of `rows` rows, whose config says neither no_embed_class nor img_size,
// holds the `prefix` tokens' rows: where one reading is a square grid. Where both are (9 rows:
// 3×3 patches, or 2×2 after 5 prefix rows), the stated input size picks the one whose grid it is;
// with none to pick, one message asks the config to say.
bool rows_hold_prefix(const SafetensorsFile& file, const std::string& pos_key, int64_t rows, int prefix,
                      const ConfigSpec& spec, int patch) {
    const int64_t with_prefix = square_side(rows - prefix), without = square_side(rows);
    if (!with_prefix || !without) return with_prefix > 0;
    const int64_t wanted = spec.input_size ? spec.input_size->value / patch : 0;
    if (wanted == without || wanted == with_prefix) return wanted == with_prefix;
    const std::string g = std::to_string(without), h = std::to_string(with_prefix);
    throw Error(file.path() + ": tensor '" + pos_key + "' has " + std::to_string(rows) + " rows: " + g + "×" + g +
                " patches, or " + h + "×" + h + " patches after " + std::to_string(prefix) +
                " prefix rows; the config must say which (model_args no_embed_class or img_size)");
}

// The patch grid the positions were trained on and whether they cover the
// prefix tokens (timm's pos_embed has prefix + grid² rows, or grid² under
// no_embed_class; transformers' always has the CLS row).
void resolve_positions(const TimmKeys& keys, const WeightReader& reader, const ConfigSpec& spec, Sizes& s) {
    const SafetensorsFile& file = keys.file();
    const std::string pos_key = keys.theirs("pos_embed");
    const int prefix = s.tokens.prefix_tokens();
    const auto pos = shape_of_rank(reader, "pos_embed", 3, "(1, prefix + grid², embed_dim)", file);
    // Read off the shape only where timm's models of that kind use no_embed_class
    // (every register model, DeiT III); elsewhere the config must say it.
    const bool shape_decides =
        !keys.layout().pos_always_on_cls && (s.tokens.reg_tokens > 0 || spec.name.find("deit3") != std::string::npos);
    const int64_t stated_grid = spec.img_size ? spec.img_size->value / s.patch_size.value : 0;
    const bool on_prefix = spec.no_embed_class ? !*spec.no_embed_class
                           : !shape_decides    ? true
                           : spec.img_size     ? pos[1] != stated_grid * stated_grid
                                           : rows_hold_prefix(file, pos_key, pos[1], prefix, spec, s.patch_size.value);
    s.tokens.pos_on_prefix = on_prefix || prefix == 0;
    if (spec.img_size) {
        if (spec.img_size->value % s.patch_size.value != 0)
            throw Error(spec.path + ": " + spec.img_size->why + ", not a multiple of patch_size " +
                        std::to_string(s.patch_size.value));
        const int grid = spec.img_size->value / s.patch_size.value;
        s.pos_grid = {grid, spec.img_size->why + " / patch_size " + std::to_string(s.patch_size.value)};
        return;
    }
    const int pos_prefix = s.tokens.pos_prefix();
    const int64_t grid = square_side(pos[1] - pos_prefix);
    if (grid == 0)
        throw Error(file.path() + ": tensor '" + pos_key + "' has shape " + shape_string(pos) + ": its " +
                    std::to_string(pos[1] - pos_prefix) + " rows after the " +
                    (pos_prefix == 1 ? std::string("CLS row") : std::to_string(pos_prefix) + " prefix rows") +
                    " are not a square grid of patches");
    s.pos_grid = from_tensor(file, "a patch grid side", grid, pos_key);
}

// The MLP's hidden width M (what fc2 reads): stated, from mlp_ratio as timm
// (fc1's width D × ratio, halved for SwiGLU) or transformers' Dinov2SwiGLUFFN
// (D × ratio × 2/3, rounded up to a multiple of 8) compute it, else read off
// fc1's weight (fc2's for SwiGLU, whose fc1 is twice as wide).
StatedSize resolve_mlp_dim(const TimmKeys& keys, const WeightReader& reader, const ConfigSpec& spec, int embed_dim) {
    if (spec.mlp_dim) return *spec.mlp_dim;
    const bool swiglu = spec.activation == Activation::SwiGlu;
    if (spec.mlp_ratio) {
        const int hidden = static_cast<int>(embed_dim * *spec.mlp_ratio);
        const bool two_thirds = keys.layout().swiglu_hidden == SwigluHidden::TwoThirdsRoundedTo8;
        const int mlp = !swiglu ? hidden : two_thirds ? (hidden * 2 / 3 + 7) / 8 * 8 : hidden / 2;
        return {mlp, fs::path(spec.path).filename().string() + " says mlp_ratio " + number_text(*spec.mlp_ratio) +
                         (swiglu ? " with a SwiGLU MLP" : "") + ", so mlp_dim " + std::to_string(mlp)};
    }
    const std::string name = timm_block_key(0, swiglu ? "mlp.fc2.weight" : "mlp.fc1.weight");
    const auto shape =
        shape_of_rank(reader, name, 2, swiglu ? "(embed_dim, mlp_dim)" : "(mlp_dim, embed_dim)", keys.file());
    return from_tensor(keys.file(), "mlp_dim", shape[swiglu ? 1 : 0], keys.theirs(name));
}

// The heads: stated, else embed_dim / 64; they must divide embed_dim.
StatedSize resolve_num_heads(const ConfigSpec& spec, const SafetensorsFile& file, const StatedSize& embed_dim) {
    const int heads_default = std::max(1, embed_dim.value / 64);
    const StatedSize heads = spec.num_heads.value_or(StatedSize{
        heads_default, "num_heads " + std::to_string(heads_default) + " = embed_dim / 64 (nothing states it)"});
    if (embed_dim.value % heads.value != 0)
        throw Error((spec.num_heads ? spec.path : file.path()) + ": num_heads " + std::to_string(heads.value) +
                    " does not divide embed_dim " + std::to_string(embed_dim.value) + " (" + heads.why + "; " +
                    embed_dim.why + ")");
    return heads;
}

Sizes resolve_sizes(const TimmKeys& keys, const ConfigSpec& spec) {
    const SafetensorsFile& file = keys.file();
    const WeightReader reader(keys);
    Sizes s;
    s.tokens = resolve_tokens(keys, spec);

    const std::string patch = "patch_embed.proj.weight", head = "head.weight";
    const auto patch_shape = shape_of_rank(reader, patch, 4, "(embed_dim, channels, patch, patch)", file);
    const int64_t width =
        s.tokens.class_token ? shape_of_rank(reader, "cls_token", 3, "(1, 1, embed_dim)", file)[2] : patch_shape[0];
    const std::string width_key = keys.theirs(s.tokens.class_token ? "cls_token" : patch);
    s.embed_dim = spec.embed_dim.value_or(from_tensor(file, "embed_dim", width, width_key));

    s.channels = spec.channels.value_or(from_tensor(file, "channels", patch_shape[1], keys.theirs(patch)));
    s.patch_size = spec.patch_size.value_or(from_tensor(file, "patch_size", patch_shape[3], keys.theirs(patch)));

    const auto [blocks, last_block_key] = count_blocks(keys);
    s.depth = spec.depth.value_or(from_tensor(file, "depth", blocks, last_block_key));
    if (s.depth.value == 0)
        throw Error(file.path() + ": no encoder blocks ('" + keys.theirs(timm_block_key(0, "norm1.weight")) + "')");
    if (blocks > s.depth.value)
        throw Error(file.path() + ": has '" + shortened(last_block_key) + "' but " + s.depth.why + " (blocks 0 to " +
                    std::to_string(s.depth.value - 1) + ")");

    s.mlp_dim = resolve_mlp_dim(keys, reader, spec, s.embed_dim.value);

    if (spec.num_classes) s.num_classes = *spec.num_classes;
    else if (keys.has(head))
        s.num_classes =
            from_tensor(file, "num_classes", shape_of_rank(reader, head, 2, "(num_classes, embed_dim)", file)[0],
                        keys.theirs(head));
    else s.num_classes = {0, "no '" + keys.theirs(head) + "'"};

    resolve_positions(keys, reader, spec, s);
    s.num_heads = resolve_num_heads(spec, file, s.embed_dim);

    // Every size now matches a tensor in the file, so allocations made from
    // the sizes are bounded by the file's size.
    const int D = s.embed_dim.value;
    if (s.tokens.class_token) reader.check("cls_token", dims({1, 1, D}), {&s.embed_dim});
    reader.check(patch, dims({D, s.channels.value, s.patch_size.value, s.patch_size.value}),
                 {&s.embed_dim, &s.channels, &s.patch_size});
    reader.check("pos_embed", dims({1, pos_rows(s), D}), {&s.pos_grid, &s.embed_dim});
    reader.check(timm_block_key(0, "mlp.fc1.weight"), dims({fc1_rows(s, spec), D}), {&s.mlp_dim, &s.embed_dim});
    if (s.num_classes.value > 0)
        reader.check(head, dims({s.num_classes.value, s.head_width()}), {&s.num_classes, &s.embed_dim},
                     " (" + s.num_classes.why + ")");
    return s;
}

// The prefix tokens (CLS, DIST, registers) and the positions.
void read_tokens(WeightReader& reader, const Sizes& s, Model& m) {
    const int D = s.embed_dim.value, R = s.tokens.reg_tokens;
    const auto token = [&](const char* name, Vec& v) {
        v.resize(D);
        reader.read_into(name, dims({1, 1, D}), {&s.embed_dim}, v.data());
    };
    if (s.tokens.class_token) token("cls_token", m.cls_token);
    if (s.tokens.dist_token) token("dist_token", m.dist_token);
    if (R > 0) m.reg_token = reader.matrix("reg_token", dims({1, R, D}), R, D, {&s.embed_dim});
    m.pos_embed = reader.matrix("pos_embed", dims({1, pos_rows(s), D}), pos_rows(s), D, {&s.pos_grid, &s.embed_dim});
}

// The final norm or fc_norm, the head and DeiT's distillation head.
void read_head(WeightReader& reader, const Sizes& s, Model& m) {
    const int D = s.embed_dim.value, K = s.num_classes.value;
    Vec& norm_w = s.tokens.fc_norm ? m.fc_norm_w : m.norm_w;
    Vec& norm_b = s.tokens.fc_norm ? m.fc_norm_b : m.norm_b;
    const std::string norm = s.tokens.fc_norm ? "fc_norm" : "norm";
    norm_w = reader.vector(norm + ".weight", s.embed_dim);
    norm_b = reader.vector(norm + ".bias", s.embed_dim);
    if (K == 0) return;
    const int W = s.head_width();
    m.head_w = reader.matrix("head.weight", dims({K, W}), K, W, {&s.num_classes, &s.embed_dim});
    m.head_b = reader.vector("head.bias", s.num_classes);
    if (!s.tokens.dist_token) return;
    m.head_dist_w = reader.matrix("head_dist.weight", dims({K, D}), K, D, {&s.num_classes, &s.embed_dim});
    m.head_dist_b = reader.vector("head_dist.bias", s.num_classes);
}

// timm's qkv, or a layout's query, key and value read into its rows [q; k; v].
void read_qkv(WeightReader& reader, const KeyLayout& layout, int i, const Sizes& s, const std::string& context,
              BlockWeights& b) {
    const int D = s.embed_dim.value;
    const std::vector<std::string> parts = layout.split_qkv ? std::vector<std::string>{"attn.q", "attn.k", "attn.v"}
                                                            : std::vector<std::string>{"attn.qkv"};
    const int n = static_cast<int>(parts.size()), rows = 3 * D / n;
    const auto name = [&](int p, const char* suffix) { return timm_block_key(i, parts[size_t(p)] + suffix); };
    const bool has_bias = reader.has(name(0, ".bias"));
    for (int p = 0; p < n; ++p) reader.check(name(p, ".weight"), dims({rows, D}), {&s.embed_dim}, context);
    b.qkv_w.resize(3 * D, D);
    b.qkv_b = Vec::Zero(3 * D);  // no qkv bias in the checkpoint: zeros (timm's qkv_bias=False)
    for (int p = 0; p < n; ++p) {
        reader.read_into(name(p, ".weight"), dims({rows, D}), {&s.embed_dim},
                         b.qkv_w.data() + static_cast<int64_t>(p) * rows * D, context);
        if (has_bias)
            reader.read_into(name(p, ".bias"), dims({rows}), {&s.embed_dim}, b.qkv_b.data() + p * rows, context);
    }
}

// One encoder block under timm's names.
BlockWeights read_block(WeightReader& reader, const KeyLayout& layout, int i, const Sizes& s, const ModelConfig& c) {
    const int D = s.embed_dim.value, M = s.mlp_dim.value, F = c.fc1_dim();
    const std::string context = " (" + s.depth.why + ")";
    const auto name = [&](const char* module, const char* suffix) {
        return timm_block_key(i, std::string(module) + suffix);
    };
    const auto bias = [&](const char* module, const StatedSize& length) {
        return reader.vector(name(module, ".bias"), length, context);
    };
    BlockWeights b;
    b.ln1_w = reader.vector(name("norm1", ".weight"), s.embed_dim, context);
    b.ln1_b = bias("norm1", s.embed_dim);
    read_qkv(reader, layout, i, s, context, b);
    b.proj_w = reader.matrix(name("attn.proj", ".weight"), dims({D, D}), D, D, {&s.embed_dim}, context);
    b.proj_b = bias("attn.proj", s.embed_dim);
    b.ln2_w = reader.vector(name("norm2", ".weight"), s.embed_dim, context);
    b.ln2_b = bias("norm2", s.embed_dim);
    const StatedSize fc1_width{
        F, c.activation == Activation::SwiGlu ? "2 × " + s.mlp_dim.why + " (SwiGLU)" : s.mlp_dim.why};
    b.fc1_w = reader.matrix(name("mlp.fc1", ".weight"), dims({F, D}), F, D, {&fc1_width, &s.embed_dim}, context);
    b.fc1_b = bias("mlp.fc1", fc1_width);
    b.fc2_w = reader.matrix(name("mlp.fc2", ".weight"), dims({D, M}), D, M, {&s.embed_dim, &s.mlp_dim}, context);
    b.fc2_b = bias("mlp.fc2", s.embed_dim);
    if (c.layer_scale) {
        b.ls1 = reader.vector(name("ls1", ".gamma"), s.embed_dim, context);
        b.ls2 = reader.vector(name("ls2", ".gamma"), s.embed_dim, context);
    }
    return b;
}

// mean/std must have one value per channel; a 1-channel model with nothing
// stated takes the first of the 3-channel defaults.
Preprocess resolve_preprocess(const ConfigSpec& spec, const Sizes& s, const std::string& weights_path) {
    Preprocess pre = spec.preprocess;
    pre.image_size = spec.input_size ? spec.input_size->value : s.pos_grid.value * s.patch_size.value;
    if (pre.image_size % s.patch_size.value != 0)
        throw Error(spec.input_size->why + ", which does not divide into patches of " +
                    std::to_string(s.patch_size.value) + " pixels (" + s.patch_size.why + ")");
    const size_t channels = static_cast<size_t>(s.channels.value);
    const bool stated = !spec.mean_std_path.empty();
    if (!stated && channels < pre.mean.size()) {
        pre.mean.resize(channels);
        pre.std.resize(channels);
    }
    const std::string& path = stated ? spec.mean_std_path : spec.path.empty() ? weights_path : spec.path;
    if (pre.mean.size() != channels && !stated)
        throw Error(path + ": the model has " + std::to_string(channels) + " channels (" + s.channels.why +
                    ") but no mean and std are given for them (the defaults have " + std::to_string(pre.mean.size()) +
                    " values)");
    if (pre.mean.size() != channels)
        throw Error(path + ": mean and std have " + std::to_string(pre.mean.size()) + " values but the model has " +
                    std::to_string(channels) + " channels (" + s.channels.why + ")");
    return pre;
}

ModelConfig model_config(const ConfigSpec& spec, const Sizes& s, const KeyLayout& layout,
                         const CheckpointFiles& files) {
    ModelConfig c;
    c.name = shortened(spec.name.empty() ? files.name : spec.name);  // shown in titles and messages
    c.channels = s.channels.value;
    c.patch_size = s.patch_size.value;
    c.embed_dim = s.embed_dim.value;
    c.depth = s.depth.value;
    c.num_heads = s.num_heads.value;
    c.mlp_dim = s.mlp_dim.value;
    c.num_classes = s.num_classes.value;
    c.pos_grid = s.pos_grid.value;
    c.ln_eps = spec.ln_eps;
    c.layer_scale = spec.layer_scale;
    c.norm_pre = spec.norm_pre;
    c.activation = spec.activation;
    c.preprocess = resolve_preprocess(spec, s, files.weights);
    static_cast<TokenSettings&>(c) = s.tokens;
    c.pos_resample = layout.pos_resample;
    c.labels = class_labels(c.num_classes, spec.labels);
    return c;
}

}  // namespace

Model load_checkpoint(const std::string& path, const LoadProgress& progress) {
    const CheckpointFiles files = find_checkpoint_files(path);
    const SafetensorsFile file(files.weights);
    const TimmKeys found = detect_key_layout(file);
    const ConfigSpec stated = files.config.empty() ? default_config(found.layout().transformers)
                                                   : read_config(files.config, files.preprocessor);
    const TimmKeys keys = key_layout_for_config(found, stated);
    refuse_unsupported_parts(keys);
    const ConfigSpec spec = with_weights_variant(keys, stated);
    const Sizes s = resolve_sizes(keys, spec);
    WeightReader reader(keys);
    const int D = s.embed_dim.value, C = s.channels.value, P = s.patch_size.value;
    const auto report = [&](int done) {
        if (progress) progress(static_cast<float>(done) / static_cast<float>(s.depth.value + 2));
    };
    report(0);

    Model m;
    m.config = model_config(spec, s, keys.layout(), files);
    m.config.random_weights = file.metadata().count(kRandomWeightsKey) > 0;
    m.patch_w = reader.matrix("patch_embed.proj.weight", dims({D, C, P, P}), D, C * P * P,
                              {&s.embed_dim, &s.channels, &s.patch_size});
    if (!m.config.norm_pre) m.patch_b = reader.vector("patch_embed.proj.bias", s.embed_dim);  // pre_norm: none
    read_tokens(reader, s, m);
    if (m.config.norm_pre) {
        m.norm_pre_w = reader.vector("norm_pre.weight", s.embed_dim);
        m.norm_pre_b = reader.vector("norm_pre.bias", s.embed_dim);
    }
    report(1);
    for (int i = 0; i < s.depth.value; ++i) {
        m.blocks.push_back(read_block(reader, keys.layout(), i, s, m.config));
        report(2 + i);
    }
    read_head(reader, s, m);
    refuse_unused_tensors(keys, reader);
    m.nonfinite_weights = nonfinite_report(file.path(), reader.nonfinite());
    report(s.depth.value + 2);
    return m;
}

}  // namespace vit
