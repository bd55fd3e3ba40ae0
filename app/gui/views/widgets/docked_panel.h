// A docked panel: an opaque, scrollable region of the main window with a title
// row and a close button. The windows that explain a picture (Train, Ask the
// model, the lesson editor) are laid out beside the pictures in such a region,
// never over them (app.cpp places them: a strip under the columns, or the side column).
#pragma once
#include <imgui.h>

namespace vit::gui {

// Begins the panel `id` of `size`, titled `title`, whose × clears *open. Pair with EndDockedPanel.
void BeginDockedPanel(const char* id, const char* title, bool* open, ImVec2 size);
// Ends it; returns the height its content asked for (title row and padding included), so the
// next frame can give it no more room than it uses.
float EndDockedPanel();

// The height a region holding panels that last asked for `wanted` (0: not measured yet) is given, at most `cap`.
float DockedHeight(float wanted, float cap);

}  // namespace vit::gui
