// The answer line under a lesson step's narration (the caption and the
// hand-out): the class the model on screen gives its image, and, when the Ask
// panel asks something, the unmodified pass's answer beside it, so a student
// sees the prediction move (or not) as the narration says.
#pragma once
#include <string>
#include <vector>

#include "pass/trace.h"

namespace vit::gui {

// "The model's answer: 9 (92.9%)", or with `unmodified`
// "The model's answer: 7 (24.0%) · without the interventions: 9 (92.9%)";
// "" for a model without a classifier head. A pass whose probabilities hold
// NaN or Inf answers with the message of core/base/finite.h instead of a class.
std::string answer_line(const Trace& shown, const Trace* unmodified, const std::vector<std::string>& labels);

}  // namespace vit::gui
