// The monkey: random input for `vitviz --monkey SECONDS --seed S`
// (controllers/drivers/monkey_driver.h feeds it to the app). next_monkey_event()
// is a pure function of the PRNG, drawn with plain arithmetic on its outputs
// (no standard distributions, whose results differ between standard
// libraries): the same seed gives the same events whatever the app does with
// them, so a finding replays with its seed (tests/app/logic/state/test_input_queue.cpp).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "logic/state/input_queue.h"

namespace vit::gui {

enum class MonkeyKind { Key, Click, Drag, Wheel, Model, Image, Ask, LessonStep, Train };

// What an Ask event changes in the Ask panel's question (logic/ask/ask_state.h).
enum class AskChange { Paint, PaintDrops, SilenceHead, NoPositions, Shuffle, Temperature, Show, Reset };

// What a Model event switches: the loaded model, the comparison model beside it
// (logic/jobs/compare_pass.h), or none beside it any more.
enum class ModelTarget { Loaded, Comparison, ClearComparison };

// The monkey switches among kMonkeyModels models (monkey_models); the last one only rarely.
inline constexpr int kMonkeyModels = 3;
inline constexpr int kMonkeyLargeModel = 2;
inline constexpr int kMonkeyLargeOdds = 40;  // one model switch in this many opens the last one

struct MonkeyEvent {
    MonkeyKind kind = MonkeyKind::Key;
    KeyEvent key;                              // Key: pressed, then released
    int button = 0;                            // Click, Drag: 0 left, 1 right, 2 middle
    float x = 0, y = 0;                        // Click, Drag's start, Wheel: where, as fractions of the window (0 to 1)
    float to_x = 0, to_y = 0;                  // Drag's end
    int drag_frames = 0;                       // Drag: frames from start to end
    float wheel = 0;                           // Wheel: notches, positive away from the user
    int model = 0;                             // Model: 0 to kMonkeyModels - 1
    ModelTarget target = ModelTarget::Loaded;  // Model: which one it switches (half the time the loaded one)
    uint32_t pick = 0;  // Image, LessonStep, Train's options, Ask's patch or head: taken modulo the choices there are
    AskChange ask = AskChange::Paint;
    bool on = false;           // Ask: paint or clear, silence or not, the toggles; Train: restart the run
    float temperature = 1.0f;  // Ask Temperature: within the panel's range
    int train_steps = 0;       // Train: batches to take (1 to 4)
};

MonkeyEvent next_monkey_event(std::mt19937& rng);

// The models of MonkeyEvent::model, in its order, for a run that starts on `start`:
// the start model, the other of toy and digits, then ViT-B when `large` allows it
// (it is slow in a sanitizer build). A run started on any other model (a built-in
// family sibling, a checkpoint folder) comes back to it instead of ViT-B, so it
// takes about half the switches.
std::vector<std::string> monkey_models(const std::string& start, bool large);

// What the monkey did, printed as one line at the end.
struct MonkeyCounts {
    long frames = 0, keys = 0, clicks = 0, drags = 0, wheels = 0, models = 0, comparisons = 0, images = 0,
         interventions = 0, lesson_steps = 0, training_steps = 0;
};
std::string monkey_summary(const MonkeyCounts& c);

}  // namespace vit::gui
