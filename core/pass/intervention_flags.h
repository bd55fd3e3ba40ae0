// The intervention flags shared by vitviz-cli and vitviz (--tour and start-up):
//   --mask-patches LIST  --drop-tokens LIST  --ablate-heads B:H,...  --no-pos
//   --permute-patches LIST  --temperature T
// LIST: comma-separated 0-based numbers and ranges (3,5,10-12). Parsing keeps
// the text; resolve() turns it into Interventions (interventions.h) once the
// model and input size are known, each error naming the flag and its value.
// A lesson file (app/gui/logic/lesson/lesson.h) spells the same flags as keys:
// mask_patches, drop_tokens, ablate_heads, no_pos, permute_patches, temperature.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "pass/interventions.h"
#include "model/model.h"

namespace vit {

struct InterventionFlags {
    std::string mask, drop, ablate, permute, temperature;  // the flags' values, empty when not given
    bool no_pos = false;

    // Takes args[i] (and its value, advancing i) when it is one of these
    // flags; false for any other argument. vit::Error for a missing value.
    bool take(const std::vector<std::string>& args, size_t& i);
    bool any() const;
    // The interventions for this model at `grid` patches per side; vit::Error
    // naming the flag and its value for a list that does not parse or does not fit.
    // `as_keys`: the messages name the lesson keys (mask_patches) instead of the flags.
    Interventions resolve(const ModelConfig& config, int grid, bool as_keys = false) const;
    // The flags that ask `iv` (runs written as ranges, 10-12): resolve's inverse.
    static InterventionFlags of(const Interventions& iv);
    bool operator==(const InterventionFlags& o) const;
};

// The flags that take a value, each with the field that holds it.
struct ValueFlag {
    const char* flag;  // "--mask-patches"
    std::string InterventionFlags::*value;
};
extern const std::array<ValueFlag, 5> kValueFlags;
inline constexpr const char* kNoPosFlag = "--no-pos";
// A flag as a lesson key: "--mask-patches" → "mask_patches".
std::string flag_key(const std::string& flag);

}  // namespace vit
