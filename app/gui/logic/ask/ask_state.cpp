// The Ask panel's state and its translation into core Interventions.
#include "logic/ask/ask_state.h"

#include <algorithm>
#include <random>

namespace vit::gui {

void fit_ask(AskState& a, int patches, int depth, int heads) {
    if (a.patches == patches && a.depth == depth && a.heads == heads) return;
    a.patches = patches, a.depth = depth, a.heads = heads;
    reset_ask(a);
}

void reset_ask(AskState& a) {
    a.marks.assign(static_cast<size_t>(std::max(0, a.patches)), PatchMark::None);
    a.silenced.assign(static_cast<size_t>(std::max(0, a.depth * a.heads)), 0);
    a.no_positions = false;
    a.permutation.clear();
    a.temperature = 1.0f;
}

// Dropping counts patch tokens after the shuffle (patch token n, after the CLS, DIST and register
// tokens, holds patch permutation[n]); the panel
// paints patches. The patch token n holds:
static int patch_of_token(const AskState& a, int n) {
    return a.permutation.empty() ? n : a.permutation[static_cast<size_t>(n)];
}

Interventions to_interventions(const AskState& a) {
    Interventions iv;
    for (int n = 0; n < static_cast<int>(a.marks.size()); ++n) {
        if (a.marks[n] == PatchMark::Masked) iv.mask_patches.push_back(n);
        if (a.marks[patch_of_token(a, n)] == PatchMark::Dropped) iv.drop_tokens.push_back(n);
    }
    for (int b = 0; b < a.depth; ++b)
        for (int h = 0; h < a.heads; ++h)
            if (head_silenced(a, b, h)) iv.ablate_heads.push_back({b, h});
    iv.no_positions = a.no_positions;
    iv.permute_patches = a.permutation;
    iv.temperature = a.temperature;
    return iv;
}

void set_interventions(AskState& a, const Interventions& iv) {
    reset_ask(a);
    if (static_cast<int>(iv.permute_patches.size()) == a.patches) a.permutation = iv.permute_patches;
    for (int p : iv.mask_patches)
        if (p >= 0 && p < a.patches) a.marks[p] = PatchMark::Masked;
    for (int n : iv.drop_tokens)
        if (n >= 0 && n < a.patches) a.marks[patch_of_token(a, n)] = PatchMark::Dropped;
    a.paint_drops = !iv.drop_tokens.empty() && iv.mask_patches.empty();
    for (const HeadRef& h : iv.ablate_heads) set_head_silenced(a, h.block, h.head, true);
    a.no_positions = iv.no_positions;
    a.temperature = iv.temperature;
}

void paint_patch(AskState& a, int patch, bool on) {
    if (patch < 0 || patch >= static_cast<int>(a.marks.size())) return;
    a.marks[patch] = !on ? PatchMark::None : a.paint_drops ? PatchMark::Dropped : PatchMark::Masked;
}

void set_paint_drops(AskState& a, bool drops) {
    a.paint_drops = drops;
    for (PatchMark& m : a.marks)
        if (m != PatchMark::None) m = drops ? PatchMark::Dropped : PatchMark::Masked;
}

int painted_count(const AskState& a, PatchMark mark) {
    return static_cast<int>(std::count(a.marks.begin(), a.marks.end(), mark));
}

bool head_silenced(const AskState& a, int block, int head) {
    if (block < 0 || block >= a.depth || head < 0 || head >= a.heads) return false;
    return a.silenced[static_cast<size_t>(block) * a.heads + head] != 0;
}

void set_head_silenced(AskState& a, int block, int head, bool silenced) {
    if (block < 0 || block >= a.depth || head < 0 || head >= a.heads) return;
    a.silenced[static_cast<size_t>(block) * a.heads + head] = silenced ? 1 : 0;
}

void set_shuffle(AskState& a, bool on) {
    a.permutation = on ? seeded_permutation(a.patches, a.shuffle_seed) : std::vector<int>{};
}

std::vector<int> seeded_permutation(int n, uint32_t seed) {
    std::vector<int> p(static_cast<size_t>(std::max(0, n)));
    for (int i = 0; i < n; ++i) p[i] = i;
    std::mt19937 rng(seed);  // its output is fixed by the standard; the draw below is ours (Fisher–Yates)
    for (int i = n - 1; i > 0; --i) std::swap(p[i], p[rng() % static_cast<uint32_t>(i + 1)]);
    return p;
}

}  // namespace vit::gui
