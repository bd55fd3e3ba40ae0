// Pure UI-state transitions: stage and block stepping, token/head/layer
// selection with clamping, colormap choice and stage relations.
#include "logic/state/app_state.h"

#include <algorithm>

#include "pass/forward.h"

namespace vit::gui {

int Pipeline::index_of(const std::string& id) const {
    auto it = std::find(ids.begin(), ids.end(), id);
    return it == ids.end() ? -1 : static_cast<int>(it - ids.begin());
}

int Pipeline::index_of(const StageRef& stage) const {
    auto it = std::find(stages.begin(), stages.end(), stage);
    return it == stages.end() ? -1 : static_cast<int>(it - stages.begin());
}

ModelParts Pipeline::parts() const { return {depth > 0, index_of(StageRef{StageKind::Logits}) >= 0, layout.has_cls()}; }

Pipeline make_pipeline(const std::vector<StageRef>& stages, int tokens, int heads, const TokenLayout& layout) {
    Pipeline p;
    p.stages = stages;
    p.layout = layout;
    p.tokens = std::max(1, tokens);
    p.heads = std::max(1, heads);
    for (const StageRef& s : stages) {
        p.ids.push_back(stage_id(s));
        p.depth = std::max(p.depth, s.block + 1);
    }
    for (const StageRef& s : stages) {
        switch (stage_def(s.kind).group) {
            case StageGroup::Embedding: p.group.push_back(0); break;
            case StageGroup::Block: p.group.push_back(1 + s.block); break;
            case StageGroup::Head: p.group.push_back(p.depth + 1); break;
        }
    }
    return p;
}

Pipeline trace_pipeline(const Trace& trace, const ModelConfig& config) {
    const std::vector<StageRef> stages = pass_stages(config, trace);
    const Tensor* cls = trace.tensor({StageKind::Cls});
    return make_pipeline(stages, cls ? static_cast<int>(cls->rows()) : 1, config.num_heads, token_layout(config));
}

int shown_block(const AppState& s, const Pipeline& p) {
    if (s.screen == Screen::Stage) return s.stage >= 0 && s.stage < p.size() ? p.stages[s.stage].block : -1;
    return p.depth > 0 ? std::clamp(s.layer, 0, p.depth - 1) : -1;
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

void select_patch(AppState& s, const Pipeline& p, int patch) { select_token(s, p, p.layout.token_of(patch)); }

void select_head(AppState& s, const Pipeline& p, int head) { s.head = head < 0 ? -1 : std::min(head, p.heads - 1); }

void toggle_enlarged_head(AppState& s, const Pipeline& p, int head) {
    select_head(s, p, s.head >= 0 ? -1 : std::max(0, head));
}

void select_layer(AppState& s, const Pipeline& p, int layer) {
    s.layer = std::clamp(layer, 0, std::max(0, p.depth - 1));
}

void toggle_cls_attention(AppState& s, const Pipeline& p) {
    s.cls_only = !s.cls_only && p.layout.has_cls();
    if (s.cls_only && s.screen != Screen::ModelView) {  // the model view shows every layer's CLS row where it is
        s.layer = std::max(0, p.depth - 1);
        s.screen = Screen::Attention;
    }
}

void clamp_state(AppState& s, const Pipeline& p) {
    s.stage = p.ids.empty() ? 0 : std::clamp(s.stage, 0, p.size() - 1);
    s.token = std::clamp(s.token, 0, p.tokens - 1);
    s.cls_only = s.cls_only && p.layout.has_cls();
    select_head(s, p, s.head);
    select_layer(s, p, s.layer);
}

void follow_stage_layer(AppState& s, const Pipeline& p) {
    if (s.stage < 0 || s.stage >= p.size()) return;
    int b = p.stages[s.stage].block;
    if (b >= 0) s.layer = b;
}

std::string group_name(const Pipeline& p, int group) {
    if (group == 0) return "Embedding";
    if (group > p.depth) return "Head";
    return "Block " + std::to_string(group - 1);
}

Colormap colormap_for(Palette natural, ColormapMode mode) {
    if (mode == ColormapMode::Diverging) return Colormap::Diverging;
    if (mode == ColormapMode::Sequential) return Colormap::Sequential;
    return natural;
}

Colormap colormap_for(StageKind kind, ColormapMode mode) { return colormap_for(stage_def(kind).palette, mode); }

}  // namespace vit::gui
