// Pure UI-state transitions: stage and block stepping, token/head/layer
// selection with clamping, colormap choice and stage relations.
#include "app_state.h"

#include <algorithm>
#include <cstdlib>

namespace vit::gui {

int Pipeline::index_of(const std::string& id) const {
    auto it = std::find(ids.begin(), ids.end(), id);
    return it == ids.end() ? -1 : static_cast<int>(it - ids.begin());
}

int stage_block(const std::string& id) {
    if (id.rfind("block", 0) != 0) return -1;
    size_t dot = id.find('.');
    if (dot == std::string::npos || dot == 5) return -1;
    return std::atoi(id.substr(5, dot - 5).c_str());
}

Pipeline make_pipeline(const std::vector<std::string>& ids, int tokens, int heads) {
    Pipeline p;
    p.ids = ids;
    p.tokens = std::max(1, tokens);
    p.heads = std::max(1, heads);
    for (const std::string& id : ids) {
        int b = stage_block(id);
        if (b >= 0) {
            p.depth = std::max(p.depth, b + 1);
        }
    }
    for (const std::string& id : ids) {
        int b = stage_block(id);
        if (b >= 0) {
            p.group.push_back(1 + b);
        } else {
            // Stages after the first block belong to the head; with no blocks, only
            // input … tokens are embedding stages.
            bool embedding = id == "input" || id == "patches" || id == "patch_embed" || id == "cls" || id == "tokens";
            p.group.push_back(embedding ? 0 : p.depth + 1);
        }
    }
    return p;
}

void go_to_stage(AppState& s, const Pipeline& p, int index) {
    if (p.ids.empty()) {
        s.stage = 0;
        return;
    }
    s.stage = std::clamp(index, 0, p.size() - 1);
    follow_stage_layer(s, p);
}

void next_stage(AppState& s, const Pipeline& p) { go_to_stage(s, p, s.stage + 1); }
void prev_stage(AppState& s, const Pipeline& p) { go_to_stage(s, p, s.stage - 1); }

void next_block(AppState& s, const Pipeline& p) {
    if (p.ids.empty()) return;
    int cur = std::clamp(s.stage, 0, p.size() - 1);
    for (int i = cur + 1; i < p.size(); ++i)
        if (p.group[i] != p.group[cur]) return go_to_stage(s, p, i);
    go_to_stage(s, p, p.size() - 1);  // last group: go to its end
}

void prev_block(AppState& s, const Pipeline& p) {
    if (p.ids.empty()) return;
    int cur = std::clamp(s.stage, 0, p.size() - 1);
    int start = cur;
    while (start > 0 && p.group[start - 1] == p.group[cur]) --start;
    if (start < cur) return go_to_stage(s, p, start);
    if (start == 0) return go_to_stage(s, p, 0);
    int prev = start - 1;
    while (prev > 0 && p.group[prev - 1] == p.group[start - 1]) --prev;
    go_to_stage(s, p, prev);
}

void select_token(AppState& s, const Pipeline& p, int token) {
    s.token = std::clamp(token, 0, p.tokens - 1);
    s.cls_only = false;
}

int attention_token(const AppState& s) { return s.cls_only ? 0 : s.token; }

void select_patch(AppState& s, const Pipeline& p, int patch) { select_token(s, p, patch + 1); }

void select_head(AppState& s, const Pipeline& p, int head) { s.head = head < 0 ? -1 : std::min(head, p.heads - 1); }

void select_layer(AppState& s, const Pipeline& p, int layer) {
    s.layer = std::clamp(layer, 0, std::max(0, p.depth - 1));
}

void toggle_cls_attention(AppState& s, const Pipeline& p) {
    s.cls_only = !s.cls_only;
    if (s.cls_only) {
        s.layer = std::max(0, p.depth - 1);
        s.screen = Screen::Attention;
    }
}

void clamp_state(AppState& s, const Pipeline& p) {
    s.stage = p.ids.empty() ? 0 : std::clamp(s.stage, 0, p.size() - 1);
    s.token = std::clamp(s.token, 0, p.tokens - 1);
    select_head(s, p, s.head);
    select_layer(s, p, s.layer);
}

void follow_stage_layer(AppState& s, const Pipeline& p) {
    if (s.stage < 0 || s.stage >= p.size()) return;
    int b = stage_block(p.ids[s.stage]);
    if (b >= 0) s.layer = b;
}

StageKind stage_kind(const std::string& id) {
    std::string name = stage_block(id) >= 0 ? id.substr(id.find('.') + 1) : id;
    struct Entry { const char* name; StageKind kind; };
    static const Entry kTable[] = {
        {"input", StageKind::Input},     {"patches", StageKind::Patches},   {"patch_embed", StageKind::PatchEmbed},
        {"cls", StageKind::Cls},         {"tokens", StageKind::Tokens},     {"ln1", StageKind::LayerNorm},
        {"ln2", StageKind::LayerNorm},   {"q", StageKind::Q},               {"k", StageKind::K},
        {"v", StageKind::V},             {"scores", StageKind::Scores},     {"attn", StageKind::Attn},
        {"context", StageKind::Context}, {"attn_out", StageKind::AttnOut},  {"res1", StageKind::Residual},
        {"out", StageKind::Residual},    {"fc1", StageKind::Fc1},           {"gelu", StageKind::Gelu},
        {"mlp_out", StageKind::MlpOut},  {"norm", StageKind::Norm},         {"logits", StageKind::Logits},
        {"probs", StageKind::Probs},     {"rollout", StageKind::Rollout},
    };
    for (const Entry& e : kTable)
        if (name == e.name) return e.kind;
    return StageKind::Unknown;
}

const char* stage_short_name(const std::string& id) {
    bool in_block = stage_block(id) >= 0;
    switch (stage_kind(id)) {
        case StageKind::Input: return "normalised image";
        case StageKind::Patches: return "cut + flatten patches";
        case StageKind::PatchEmbed: return "linear projection";
        case StageKind::Cls: return "prepend CLS token";
        case StageKind::Tokens: return "+ position embedding";
        case StageKind::LayerNorm: return id.back() == '1' ? "LayerNorm before attention" : "LayerNorm before MLP";
        case StageKind::Q: return "queries per head";
        case StageKind::K: return "keys per head";
        case StageKind::V: return "values per head";
        case StageKind::Scores: return "scores Q·Kᵀ/√Dh";
        case StageKind::Attn: return "softmax: attention";
        case StageKind::Context: return "attention · V";
        case StageKind::AttnOut: return "output projection";
        case StageKind::Residual: return id.substr(id.find('.') + 1) == "res1" ? "+ residual (attention)" : "+ residual (MLP)";
        case StageKind::Fc1: return "MLP fc1 (widen)";
        case StageKind::Gelu: return "GELU";
        case StageKind::MlpOut: return "MLP fc2 (narrow)";
        case StageKind::Norm: return "final LayerNorm";
        case StageKind::Logits: return "classifier scores";
        case StageKind::Probs: return "softmax: probabilities";
        case StageKind::Rollout: return "attention rollout";
        case StageKind::Unknown: break;
    }
    return in_block ? "block stage" : "stage";
}

std::string group_name(const Pipeline& p, int group) {
    if (group == 0) return "Embedding";
    if (group > p.depth) return "Head";
    return "Block " + std::to_string(group - 1);
}

Colormap colormap_for(const std::string& id, ColormapMode mode) {
    if (mode == ColormapMode::Diverging) return Colormap::Diverging;
    if (mode == ColormapMode::Sequential) return Colormap::Sequential;
    switch (stage_kind(id)) {
        case StageKind::Attn:
        case StageKind::Probs:
        case StageKind::Rollout: return Colormap::Sequential;
        default: return Colormap::Diverging;
    }
}

std::string stage_input_id(const std::string& id, int depth) {
    int b = stage_block(id);
    std::string name = b >= 0 ? id.substr(id.find('.') + 1) : id;
    auto block_in = [](int block) {
        return block == 0 ? std::string("tokens") : "block" + std::to_string(block - 1) + ".out";
    };
    if (b >= 0 && (name == "ln1" || name == "res1")) return block_in(b);
    if (b >= 0 && (name == "ln2" || name == "out")) return "block" + std::to_string(b) + ".res1";
    if (b < 0 && name == "norm") return depth > 0 ? block_in(depth) : "tokens";
    return "";
}

}  // namespace vit::gui
