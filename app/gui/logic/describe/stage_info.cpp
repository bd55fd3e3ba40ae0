// The side panel's text for a stage: the catalogue's title, formula and PyTorch line
// (core/pass/stages.cpp), then what the kind's describer writes (stage_kinds.h), and
// the notes and shares the views print beside it (the input's caption is with its
// describer, in stage_describers.cpp).
#include "logic/describe/stage_info.h"

#include <cstdio>

#include "logic/describe/stage_kinds.h"

namespace vit::gui {

StageInfo describe_stage(const StageRef& stage, const ModelConfig& config, int tokens) {
    const StageDef& def = stage_def(stage.kind);
    StageInfo info;
    const bool in_block = def.group == StageGroup::Block;
    info.title = (in_block ? "Block " + std::to_string(stage.block) + ": " : std::string()) + def.title;
    info.formula = def.formula;
    info.pytorch = def.pytorch;
    stage_kind_row(stage.kind).describe(info, stage, stage_sizes(config, tokens), config);
    return info;
}

std::string zero_positions_note(bool removed_by_question) {
    if (removed_by_question)
        return "Here the positional embedding is all zeros because the question removed it (Ask the model: no "
               "positions), not because the model never learned one: every position looks the same and the maps "
               "are blank, so in this pass the model cannot tell where a patch came from.";
    return "Here the positional embedding is all zeros (the notebook's nn.Parameter(torch.zeros(...)), never "
           "trained), so every position looks the same and the maps are blank: this model cannot tell where a "
           "patch came from.";
}

std::string percent(float share) {
    if (share < 0.f) return "-" + percent(-share);  // a change (the occlusion map's importance)
    char buf[16];
    float p = 100.f * share;
    if (p >= 9.95f) std::snprintf(buf, sizeof buf, "%.0f%%", p);
    else if (p >= 0.095f) std::snprintf(buf, sizeof buf, "%.1f%%", p);
    else std::snprintf(buf, sizeof buf, "%s", p > 0.f ? "<0.1%" : "0%");
    return buf;
}

}  // namespace vit::gui
