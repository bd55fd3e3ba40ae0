// vitviz-cli's interventions and analyses: the intervention flags of
// core/pass/intervention_flags.h (shared with vitviz) and --occlusion-map, --logit-lens.
// --occlusion-map and --logit-lens print their table and, with --dump, write
// occlusion.npy (N) and lens.npy (depth × classes) there. No printed answer
// holds NaN or Inf unnamed: check_answer() refuses it (core/base/finite.h).
#pragma once
#include <string>

#include "pass/intervention_flags.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit::cli {

struct InterventionArgs {
    InterventionFlags flags;
    bool occlusion = false;
    bool lens = false;

    // Takes argv[i] (and its value, advancing i) when it is one of these
    // flags or an intervention flag; false for any other. vit::Error for a missing value.
    bool take(int argc, char** argv, int& i);
    // The interventions for this model and input (InterventionFlags::resolve).
    Interventions resolve(const ModelConfig& config, const Tensor& input) const;
};

// Prints and (with `dump_dir`) writes the occlusion map and the logit lens
// asked for. vit::Error for a model without a classifier head, and as check_answer.
void run_analyses(const InterventionArgs& args, const Model& model, const Tensor& input, const Interventions& iv,
                  const Trace& trace, const std::string& dump_dir, bool allow_nonfinite);

// Before `count` values are printed as an answer: vit::Error "the pass produced
// NaN: …" when one is NaN or infinite, unless `allow_nonfinite` (--allow-nonfinite),
// which prints that message as a warning on stderr and lets them print.
void check_answer(const std::string& what, const float* values, size_t count, bool allow_nonfinite);

}  // namespace vit::cli
