// The answer line of a lesson step (app/gui/logic/lesson/step_answer.h): the digits
// model's answer on its 9, and under a question the unmodified answer beside it,
// matching what the CLI prints for the same flags.
#include <catch2/catch.hpp>
#include <cmath>

#include "base/assets.h"
#include "model/builtin.h"
#include "formats/checkpoint.h"
#include "pass/forward.h"
#include "formats/image.h"
#include "logic/lesson/step_answer.h"
#include "model/toy_model.h"

using namespace vit::gui;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

TEST_CASE("a step's answer line names the top class and, under interventions, the unmodified one") {
    const vit::Model model = vit::load_model("digits");
    const std::string nine = vit::asset_path("digits/samples/977-9.png");
    const vit::Tensor input = vit::preprocess(vit::model_image("digits", nine, 1), model.config.preprocess);
    const vit::Trace plain = vit::forward(model, input);
    CHECK_THAT(answer_line(plain, nullptr, model.config.labels), Equals("The model's answer: 9 (92.9%)"));
    vit::Interventions no_positions;
    no_positions.no_positions = true;  // vitviz-cli --no-pos says 1 at 63.3%
    CHECK_THAT(answer_line(vit::forward(model, input, no_positions), &plain, model.config.labels),
               Equals("The model's answer: 1 (63.3%) \xC2\xB7 without the interventions: 9 (92.9%)"));
    vit::Model headless = vit::make_toy_model();  // the toy without its classifier head
    headless.config.num_classes = 0;
    const vit::Tensor toy = vit::preprocess(vit::toy_image(), headless.config.preprocess);
    CHECK(answer_line(vit::forward(headless, toy), nullptr, {}).empty());
}

TEST_CASE("a step's answer line names a pass that produced NaN instead of printing it as a class") {
    vit::Trace nan_pass, plain;
    nan_pass.add(vit::StageRef{vit::StageKind::Probs}, {2}).data = {std::nanf(""), std::nanf("")};
    plain.add(vit::StageRef{vit::StageKind::Probs}, {2}).data = {0.25f, 0.75f};
    const std::vector<std::string> labels = {"0", "1"};
    CHECK_THAT(answer_line(nan_pass, &plain, labels),
               Equals("The model's answer: the pass produced NaN: 2 of the 2 class probabilities are NaN or infinite"
                      " \xC2\xB7 without the interventions: 1 (75.0%)"));
    CHECK_THAT(answer_line(plain, &nan_pass, labels), Contains("without the interventions: the pass produced NaN: "));
}
