// vitviz as a web page: reads its start from the page's link (?model=digits&
// stage=block0.attn, logic/state/view_link.h), opens the canvas
// (shell/window.h: web_window.cpp) and lets the browser call one frame per
// animation frame. A link that cannot be read is one message on screen; the
// app opens on its defaults beside it. The page's scripts reach the app through
// vitviz_open_path (a chosen file), vitviz_open_pixels (a picture the browser
// decoded) and vitviz_view (what the screen shows).
// The JavaScript inside EM_ASM is not C++: clang-format would break it (its arrows).
// clang-format off
#include <emscripten.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "base/error.h"
#include "controllers/app.h"
#include "formats/image.h"
#include "logic/link/view_link.h"
#include "services/files.h"
#include "shell/window.h"

namespace {

std::unique_ptr<vit::gui::App> g_app;  // lives as long as the page

void run_frame() {
    static bool pictured = false;
    try {
        vit::gui::frame(*g_app);
    } catch (...) {
        std::fprintf(stderr, "vitviz: %s\n", vit::failure_message().c_str());
    }
    if (!pictured && g_app->pictured()) {  // this frame drew the first pass: the page's load time ends
        pictured = true;
        EM_ASM({ window.vitvizFirstPicture = performance.now(); });
    }
}

// The page's query string, "?a=b&c=d" ("" without one). Copied into the heap with the
// functions both Emscripten 3.1.6 and 3.1.69 have (3.1.69 has no allocateUTF8).
std::string page_query() {
    char* text = reinterpret_cast<char*>(EM_ASM_INT({
        const search = window.location.search;
        const size = lengthBytesUTF8(search) + 1;
        const at = _malloc(size);
        if (at) stringToUTF8(search, at, size);
        return at;
    }));
    std::string query = text ? text : "";
    std::free(text);
    return query;
}

}  // namespace

// The page's file choosers (app/web/shell.html) hand over what the user chose, as a drop would.
extern "C" EMSCRIPTEN_KEEPALIVE void vitviz_open_path(const char* path) {
    if (g_app) g_app->on_drop(1, &path);
}

// A sideways swipe on a touch screen (shell/web_window.cpp): 1 forward, -1 back.
extern "C" EMSCRIPTEN_KEEPALIVE void vitviz_swipe(int direction) {
    if (g_app) g_app->on_swipe(direction);
}

// Two fingers spreading (grow 1) or closing (0) at (x, y), in the page's CSS pixels.
extern "C" EMSCRIPTEN_KEEPALIVE void vitviz_pinch(double x, double y, int grow) {
    if (g_app) g_app->on_pinch({static_cast<float>(x), static_cast<float>(y), grow != 0});
}

// What the screen shows, as JSON (App::view_summary): the page's tests read it.
extern "C" EMSCRIPTEN_KEEPALIVE const char* vitviz_view() {
    static std::string json;
    const vit::gui::App::ViewSummary v = g_app ? g_app->view_summary() : vit::gui::App::ViewSummary{};
    json = nlohmann::json{{"ready", v.ready}, {"model", v.model}, {"image", v.image}, {"stage", v.stage},
                          {"link", v.link}, {"modified", v.modified}, {"token", v.token}, {"token_count", v.tokens},
                          {"top_class", v.top_class}, {"top_probability", v.top_probability},
                          {"train_step", v.train_step}, {"drawing", v.drawing}, {"editor", v.editor},
                          {"picture_share", v.picture_share}, {"clipped", v.clipped},
                          {"cell", v.cell_row < 0 ? nlohmann::json() : nlohmann::json{v.cell_row, v.cell_col}}}.dump();
    return json.c_str();
}

// A picture the page decoded with the browser's own decoders, as 8-bit RGBA rows.
extern "C" EMSCRIPTEN_KEEPALIVE void vitviz_open_pixels(const char* name, int width, int height, const uint8_t* rgba) {
    if (!g_app) return;
    try {
        g_app->open_decoded_image(name,
                                  std::make_shared<const vit::Image>(vit::image_from_rgba(rgba, width, height, name)));
    } catch (const vit::Error& e) {
        g_app->frame_failed(e.what());
    }
}

int main() {
    vit::gui::Options options;
    std::string link_error;
    try {
        options = vit::gui::options_from_link(vit::gui::parse_view_link(page_query()), vit::gui::asset_folder());
    } catch (const vit::Error& e) {
        link_error = e.what();
    }
    if (!vit::gui::open_window(true)) return 1;
    g_app = std::make_unique<vit::gui::App>(options, vit::gui::asset_folder(), vit::gui::platform_worker());
    if (!link_error.empty()) g_app->frame_failed(link_error);
    vit::gui::attach_app(g_app.get());
    emscripten_set_main_loop(run_frame, 0, false);
    return 0;
}
