// Lessons: a teacher's walkthrough as a small JSON file a person
// can write by hand. A lesson has a title, a default model and image, and
// steps; a step is a saved view on a model and image (logic/state/view_snapshot.h:
// stage, screen, token, layer, head, gradients, CLS-only, colours, numbers, the Ask
// panel's interventions and which pass the views show), or a Train-window run, with a title, a few sentences of
// narration, an optional question for the class (with the answer the next press reveals: predict, then see) and an
// optional highlight (a patch, a token row, or one cell of the step's scores or attention matrix, outlined there). The
// texts can quote live values of the step's pass (logic/lesson/narration.h: "It answers {answer} with {p}."). A model
// or image that is a path is relative to the lesson file's folder. A lesson on a Hub model can name another lesson
// ("otherwise") played when that model cannot be had. Example:
//   {"title": "From pixels to tokens", "model": "toy-4x4",
//    "steps": [{"title": "Cut into patches", "stage": "patches", "token": 1,
//               "narration": "The 4x4 image becomes four 2x2 patches …",
//               "question": "How many numbers does each patch hold?", "answer": "Four.",
//               "highlight": {"patch": 0}},
//              {"title": "Hide the loop", "model": "digits", "stage": "probs",
//               "interventions": {"mask_patches": "5,6", "ablate_heads": "3:0", "no_pos": true},
//               "views_show": "difference"}]}
// The interventions are spelled as vitviz-cli's flags (core/pass/intervention_flags.h).
// Parsing checks every key and type (one message naming the file, the step and
// the key); check_step() then checks a step against the model it runs on.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "logic/lesson/narration.h"
#include "logic/state/app_state.h"
#include "logic/state/view_snapshot.h"
#include "loading/builtin.h"

namespace vit::gui {

// The longest text a lesson may hold, in bytes of UTF-8: a longer one is
// refused when parsing, and the lesson editor's fields take no more.
constexpr size_t kMaxLessonTitleBytes = 300;  // the lesson's and each step's title, a step's question
constexpr size_t kMaxNarrationBytes = 4000;   // a step's narration (a caption of a few lines)
constexpr size_t kMaxLessonPathBytes = 4096;  // a model or image path (the system's longest path)

enum class HighlightKind { None, Patch, Row, Cell };

struct Highlight {
    HighlightKind kind = HighlightKind::None;
    int patch = -1;           // Patch: patch number (token patch + 1)
    int row = -1;             // Row: token row; Cell: the row i
    int head = -1, col = -1;  // Cell: head h and column j of the step's stage (a block's scores or attn)
    bool operator==(const Highlight& o) const;
};

// A step on a run of the Train window (from random weights, the window's
// settings otherwise): the main view shows the weights after `until_step`
// optimisation steps of a run of `epochs` epochs with `seed`; the run pauses
// there. Consecutive steps with the same run continue it. JSON:
//   "train": {"epochs": 1, "until_step": 250, "seed": 0, "window": true}
struct LessonTrain {
    bool on = false;
    int epochs = 1;
    int until_step = -1;  // -1: the run's end
    int seed = 0;
    bool window = false;  // the Train window (loss and accuracy curves, the probe digit) fills the view
    bool operator==(const LessonTrain& o) const;
};

struct LessonStep {
    std::string title, narration, question;
    std::string answer;        // the question's answer, shown on the press after the question
    std::string model, image;  // empty: the lesson's (a path is relative to the lesson file)
    ViewSnapshot view;         // what it shows (no interventions: playing the step clears the Ask panel)
    Highlight highlight;
    LessonTrain train;  // on: the weights of a training run (no model or image of its own)
    bool operator==(const LessonStep& o) const;
};

struct Lesson {
    std::string title;
    std::string model = kDigitsModel;  // the default of every step: a built-in name or a checkpoint path
    std::string image;                 // "": the model's built-in image
    // A lesson file (relative to this one's folder) played instead when `model`, a Hub model,
    // cannot be had: not in the cache and the Hub out of reach. "": none.
    std::string otherwise;
    std::vector<LessonStep> steps;
    bool operator==(const Lesson& o) const;
};

// Throws vit::Error "PATH: …" for JSON that does not parse, an unknown key, a
// value of the wrong type or range, text longer than its bound above, no steps,
// or an image or checkpoint that does not exist or cannot be looked at (a
// symbolic link loop; checked relative to the lesson's folder).
Lesson parse_lesson(const std::string& text, const std::string& path);
Lesson load_lesson(const std::string& path);
// The lesson as the JSON parse_lesson reads (keys at their defaults left out).
std::string lesson_json(const Lesson& lesson);
void save_lesson(const Lesson& lesson, const std::string& path);

// The lesson played instead of `lesson` (its "otherwise" resolved against its folder); "": none.
std::string otherwise_path(const Lesson& lesson, const std::string& lesson_path);

// The model and image step `index` runs on (the lesson's where the step names none;
// a checkpoint or image path resolved against the lesson's folder).
std::string step_model(const Lesson& lesson, const std::string& lesson_path, int index);
std::string step_image(const Lesson& lesson, const std::string& lesson_path, int index);

// A step's texts with their live values read from its passes.
struct LessonText {
    std::string title, narration, question, answer;
};
// Throws vit::Error "PATH: step N (title): 'narration' '{key}': …" for a value the passes do not hold.
LessonText step_text(const Lesson& lesson, int index, const NarrationPasses& passes, const std::string& lesson_path);

// Whether step `index`'s texts quote the occlusion map (narration.h's quotes_occlusion).
bool step_quotes_occlusion(const Lesson& lesson, int index);

// Checks step `index` against the loaded pipeline (stage, token, layer, head,
// highlight in range, a cell highlight on a scores or attn stage, interventions
// that fit the model); throws vit::Error
// "PATH: step N (title): 'key' …".
void check_step(const Lesson& lesson, int index, const Pipeline& p, const std::string& lesson_path);
// A train step's stop against its run (`total_steps` of `epochs`); throws like check_step.
void check_train(const Lesson& lesson, int index, int total_steps, const std::string& lesson_path);
// The view a checked step shows; the highlight becomes the selection (a patch
// or row selects its token, a cell its head and row and outlines the cell); the Ask panel asks the
// step's interventions (and nothing when it has none).
AppState step_view(const LessonStep& step, const Pipeline& p, AppState base);
// Recording: the current view as a step (title and narration left to the teacher).
LessonStep step_from_view(const AppState& s, const Pipeline& p, const std::string& model, const std::string& image);

}  // namespace vit::gui
