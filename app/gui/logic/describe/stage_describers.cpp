// The side panel's text for each kind of stage: one describer per kind (the table of
// logic/describe/stage_kinds.cpp says which), written with the loaded model's real
// sizes. The PyTorch lines follow timm's vision_transformer.py and the PyTorch
// notebooks the project started from (004 above all); the notes point at those
// notebooks' known mistakes as teaching moments. Everything here is plain ASCII so
// ImGui's default font can draw it.
#include "logic/describe/stage_describers.h"

#include "logic/describe/token_layout.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <utility>
#include <vector>

namespace vit::gui {

StageSizes stage_sizes(const ModelConfig& c, int tokens) {
    StageSizes s{};
    s.C = c.channels;
    s.P = c.patch_size;
    s.prefix = c.prefix_tokens();
    s.T = tokens > s.prefix ? tokens : s.prefix + 1;
    s.N = s.T - s.prefix;
    s.D = c.embed_dim;
    s.H = c.num_heads > 0 ? c.num_heads : 1;
    s.Dh = s.D / s.H;
    s.M = c.mlp_dim;
    s.K = c.num_classes;
    s.L = c.depth;
    s.eps = c.ln_eps;
    int g = static_cast<int>(std::lround(std::sqrt(static_cast<double>(s.N))));
    s.grid = (g * g == s.N) ? g : 0;
    s.side = s.grid > 0 ? s.grid * s.P : c.preprocess.image_size;
    return s;
}

namespace {

std::string num(int v) { return std::to_string(v); }

// A float as people write it: 0.485, 1e-06, 8, 13.9.
std::string fnum(double v, int digits = 4) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

// "(197, 768)", as PyTorch prints a shape.
std::string tup(std::initializer_list<int> dims) {
    std::string out = "(";
    bool first = true;
    for (int d : dims) {
        if (!first) out += ", ";
        out += num(d);
        first = false;
    }
    return out + ")";
}

std::string tup_f(const std::vector<float>& v) {
    std::string out = "(";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + fnum(v[i], 3);
    return out + ")";
}

// sqrt(64) = 8, sqrt(48) = 6.93.
std::string sqrt_value(int v) {
    int r = static_cast<int>(std::lround(std::sqrt(static_cast<double>(v))));
    if (r * r == v) return num(r);
    return fnum(std::sqrt(static_cast<double>(v)), 3);
}

// "1 head", "12 heads"; "1 patch", "196 patches"; "12 matrices".
std::string plural(int n, const std::string& word) {
    if (n == 1) return "1 " + word;
    if (word == "matrix") return num(n) + " matrices";
    if (word == "patch") return num(n) + " patches";
    return num(n) + " " + word + "s";
}

// "a 14 x 14 grid of 16 x 16 pixel patches" or "196 patches of 16 x 16 pixels".
std::string grid_words(const StageSizes& s) {
    std::string px = num(s.P) + " x " + num(s.P);
    if (s.grid > 0) return "a " + num(s.grid) + " x " + num(s.grid) + " grid of " + px + " pixel patches";
    return plural(s.N, "patch") + " of " + px + " pixels";
}

std::string channel_name(int c, int channels) {
    if (channels == 3) {
        static const char* const rgb[] = {"red", "green", "blue"};
        return rgb[c];
    }
    if (channels == 1) return "grey";
    return "channel " + num(c);
}

// The LayerNorm stages (ln1, ln2, norm) share their shapes.
void fill_layernorm(StageInfo& info, const StageSizes& s) {
    info.shapes = tup({s.T, s.D}) + " -> " + tup({s.T, s.D}) + ", mean and var over the " + num(s.D) +
                  " features of each token; gamma, beta: " + tup({s.D}) + ", eps = " + fnum(s.eps);
}

std::string layernorm_explanation(const StageSizes& s) {
    return "Each token's " + num(s.D) +
           " numbers are shifted and scaled so they have mean 0 and standard deviation 1, then "
           "multiplied by a learned gamma and shifted by a learned beta. Every one of the " +
           num(s.T) +
           " tokens is normalised on its own, which keeps the numbers in a steady range however deep "
           "the network is.";
}

// The three projections q, k, v share the fused qkv layer.
}  // namespace

void describe_qkv(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig&) {
    const StageKind which = stage.kind;
    info.shapes = "(H, T, Dh) = " + tup({s.H, s.T, s.Dh}) + ", from qkv " + tup({s.T, 3 * s.D}) + " = " +
                  tup({s.T, s.D}) + " @ " + tup({s.D, 3 * s.D}) + " + " + tup({3 * s.D});
    std::string split = "One Linear layer makes " + num(3 * s.D) +
                        " numbers per token (queries, keys and values together); the " + num(s.D) + " " +
                        (which == StageKind::Q   ? "query"
                         : which == StageKind::K ? "key"
                                                 : "value") +
                        " numbers are cut into " + plural(s.H, "head") + " of " + num(s.Dh) + ".";
    if (which == StageKind::Q)
        info.explanation = "A query is what a token is looking for. " + split +
                           " Each head asks its own question, so different heads can look for different things.";
    else if (which == StageKind::K)
        info.explanation =
            "A key is what a token offers to be found by: when a query and a key point the same way, "
            "their dot product (score) is high. " +
            split;
    else
        info.explanation = "A value is the information a token hands over when others attend to it. " + split +
                           " Queries and keys decide who listens to whom; values are what gets passed along.";
}

// The embedding: from the image to the tokens block 0 reads.

void describe_input(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    info.shapes = "(C, H, W) = " + tup({s.C, s.side, s.side}) + ", mean = " + tup_f(config.preprocess.mean) +
                  ", std = " + tup_f(config.preprocess.std);
    std::string per_channel;
    const auto& mean = config.preprocess.mean;
    const auto& sd = config.preprocess.std;
    bool identity = true;
    for (int c = 0; c < s.C && c < static_cast<int>(mean.size()) && c < static_cast<int>(sd.size()); ++c) {
        if (mean[c] != 0.0f || sd[c] != 1.0f) identity = false;
        per_channel += (c ? ", " : "") + channel_name(c, s.C) + " (v - " + fnum(mean[c], 3) + ") / " + fnum(sd[c], 3);
    }
    info.explanation = "The picture is resized and centre-cropped to " + num(s.side) + " x " + num(s.side) +
                       " pixels, " + plural(s.C, "channel") + ". ";
    if (identity)
        info.explanation +=
            "This model normalises with mean 0 and standard deviation 1, so the pixel values go "
            "in unchanged.";
    else
        info.explanation +=
            "Each pixel value v is scaled to 0..1, then every channel is shifted and scaled with "
            "the numbers the model was trained with: " +
            per_channel + ". Afterwards typical values lie between about -2 and +2, centred on 0.";
}

void describe_patches(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    info.shapes = "(N, C*P*P) = " + tup({s.N, s.C * s.P * s.P}) + ", " + num(s.N) + " = " +
                  (s.grid > 0 ? num(s.grid) + " x " + num(s.grid) + " patches, " : std::string("patches, ")) +
                  num(s.C * s.P * s.P) + " = " + num(s.C) + " x " + num(s.P) + " x " + num(s.P);
    info.explanation = "The " + num(s.side) + " x " + num(s.side) + " image is cut into " + grid_words(s) +
                       ", read left to right, top to bottom. Each of the " + num(s.N) + " patches becomes one row of " +
                       num(s.C * s.P * s.P) + " numbers (" + plural(s.C, "channel") + " x " + num(s.P) + " x " +
                       num(s.P) + " pixels), in the same order as the weights of the Conv2d that embeds them.";
}

void describe_patch_embed(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    const int K = s.C * s.P * s.P;
    info.shapes = tup({s.N, s.D}) + " = " + tup({s.N, K}) + " @ " + tup({K, s.D}) + " + " + tup({s.D});
    info.explanation = "One learned matrix turns each patch's " + num(K) + " pixel numbers into " + num(s.D) +
                       " numbers, its embedding; the same weights are used for all " + num(s.N) +
                       " patches. A Conv2d with a " + num(s.P) + " x " + num(s.P) + " kernel and stride " + num(s.P) +
                       " does exactly this multiplication, once per patch, which is how timm writes it.";
}

void describe_cls(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    const std::string TD = tup({s.T, s.D});
    info.shapes = TD + " = " + tup({s.prefix, s.D}) + " on top of " + tup({s.N, s.D});
    const std::string reads = s.K > 0 ? "at the end the classifier reads only this row."
                                      : "at the end its row is the summary of the whole image.";
    if (s.prefix == 1 && config.class_token && config.global_pool == GlobalPool::Token)
        info.explanation = "A learned row of " + num(s.D) +
                           " numbers, the CLS token, is put on top as row 0, so "
                           "there are now " +
                           num(s.T) +
                           " tokens. It belongs to no patch: through the blocks it "
                           "collects information from all of them, and " +
                           reads;
    else if (s.prefix == 0)
        info.explanation = "This model has no class token: nothing is put on top, and the " + num(s.N) +
                           " patch tokens go on alone. The head reads " + pooled_tokens(config) + ".";
    else
        info.explanation = num(s.prefix) + " learned rows of " + num(s.D) + " numbers, " + prefix_token_list(config) +
                           ", are put on top as rows 0 to " + num(s.prefix - 1) + ", so there are now " + num(s.T) +
                           " tokens. They belong to no patch; the head reads " + pooled_tokens(config) + ".";
}

void describe_tokens(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    const std::string TD = tup({s.T, s.D});
    const int placed = config.pos_prefix();  // the prefix tokens that take a position
    info.shapes = TD + " = " + TD + " + " + TD;
    info.explanation =
        "Attention on its own does not know where a patch came from. A learned position embedding, "
        "one row of " +
        num(s.D) + " numbers per position (" +
        (placed == 1  ? "the CLS token plus "
         : placed > 1 ? "the prefix tokens plus "
                      : "") +
        (s.grid > 0 ? "the " + num(s.grid) + " x " + num(s.grid) + " grid" : plural(s.N, "patch")) +
        (placed < s.prefix ? placed == 0 ? "; the prefix tokens get none" : "; the registers get none" : "") +
        "), is added so each token also carries where its patch sits. This " + num(s.T) + " x " + num(s.D) +
        " matrix is the input of block 0.";
    if (s.grid > 0 && config.pos_grid > 0 && config.pos_grid != s.grid)
        info.explanation += " The checkpoint learned a " + num(config.pos_grid) + " x " + num(config.pos_grid) +
                            " grid of positions, so it is resized (bicubic) to " + num(s.grid) + " x " + num(s.grid) +
                            ".";
}

// A block's stages (the block's number is stage.block).

void describe_ln1(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    fill_layernorm(info, s);
    info.explanation = layernorm_explanation(s) +
                       " The block is pre-norm: attention reads the normalised copy, "
                       "while the un-normalised x is kept for the residual.";
}

void describe_scores(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    const std::string HTT = tup({s.H, s.T, s.T});
    const std::string HTDh = tup({s.H, s.T, s.Dh});
    info.shapes = HTT + " = " + HTDh + " @ " + tup({s.H, s.Dh, s.T}) + " / sqrt(" + num(s.Dh) + ")";
    info.explanation = "In each of the " + plural(s.H, "head") +
                       ", every token's query is compared with every token's key by a dot product: " + num(s.T) +
                       " x " + num(s.T) + " = " + num(s.T * s.T) + " scores per head. Dividing by sqrt(" + num(s.Dh) +
                       ") = " + sqrt_value(s.Dh) +
                       " keeps the scores from growing with the head size, so the softmax that follows does not "
                       "become too sharp.";
    info.notebook_note =
        "Seed 001's Head scales by C ** -0.5 with C the embedding width (512 there), not by "
        "head_size ** -0.5, and seed 002 divides by hidden_dim ** 0.5. ViT divides by the size of "
        "the vectors being multiplied, sqrt(Dh) = " +
        sqrt_value(s.Dh) + "; dividing by sqrt(D) = " + sqrt_value(s.D) +
        " here would make every head's attention flatter.";
}

void describe_attn(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    const std::string HTT = tup({s.H, s.T, s.T});
    info.shapes = HTT + " -> " + HTT + ", each of the " + num(s.T) + " rows sums to 1";
    info.explanation =
        "Each row of scores becomes shares of 100%: every score is exponentiated, then divided by "
        "its row's total, so the " +
        num(s.T) +
        " weights of a row are positive and add up to 1. Row t says how much token t takes from "
        "each token; click a patch to see its row over the image.";
}

void describe_context(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    const std::string TD = tup({s.T, s.D});
    const std::string HTT = tup({s.H, s.T, s.T});
    const std::string HTDh = tup({s.H, s.T, s.Dh});
    info.shapes = HTDh + " = " + HTT + " @ " + HTDh + ", then " + HTDh + " -> " + TD + " (" + num(s.H) + " heads x " +
                  num(s.Dh) + " = " + num(s.D) + ")";
    info.explanation = "Each token's new vector is a blend of all " + num(s.T) +
                       " tokens' values, mixed in the proportions of its attention row. The " + plural(s.H, "head") +
                       "' results (" + num(s.Dh) + " numbers each) are put side by side into " + num(s.D) +
                       " numbers per token.";
    info.notebook_note =
        "Seed 002's MultiHeadSelfAttention stops here: each head's softmax(q @ k.T / sqrt(D)) @ v "
        "goes into a list that is never concatenated, the output Linear is never applied and "
        "forward returns nothing. Here the heads are concatenated, and attn_out projects them.";
}

void describe_attn_out(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    const std::string TD = tup({s.T, s.D});
    info.shapes = TD + " = " + TD + " @ " + tup({s.D, s.D}) + " + " + tup({s.D});
    info.explanation =
        "A Linear layer mixes the heads' results, so what one head found can combine with what "
        "the others found. Its output has the block input's shape, " +
        num(s.T) + " x " + num(s.D) + ", so it can be added back to it.";
}

void describe_res1(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    const std::string TD = tup({s.T, s.D});
    info.shapes = TD + " = " + TD + " + " + TD;
    info.explanation =
        "The attention result is added to the block's input instead of replacing it (a residual, "
        "or skip, connection). Each block only adds a correction, so what the tokens knew survives "
        "through all " +
        plural(s.L, "block") + " and training stays stable.";
    info.notebook_note =
        "Seed 004's Block.forward computes y, attn = self.attn(self.norm1(x)) and never uses y: "
        "it goes straight to x = x + self.mlp(self.norm2(x)), so attention never changes the "
        "tokens. The correct pre-norm block is x = x + attn(norm1(x)); x = x + mlp(norm2(x)).";
}

void describe_ln2(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    fill_layernorm(info, s);
    info.explanation = layernorm_explanation(s) +
                       " The MLP reads this normalised copy; x itself is kept for the "
                       "second residual.";
}

void describe_fc1(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    const std::string TD = tup({s.T, s.D});
    const int F = config.fc1_dim();
    info.shapes = tup({s.T, F}) + " = " + TD + " @ " + tup({s.D, F}) + " + " + tup({F});
    std::string wider = (s.D > 0 && F % s.D == 0) ? " (" + num(F / s.D) + " times wider)" : "";
    info.explanation = "The MLP works on each token by itself; tokens do not mix here. fc1 widens each token from " +
                       num(s.D) + " to " + num(F) + " numbers" + wider +
                       ", room for many feature detectors, each firing on its own pattern.";
    if (config.activation == Activation::SwiGlu)
        info.explanation += " For SwiGLU they come in two halves of " + num(s.M) + ": gates and values.";
}

void describe_gelu(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    info.shapes = tup({s.T, s.M}) + " -> " + tup({s.T, s.M}) + ", number by number";
    info.explanation = "GELU is a smooth switch applied to each of the " + num(s.T * s.M) +
                       " numbers: large positive values pass almost unchanged, large negative ones become almost "
                       "0, and values near 0 are damped. Without a bend like this, fc1 and fc2 would collapse into "
                       "one single matrix.";
}

void describe_mlp_out(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    const std::string TD = tup({s.T, s.D});
    info.shapes = TD + " = " + tup({s.T, s.M}) + " @ " + tup({s.M, s.D}) + " + " + tup({s.D});
    info.explanation = "fc2 combines the " + num(s.M) + " hidden features back into " + num(s.D) +
                       " numbers per token, the token's width, so the result can be added to it.";
}

void describe_out(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig&) {
    const std::string TD = tup({s.T, s.D});
    const int b = stage.block;
    info.shapes = TD + " = " + TD + " + " + TD;
    std::string next = (b + 1 < s.L) ? "the input of block " + num(b + 1) : "the input of the final LayerNorm";
    info.explanation = "The second residual: the MLP's correction is added to the tokens. This " + num(s.T) + " x " +
                       num(s.D) + " matrix is block " + num(b) + "'s output and " + next + ".";
}

// The variants' stages: CLIP's norm_pre and QuickGELU, DINOv2's LayerScale and SwiGLU.

void describe_norm_pre(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    fill_layernorm(info, s);
    info.explanation = layernorm_explanation(s) +
                       " CLIP's image tower normalises the tokens once more before "
                       "the first block (timm's pre_norm); the blocks' residual stream "
                       "starts from this copy, not from the raw tokens.";
}

void describe_quick_gelu(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    info.shapes = tup({s.T, s.M}) + " -> " + tup({s.T, s.M}) + ", number by number";
    info.explanation =
        "QuickGELU, x * sigmoid(1.702 x), is the approximation of GELU that OpenAI trained CLIP with: "
        "the same smooth switch on each of the " +
        num(s.T * s.M) + " numbers, a little different from the exact GELU near -2 to 0.";
}

void describe_swiglu(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    info.shapes = tup({s.T, 2 * s.M}) + " -> " + tup({s.T, s.M}) + ", the two halves multiplied number by number";
    info.explanation = "SwiGLU, the MLP of DINOv2's giant model: fc1's left " + num(s.M) +
                       " numbers per token are gates, passed through SiLU (x * sigmoid(x), a smooth switch), and "
                       "each gate multiplies the matching number of the right " +
                       num(s.M) +
                       ", the values. Where a gate is near 0 its feature is shut; the model learns which "
                       "features each token lets through.";
}

void describe_layer_scale(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig&) {
    const std::string TD = tup({s.T, s.D});
    info.shapes = TD + " = " + TD + " * " + tup({s.D}) + ", per feature";
    info.explanation = std::string("LayerScale multiplies the ") +
                       (stage.kind == StageKind::Ls1 ? "attention" : "MLP") + " branch feature by feature by " +
                       num(s.D) +
                       " learned numbers (initialised at 1e-5 in DINOv2) before it is added to the "
                       "residual stream: each block starts as almost the identity and learns how much to add.";
}

// After the blocks: the final norm, the classifier and rollout.

void describe_norm(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    fill_layernorm(info, s);
    info.explanation = "After the last of the " + plural(s.L, "block") +
                       ", one more LayerNorm gives every token mean "
                       "0 and standard deviation 1, then applies a learned gamma and beta. " +
                       (config.fc_norm ? std::string("Here it is an identity (timm fc_norm): the LayerNorm comes after "
                                                     "pooling instead.")
                        : config.global_pool == GlobalPool::Avg ? "The head reads " + pooled_tokens(config) + "."
                        : config.dist_token ? std::string("The two heads read row 0 (CLS) and row 1 (DIST).")
                        : s.K > 0           ? std::string("The classifier reads only row 0, the CLS token.")
                                  : std::string("Row 0, the CLS token, is the image's feature vector: this model has "
                                                "no classifier head."));
}

void describe_pool(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    const bool avg = config.global_pool == GlobalPool::Avg;
    info.shapes = tup({s.D}) +
                  (avg ? " = mean over " + num(s.N) + " rows of " + tup({s.T, s.D}) : " = row 0 of " + tup({s.T, s.D}));
    info.explanation = avg ? "The " + num(s.N) + " patch tokens are averaged into one vector of " + num(s.D) +
                                 " numbers" + (s.prefix > 0 ? ", leaving out " + prefix_token_list(config) : "") +
                                 ". This vector, not a class token, is what the head reads."
                           : "The CLS row is taken out as the image's vector of " + num(s.D) + " numbers.";
}

void describe_pool_norm(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    info.shapes = tup({s.D}) + " -> " + tup({s.D}) + ", gamma, beta: " + tup({s.D}) + ", eps = " + fnum(s.eps);
    info.explanation =
        "A LayerNorm of the pooled vector alone (timm fc_norm): mean 0 and standard deviation 1, "
        "then a learned gamma and beta. The final norm before it is an identity.";
}

void describe_logits_part(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig&) {
    const bool cls = stage.kind == StageKind::LogitsCls;
    info.shapes = tup({s.K}) + " = " + tup({s.D}) + " @ " + tup({s.D, s.K}) + " + " + tup({s.K});
    info.explanation = std::string(cls ? "The class head (head) reads row 0, the CLS token"
                                       : "The distillation head (head_dist) reads row 1, the DIST token") +
                       ", and scores the " + num(s.K) + " classes. DeiT trains " +
                       (cls ? "it on the true labels" : "it to match a teacher network's predictions") +
                       "; the model's logits are the mean of the two heads.";
}

void describe_logits(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    info.shapes = tup({s.K}) + " = " + tup({s.D}) + " @ " + tup({s.D, s.K}) + " + " + tup({s.K});
    if (config.dist_token)
        info.shapes = tup({s.K}) + " = (logits_cls " + tup({s.K}) + " + logits_dist " + tup({s.K}) + ") / 2";
    const std::string reads = config.dist_token ? "The mean of the two heads (CLS and DIST) turns their"
                                                : "A Linear layer turns " + pooled_tokens(config) + "'s";
    info.explanation = reads + " " + num(s.D) + " numbers into " + num(s.K) +
                       " scores, one per class. A larger score means the model finds that class more likely, but "
                       "the scores are not probabilities yet: they can be negative and do not add up to 1.";
    if (s.K == 0) info.explanation = "This model has no classifier head (num_classes = 0), so there are no logits.";
}

void describe_probs(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig&) {
    info.shapes = tup({s.K}) + " -> " + tup({s.K}) + ", sums to 1";
    info.explanation = "Softmax turns the " + num(s.K) +
                       " scores into probabilities: each is exponentiated and divided by the total, so all are "
                       "positive and add up to 1 (100%). The bars show the top classes; a difference of 1 in the "
                       "logits means a factor of e = 2.7 in probability.";
    if (s.K == 0)
        info.explanation = "This model has no classifier head (num_classes = 0), so there are no probabilities.";
}

void describe_rollout(StageInfo& info, const StageRef&, const StageSizes& s, const ModelConfig& config) {
    info.shapes = tup({s.T, s.T}) + " = product of " + plural(s.L, "matrix") + " " + tup({s.T, s.T}) +
                  ", each the mean of " + tup({s.H, s.T, s.T}) + " over heads";
    info.explanation =
        "One block's attention only says where tokens look in that block, but tokens already mixed "
        "in earlier blocks. Rollout averages the " +
        plural(s.H, "head") +
        " of each block, adds the identity matrix because the residual keeps half of each "
        "token's own information, makes every row sum to 1 again, and multiplies these " +
        num(s.T) + " x " + num(s.T) + " matrices through all " + plural(s.L, "block") +
        (config.class_token ? ". Row 0 then shows which patches flowed into the CLS token."
                            : ". Row t then shows which patches flowed into token t (this model "
                              "has no class token).");
}

std::string input_picture_caption(int side, int masked_patches) {
    const std::string cropped = "2. resized and centre-cropped to " + num(side) + " x " + num(side);
    if (masked_patches <= 0) return cropped;
    return cropped + ", then " + plural(masked_patches, "patch") + " masked (Ask the model)";
}

}  // namespace vit::gui
