// The intervention flags shared by vitviz-cli and vitviz (--tour and start-up):
//   --mask-patches LIST  --drop-tokens LIST  --ablate-heads B:H,...  --no-pos
//   --permute-patches LIST  --temperature T
// LIST: comma-separated 0-based numbers and ranges (3,5,10-12). Parsing keeps
// the text; resolve() turns it into Interventions (interventions.h) once the
// model and input size are known, each error naming the flag and its value.
#pragma once
#include <string>
#include <vector>

#include "interventions.h"
#include "model.h"

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
    Interventions resolve(const ModelConfig& config, int grid) const;
};

}  // namespace vit
