// The answer line of a lesson step (see step_answer.h).
#include "logic/lesson/step_answer.h"

#include <cstdio>

#include "base/finite.h"
#include "logic/jobs/explanation.h"

namespace vit::gui {

namespace {

// "9 (92.9%)": the top class of `trace` and its probability ("the pass produced NaN: …" when one is not finite).
std::string top_answer(const Trace& trace, const std::vector<std::string>& labels) {
    const FloatStorage& probs = trace.at(StageRef{StageKind::Probs}).data;
    const std::string problem = nonfinite_answer("class probabilities", probs.data(), probs.size());
    if (!problem.empty()) return problem;
    const int cls = top_class(trace);
    const std::string name = cls < static_cast<int>(labels.size()) ? labels[cls] : std::to_string(cls);
    char percent[32];
    std::snprintf(percent, sizeof percent, " (%.1f%%)", 100.0 * probs[cls]);
    return name + percent;
}

}  // namespace

std::string answer_line(const Trace& shown, const Trace* unmodified, const std::vector<std::string>& labels) {
    if (!shown.find(StageRef{StageKind::Probs})) return "";
    std::string line = "The model's answer: " + top_answer(shown, labels);
    if (unmodified && unmodified->find(StageRef{StageKind::Probs}))
        line += " \xC2\xB7 without the interventions: " + top_answer(*unmodified, labels);
    return line;
}

}  // namespace vit::gui
