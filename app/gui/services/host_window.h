// What the app asks of the window it runs in, whichever shell opened it: the
// desktop's GLFW window (shell/desktop_window.cpp) or the page's canvas
// (shell/web_window.cpp) implements these.
#pragma once
#include <string>

namespace vit::gui {

// Framebuffer pixels per layout pixel (a HiDPI page: the device's pixel ratio; the desktop: 1).
float pixel_ratio();

void set_window_title(const std::string& title);
void set_fullscreen(bool on);  // presenter mode: the primary monitor; off: back where it was
// The view's link (logic/link/view_link.h, "?model=digits&stage=..."): a page's address
// follows it; nothing on the desktop.
void show_view_link(const std::string& query);

}  // namespace vit::gui
