// vitviz-cli's interventions and analyses (core/interventions.h):
//   --mask-patches LIST  --drop-tokens LIST  --ablate-heads B:H,...  --no-pos
//   --permute-patches LIST  --temperature T  --occlusion-map  --logit-lens
// LIST: comma-separated 0-based numbers and ranges (3,5,10-12).
// --occlusion-map and --logit-lens print their table and, with --dump, write
// occlusion.npy (N) and lens.npy (depth × classes) there.
#pragma once
#include <string>

#include "interventions.h"
#include "model.h"
#include "trace.h"

namespace vit::cli {

struct InterventionArgs {
    std::string mask, drop, ablate, permute, temperature;  // the flags' values, empty when not given
    bool no_pos = false;
    bool occlusion = false;
    bool lens = false;

    // Takes argv[i] (and its value, advancing i) when it is one of these
    // flags; false for any other flag. vit::Error for a missing value.
    bool take(int argc, char** argv, int& i);
    bool any() const;
    // The interventions for this model and input; vit::Error naming the flag
    // and its value for a list that does not parse or does not fit the model.
    Interventions resolve(const ModelConfig& config, const Tensor& input) const;
};

// Prints and (with `dump_dir`) writes the occlusion map and the logit lens
// asked for. vit::Error for a model without a classifier head.
void run_analyses(const InterventionArgs& args, const Model& model, const Tensor& input, const Interventions& iv,
                  const Trace& trace, const std::string& dump_dir);

}  // namespace vit::cli
