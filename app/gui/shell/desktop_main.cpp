// vitviz: the desktop app. Reads the command line, opens the window
// (shell/window.h: desktop_window.cpp) and runs App one frame at a time
// until the window closes or the app is done. `--tour DIR` screenshots every
// stage and exits.
#include <cstdio>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/file_io.h"
#include "controllers/app.h"
#include "logic/lesson/handout.h"
#include "logic/state/options.h"
#include "services/files.h"
#include "shell/window.h"

// Parses the command line, checks the hand-out's path and runs the window; throws what fails.
static int run(int argc, char** argv) {
    vit::gui::Options options;
    try {
        options = vit::gui::parse_options(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const vit::Error& e) {
        std::fprintf(stderr, "vitviz: %s\n%s", e.what(), vit::gui::usage());
        return 2;
    }
    if (options.help) {
        std::fputs(vit::gui::usage(), stdout);
        return 0;
    }
    if (!options.handout.empty()) vit::gui::check_handout_path(options.handout, options.inputs());
    if (!options.tour_dir.empty()) vit::make_folder(options.tour_dir);  // a tour's pictures need it: say so before
    if (!vit::gui::open_window(options.drivers_asked() == 0))  // vsync for a person; a driver runs as fast as it can
        return 1;
    int code = 0;
    {
        vit::gui::App app(options, vit::gui::asset_folder(), vit::gui::platform_worker());
        vit::gui::attach_app(&app);
        while (!vit::gui::window_closed() && !app.should_close()) vit::gui::frame(app);
        code = app.exit_code();
        vit::gui::attach_app(nullptr);
    }
    vit::gui::close_window();
    return code;
}

// Anything that escapes the app (its frames report their own failures: shell/window.h) is one line and exit 1.
int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (...) {
        std::fprintf(stderr, "vitviz: %s\n", vit::failure_message().c_str());
        return 1;
    }
}
