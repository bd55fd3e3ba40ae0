// Live values in a lesson's text: a step's title, narration, question and
// answer can quote numbers of the pass the step shows, computed when the step
// plays, so a number in a sentence is the number on screen. A placeholder is
// a key in braces, with arguments after a colon:
//   {answer}              the top class ("9")
//   {p} {p:7}             the top class's probability, or class 7's ("92.9%")
//   {attn:B,H,T,P}        the share token T gives patch P in block B's head H ("24.0%")
//   {rollout:P}           CLS's share of patch P in the attention rollout (a model with a CLS token)
//   {occ:P}               how much p(answer) falls with patch P masked alone (the occlusion map)
//   {patch:attn,B,H,T}    the patch token T gives most (likewise {patch:rollout}, and
//   {patch:occ}           the patch whose masking lowers p(answer) most)
// P is a patch number, `top` (the largest share; for occ: the patch that costs
// most), `least` (the smallest), or `cls` (the CLS token's column; attn and
// rollout). `plain.` before a key reads the unmodified pass when the step asks
// something of the model ({plain.p:9}). Every `{` starts a placeholder.
#pragma once
#include <string>
#include <vector>

#include "explain/occlusion.h"
#include "pass/trace.h"

namespace vit::gui {

// The passes a step's text is read from.
struct NarrationPasses {
    const Trace* shown =
        nullptr;  // the pass the step shows (under its interventions); nullptr: on its way, every value "…"
    const Trace* plain = nullptr;             // the unmodified pass; nullptr: `plain.` reads `shown`
    const OcclusionMap* occlusion = nullptr;  // nullptr or partial: {occ…} reads "…" until it is complete
    std::vector<std::string> labels;          // the model's class names
    bool class_token = true;                  // the model's first token is CLS (else no CLS row or column to quote)
};

// Throws vit::Error "'{key}': why" for the first placeholder that does not parse
// (an unknown key, arguments of the wrong number or kind, a missing `}`).
void check_placeholders(const std::string& text);

// Whether `text` quotes the occlusion map ({occ:P}, {patch:occ}): its step computes the map on
// any screen, and a hand-out waits for it. Throws as check_placeholders().
bool quotes_occlusion(const std::string& text);

// The text with every placeholder replaced by its value on `passes`; throws
// vit::Error "'{key}': why" for one that asks what the pass does not hold (a
// block, head, token or class it does not have, a dropped patch).
std::string narrate(const std::string& text, const NarrationPasses& passes);

}  // namespace vit::gui
