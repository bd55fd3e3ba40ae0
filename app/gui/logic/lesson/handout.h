// The hand-out of a lesson: one self-contained HTML page a teacher
// gives the class, that opens offline in any browser. For each step its
// number, title, picture (the step's screenshot as a base64 PNG data URI),
// narration, the model's answer, the question, and the formula and PyTorch
// line of the stage it shows. No external links, scripts or fonts; one tiny
// inline script marks every picture with its decoded width (data-natural-width)
// so a headless browser can check that each one rendered.
// `vitviz --lesson FILE --handout OUT.html` plays the lesson like --tour (the
// pictures land in OUT's folder as OUT-steps/NN-step.png) and writes the page.
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
    std::vector<uint8_t> png;                   // the step's picture
};

// The stage whose formula and PyTorch line go beside a step's picture: the
// stage on a stage screen, block `layer`'s attention on the attention screen
// and the model view; none on the overview and the Why screen.
std::optional<StageRef> handout_stage(const AppState& s, const Pipeline& p);

std::string base64(const std::vector<uint8_t>& bytes);
// & < > " ' as entities.
std::string html_escape(const std::string& text);
std::string handout_html(const std::string& lesson_title, const std::vector<HandoutStep>& steps);

// The folder of the pictures beside OUT.html: OUT-steps.
std::string handout_picture_dir(const std::string& html_path);
// vit::Error "PATH: cannot write the hand-out (why)" unless a file can be written
// at `path` (checked before the lesson plays; leaves no file behind; a folder,
// FIFO or device is refused without opening it).
void check_handout_path(const std::string& path);
// Throws vit::Error "cannot write the hand-out 'PATH': why" (core/base/file_io.h).
void write_handout(const std::string& path, const std::string& html);

}  // namespace vit::gui
