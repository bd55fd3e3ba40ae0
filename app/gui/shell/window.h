// The window the app draws in, whichever platform gives it: desktop_window.cpp
// opens one with GLFW and runs `while (!window_closed()) frame(app);`;
// web_window.cpp supplies the same functions over the page's canvas, and
// web_main.cpp calls frame() from the browser's animation-frame loop.
#pragma once
#include <memory>
#include <string>

#include "logic/jobs/worker.h"
#include "services/host_window.h"  // what the app asks of the window, which the shell implements

namespace vit::gui {

class App;

// Opens the window with its GL context (OpenGL 4.3 core, else 3.3: everything but
// the GPU backend works), Dear ImGui and its backends. False, said on stderr, when
// there is none. `vsync` off: tours and FPS measurements run as fast as they can.
bool open_window(bool vsync);
void attach_app(App* app);  // the window's keys, mouse buttons and drops go to `app` (nullptr: nowhere)
bool window_closed();       // the user closed it
// One frame: input, the app's frame, render, after_render, present, App::presented (while App::waiting_on_work,
// one frame is presented a quarter second at most, or at once on input or when the work ends). What the app's frame
// throws ends that frame's windows and goes to App::frame_failed (the message bar).
void frame(App& app);
void close_window();  // after attach_app(nullptr)

// The worker the app's long work runs on: threads on the desktop; a single-threaded
// platform gives a SlicedWorker, which App advances by a bounded slice each frame.
std::shared_ptr<Worker> platform_worker();

}  // namespace vit::gui
