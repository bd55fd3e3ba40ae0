// The hand-out of a lesson: one self-contained HTML page a teacher
// prints for the class, that opens offline in any browser. Light pages (white
// background, dark text, print rules that keep a step on one page). For each
// step its number, title, figure (the step's pictures cut out of the view,
// logic/lesson/handout_figure.h, as a base64 PNG data URI), narration, the
// model's answer, the question, and the formula and PyTorch line of the stage
// it shows; after the last step an answer key with each question's answer.
// No external links, scripts or fonts; one tiny inline script marks every
// picture with its decoded width (data-natural-width) and the body with its
// rendered background (data-background), so a headless browser can check that
// each one rendered, on a light page.
// `vitviz --lesson FILE --handout OUT.html` plays the lesson like --tour (the
// figures land in OUT's folder as OUT-steps/NN-step.png) and writes the page.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "logic/state/app_state.h"

namespace vit::gui {

struct HandoutStep {
    std::string title, narration, question, answer;
    std::string stage_title, formula, pytorch;  // empty when the screen shows no one stage
    std::vector<uint8_t> png;                   // the step's figure
    std::string key;                            // the question's written answer, for the answer key
};

// A built-in lesson's page stays under this many bytes (tests/app/logic/lesson/test_handout.cpp checks it).
constexpr size_t kHandoutMaxBytes = 2'000'000;
// The bytes one of `steps` figures may take as PNG so the page, its text and base64's
// 4/3 included, stays under kHandoutMaxBytes.
size_t handout_figure_budget(size_t steps);
// What the answer key says for a question whose lesson writes no answer.
extern const char* const kUnwrittenAnswer;

// The stage whose formula and PyTorch line go beside a step's picture: the
// stage on a stage screen, block `layer`'s attention on the attention screen
// and the model view; none on the overview and the Why screen.
std::optional<StageRef> handout_stage(const AppState& s, const Pipeline& p);

std::string base64(const std::vector<uint8_t>& bytes);
// & < > " ' as entities.
std::string html_escape(const std::string& text);
std::string handout_html(const std::string& lesson_title, const std::vector<HandoutStep>& steps);

// vit::Error "PATH: cannot write the hand-out (why)" unless a file can be written
// at `path` (checked before the lesson plays; leaves no file behind; a folder,
// FIFO or device is refused without opening it), and that file is none of
// `inputs`, the files the same run reads (the lesson, its images).
void check_handout_path(const std::string& path, const std::vector<std::string>& inputs = {});
// Throws vit::Error "cannot write the hand-out 'PATH': why" (core/base/file_io.h).
void write_handout(const std::string& path, const std::string& html);

}  // namespace vit::gui
