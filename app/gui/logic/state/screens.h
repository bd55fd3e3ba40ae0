// The app's screens, one table: each screen's enum value, its name (vitviz --screen,
// a lesson file's "screen", the tour's and Ctrl+S's file names) and its title in
// the navigator. Every place that names a screen reads it from here.
#pragma once
#include <string>
#include <vector>

namespace vit::gui {

// One stage fills the view / attention over the image / why this class / every stage as a
// thumbnail / layers × heads over the image / the findings (views/screens/findings_*.cpp):
// attention distance by depth, patch features as colours, token norms and sinks, DINO's masks.
enum class Screen {
    Stage,
    Attention,
    Why,
    Overview,
    ModelView,
    AttentionDistance,
    PatchFeatures,
    TokenNorms,
    ClsMasks
};

// The findings screens in the order key F steps through them.
const std::vector<Screen>& findings_screens();

struct ScreenInfo {
    const char* name;  // "model-view": the command line, lesson files and file names
    Screen value;
    const char* title;  // "Model view: blocks × heads": the navigator's entry
};

// Every screen, in the enum's order.
const std::vector<ScreenInfo>& screen_table();
const char* screen_name(Screen screen);
const char* screen_title(Screen screen);
// False for a name that is no screen's.
bool parse_screen(const std::string& name, Screen& screen);
// "stage, attention, why, overview or model-view", for messages.
std::string screen_names();

}  // namespace vit::gui
