// The monkey's events, drawn from the PRNG (see monkey.h).
#include "logic/monkey/monkey.h"

#include <cmath>
#include <cstdio>

#include "logic/ask/ask_state.h"
#include "loading/builtin.h"

namespace vit::gui {

namespace {

uint32_t below(std::mt19937& rng, uint32_t n) { return static_cast<uint32_t>(rng()) % n; }
float unit(std::mt19937& rng) { return static_cast<float>(static_cast<uint32_t>(rng()) >> 8) / 16777216.0f; }  // [0, 1)
bool one_in(std::mt19937& rng, uint32_t n) { return below(rng, n) == 0; }

// The share of each kind, in MonkeyKind's order (out of 100): mostly keys and the mouse.
constexpr int kShares[] = {40, 20, 10, 10, 3, 4, 8, 3, 2};

MonkeyKind draw_kind(std::mt19937& rng) {
    int roll = static_cast<int>(below(rng, 100));
    int kind = 0;
    while (roll >= kShares[kind]) roll -= kShares[kind++];
    return static_cast<MonkeyKind>(kind);
}

ModelTarget draw_target(std::mt19937& rng) {
    const uint32_t roll = below(rng, 4);
    return roll < 2 ? ModelTarget::Loaded : roll == 2 ? ModelTarget::Comparison : ModelTarget::ClearComparison;
}

void draw_ask(std::mt19937& rng, MonkeyEvent& e) {
    e.ask = static_cast<AskChange>(below(rng, static_cast<uint32_t>(AskChange::Reset) + 1));
    e.pick = static_cast<uint32_t>(rng());
    e.on = !one_in(rng, 3);
    const float lo = std::log(kMinTemperature), hi = std::log(kMaxTemperature);  // the slider is logarithmic
    e.temperature = std::exp(lo + unit(rng) * (hi - lo));
}

}  // namespace

MonkeyEvent next_monkey_event(std::mt19937& rng) {
    MonkeyEvent e;
    e.kind = draw_kind(rng);
    switch (e.kind) {
        case MonkeyKind::Key:
            e.key.key = static_cast<Key>(below(rng, static_cast<uint32_t>(Key::Digit9) + 1));
            e.key.ctrl = one_in(rng, 4);
            break;
        case MonkeyKind::Click:
        case MonkeyKind::Drag:
            e.button = one_in(rng, 5) ? 1 + static_cast<int>(below(rng, 2)) : 0;
            e.x = unit(rng), e.y = unit(rng), e.to_x = unit(rng), e.to_y = unit(rng);
            e.drag_frames = 2 + static_cast<int>(below(rng, 10));
            break;
        case MonkeyKind::Wheel:
            e.x = unit(rng), e.y = unit(rng);
            e.wheel = static_cast<float>(static_cast<int>(below(rng, 7)) - 3);
            break;
        case MonkeyKind::Model:
            e.model =
                one_in(rng, kMonkeyLargeOdds) ? kMonkeyLargeModel : static_cast<int>(below(rng, kMonkeyLargeModel));
            e.target = draw_target(rng);
            break;
        case MonkeyKind::Ask: draw_ask(rng, e); break;
        case MonkeyKind::Image:
        case MonkeyKind::LessonStep: e.pick = static_cast<uint32_t>(rng()); break;
        case MonkeyKind::Train:
            e.pick = static_cast<uint32_t>(rng());  // the run's learning rate, batch and epochs
            e.on = one_in(rng, 8);
            e.train_steps = 1 + static_cast<int>(below(rng, 4));
            break;
    }
    return e;
}

std::vector<std::string> monkey_models(const std::string& start, bool large) {
    const bool small_builtin = start == kToyModel || start == kDigitsModel;
    const std::string other = start == kToyModel ? kDigitsModel : kToyModel;
    return {start, other, small_builtin && large ? std::string(kRandomVitB) : start};
}

std::string monkey_summary(const MonkeyCounts& c) {
    char line[480];
    std::snprintf(line, sizeof line,
                  "monkey: %ld frames, %ld keys, %ld clicks, %ld drags, %ld wheel events, %ld model switches, "
                  "%ld comparison model switches, %ld image switches, %ld interventions, %ld lesson steps, "
                  "%ld training steps",
                  c.frames, c.keys, c.clicks, c.drags, c.wheels, c.models, c.comparisons, c.images, c.interventions,
                  c.lesson_steps, c.training_steps);
    return line;
}

}  // namespace vit::gui
