// What the desktop and the browser windows share: both are GLFW windows (the
// browser's is Emscripten's GLFW over a canvas) running Dear ImGui's GLFW and
// OpenGL3 backends; the keys the app acts on, the callbacks that queue input
// for it, and the drawing of one frame are the same. desktop_window.cpp and
// web_window.cpp add the context, the loop and what the platform owns.
#pragma once
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace vit::gui {

class App;

namespace glfw {

// Dear ImGui on `window`'s current GL context; `glsl_version` is the backend's shader header.
void start_imgui(GLFWwindow* window, const char* glsl_version);
void stop_imgui();
// Sends `window`'s keys, mouse buttons and drops to `app` (nullptr: back to Dear ImGui alone).
void attach(GLFWwindow* window, App* app);
// A key, mouse button or drop arrived since the last take_input() (which clears it).
bool input_arrived();
void take_input();
// The app's frame between ImGui's NewFrame and Render; what it throws ends that
// frame's windows and goes to App::frame_failed (the message bar). `pixel_ratio`:
// framebuffer pixels per layout pixel where the window does not say it itself (a
// HiDPI canvas: the app lays out in CSS pixels, the framebuffer holds ratio × as many).
void build_frame(App& app, float pixel_ratio = 1.f);
// Draws the rendered frame into `window`'s framebuffer, then App::after_render.
void render_frame(GLFWwindow* window, App& app);

}  // namespace glfw
}  // namespace vit::gui
