// "Ask the model" as plain data: the patches painted on the image
// (masked or dropped), the silenced heads, the no-positions and shuffle
// toggles, the temperature, and which pass the views show. to_interventions()
// turns it into the one value the forward pass takes (core/pass/interventions.h);
// tests drive it without a window (tests/app/logic/ask/test_ask.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "pass/interventions.h"

namespace vit::gui {

enum class PatchMark : uint8_t { None, Masked, Dropped };
enum class AskShow { Modified, Original, Difference };  // which pass the stage views show

// The temperature slider's range (panels/ask_panel.cpp).
inline constexpr float kMinTemperature = 0.05f;
inline constexpr float kMaxTemperature = 20.f;

struct AskState {
    int patches = 0, depth = 0, heads = 0;  // the model's N, blocks and heads (fit_ask)
    std::vector<PatchMark> marks;           // one per patch
    bool paint_drops = false;               // painting drops tokens instead of masking patches
    std::vector<uint8_t> silenced;          // depth × heads, 1 = silenced
    bool no_positions = false;
    std::vector<int> permutation;  // empty: patches in place; else a permutation of 0..N−1
    uint32_t shuffle_seed = 1;     // the seed of the shuffle toggle's permutation
    float temperature = 1.0f;
    AskShow show = AskShow::Modified;
};

// Sizes the state for a model; a model of other sizes starts with no question.
void fit_ask(AskState& a, int patches, int depth, int heads);
// Everything back to the plain pass (the sizes and the view choice stay).
void reset_ask(AskState& a);

Interventions to_interventions(const AskState& a);
// The state asking `iv` (already valid for the fitted sizes).
void set_interventions(AskState& a, const Interventions& iv);

// Painting: `on` marks the patch with the brush (masked, or dropped when
// paint_drops), off clears it. Out-of-range patches are ignored.
void paint_patch(AskState& a, int patch, bool on);
// The toggle: switching the brush turns every painted patch into its kind.
void set_paint_drops(AskState& a, bool drops);
int painted_count(const AskState& a, PatchMark mark);

bool head_silenced(const AskState& a, int block, int head);
void set_head_silenced(AskState& a, int block, int head, bool silenced);

// The shuffle toggle: on = seeded_permutation(patches, shuffle_seed), off = none.
void set_shuffle(AskState& a, bool on);
// A random permutation of 0..n−1 from `seed`, the same on every platform.
std::vector<int> seeded_permutation(int n, uint32_t seed);

}  // namespace vit::gui
