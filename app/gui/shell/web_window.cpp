// The browser's window (shell/window.h): Emscripten's GLFW over the page's
// canvas with a WebGL 2 (OpenGL ES 3.0) context, with what every GLFW window
// shares (shell/glfw_frame.h). The canvas follows the browser window at the
// screen's pixel density (sharp on HiDPI screens: the app lays out in CSS
// pixels and draws at the device's); the browser presents each frame;
// presenter mode is the browser's full screen; the page's title and address
// follow the view; touches are taken as a student means them (take_touches).
// The JavaScript inside EM_ASM is not C++: clang-format would break it (its arrows).
// clang-format off
#include "shell/window.h"

#include <emscripten.h>
#include <emscripten/html5.h>

#include <cstdio>

#include "services/gl.h"
#include "shell/glfw_frame.h"

#include "controllers/app.h"

namespace vit::gui {

static GLFWwindow* g_window = nullptr;

static void glfw_error(int code, const char* what) { std::fprintf(stderr, "vitviz: GLFW error %d: %s\n", code, what); }

// The browser window's size in CSS pixels.
static void css_size(double& width, double& height) {
    emscripten_get_element_css_size("#canvas", &width, &height);
    if (width < 1 || height < 1) {
        width = EM_ASM_DOUBLE({ return window.innerWidth; });
        height = EM_ASM_DOUBLE({ return window.innerHeight; });
    }
}

// Keeps the canvas's drawing buffer at its CSS size times the pixel ratio (only a change touches it).
static void fit_canvas() {
    double width = 0, height = 0;
    css_size(width, height);
    const double ratio = emscripten_get_device_pixel_ratio();
    const int buffer_w = static_cast<int>(width * ratio + 0.5), buffer_h = static_cast<int>(height * ratio + 0.5);
    int now_w = 0, now_h = 0;
    glfwGetWindowSize(g_window, &now_w, &now_h);
    if (now_w == buffer_w && now_h == buffer_h) return;
    glfwSetWindowSize(g_window, buffer_w, buffer_h);
    // Emscripten's GLFW sets the canvas's CSS size with its buffer size: keep the page's layout instead.
    EM_ASM({
        const c = Module['canvas'];
        c.style.width = '100vw';
        c.style.height = '100vh';
    });
}

// Touch (Chromebooks, tablets): a tap clicks where it lands; a finger that first moves up or down (or
// slowly) drags as the mouse does (a slider, a stroke on the Draw canvas); one that first moves sideways
// and lifts within 0.8 s, 80 px on, swipes (App::on_swipe: the lesson's next step, else the next stage)
// without clicking; two fingers spreading or closing enlarge the map under them or go back
// (App::on_pinch). Emscripten's GLFW would press the mouse where it last was, and the browser would
// click again with the mouse events it makes up: the page takes the touches and sends the canvas mouse
// events at the finger instead.
EM_JS(void, take_touches, (), {
    const canvas = Module['canvas'];
    const mouse = (type, x, y) => canvas.dispatchEvent(new MouseEvent(type, {
        clientX: x, clientY: y, button: 0, buttons: type === 'mouseup' ? 0 : 1, bubbles: true}));
    const spread = (ts) => Math.hypot(ts[0].clientX - ts[1].clientX, ts[0].clientY - ts[1].clientY);
    // One finger: { x, y, time, mode: undefined (not moved yet), 'drag' or 'swipe' }; two: { spread, done }.
    let gesture = null;
    const press = (g) => { mouse('mousemove', g.x, g.y); mouse('mousedown', g.x, g.y); };
    const handle = (e) => {
        if (e.target !== canvas) return;
        if (e.cancelable) e.preventDefault();  // the canvas's touch-action: none keeps them cancelable
        e.stopPropagation();
        const touches = e.touches, changed = e.changedTouches[0];
        if (e.type === 'touchstart' && touches.length === 1) {
            gesture = { x: changed.clientX, y: changed.clientY, time: performance.now() };
        } else if (e.type === 'touchstart' && touches.length === 2) {
            if (gesture && gesture.mode === 'drag') mouse('mouseup', gesture.x, gesture.y);
            gesture = { spread: spread(touches), done: false };
        } else if (e.type === 'touchmove' && touches.length === 1 && gesture && gesture.spread === undefined) {
            const t = touches[0], dx = t.clientX - gesture.x, dy = t.clientY - gesture.y;
            if (gesture.mode === undefined && Math.hypot(dx, dy) > 10) {
                const sideways = Math.abs(dx) > 2 * Math.abs(dy) && performance.now() - gesture.time < 300;
                gesture.mode = sideways ? 'swipe' : 'drag';
                if (!sideways) press(gesture);
            }
            if (gesture.mode === 'drag') mouse('mousemove', t.clientX, t.clientY);
        } else if (e.type === 'touchmove' && touches.length === 2 && gesture && gesture.spread && !gesture.done) {
            const ratio = spread(touches) / gesture.spread;
            if (ratio > 1.3 || ratio < 0.77) {
                gesture.done = true;
                const r = canvas.getBoundingClientRect();
                const x = (touches[0].clientX + touches[1].clientX) / 2 - r.left;
                const y = (touches[0].clientY + touches[1].clientY) / 2 - r.top;
                Module._vitviz_pinch(x, y, ratio > 1 ? 1 : 0);
            }
        } else if ((e.type === 'touchend' || e.type === 'touchcancel') && touches.length === 0 && gesture) {
            const dx = changed.clientX - gesture.x, quick = performance.now() - gesture.time < 800;
            if (gesture.mode === undefined && e.type === 'touchend') {  // a tap
                press(gesture);
                mouse('mouseup', gesture.x, gesture.y);
            } else if (gesture.mode === 'drag') {
                mouse('mouseup', changed.clientX, changed.clientY);
            } else if (gesture.mode === 'swipe' && e.type === 'touchend' && quick && Math.abs(dx) > 80) {
                Module._vitviz_swipe(dx < 0 ? 1 : -1);
            }
            gesture = null;
        }
    };
    for (const type of ['touchstart', 'touchmove', 'touchend', 'touchcancel'])
        window.addEventListener(type, handle, { capture: true, passive: false });
});

bool open_window(bool /*vsync: the browser paces frames*/) {
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        std::fprintf(stderr, "vitviz: cannot start GLFW on the page's canvas\n");
        return false;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    g_window = glfwCreateWindow(1600, 1000, "ViT Visualizer", nullptr, nullptr);
    if (!g_window) {
        std::fprintf(stderr, "vitviz: this browser gives no WebGL 2 context\n");
        return false;
    }
    glfwMakeContextCurrent(g_window);
    fit_canvas();
    take_touches();
    glfw::start_imgui(g_window, "#version 300 es");
    return true;
}

void attach_app(App* app) { glfw::attach(g_window, app); }

bool window_closed() { return false; }  // the page closes, not the app

void frame(App& app) {
    fit_canvas();
    glfw::take_input();
    glfw::build_frame(app, pixel_ratio());
    glfw::render_frame(g_window, app);
    app.presented();
}

std::shared_ptr<Worker> platform_worker() { return make_worker(WorkerKind::Sliced); }

float pixel_ratio() { return static_cast<float>(emscripten_get_device_pixel_ratio()); }

void close_window() {
    glfw::stop_imgui();
    glfwDestroyWindow(g_window);
    g_window = nullptr;
}

void set_window_title(const std::string& title) { emscripten_set_window_title(title.c_str()); }

void show_view_link(const std::string& query) {
    EM_ASM(
        {
            let query = UTF8ToString($0);  // the Hub endpoint of the page's downloads stays (app/web/hub.js)
            if (Module.vitvizHubEndpoint)
                query += (query ? '&' : '?') + 'hub=' + encodeURIComponent(Module.vitvizHubEndpoint);
            history.replaceState(null, document.title, window.location.pathname + query);
        },
        query.c_str());
}

void set_fullscreen(bool on) {
    if (on) {
        EmscriptenFullscreenStrategy strategy{};
        strategy.scaleMode = EMSCRIPTEN_FULLSCREEN_SCALE_STRETCH;
        strategy.canvasResolutionScaleMode = EMSCRIPTEN_FULLSCREEN_CANVAS_SCALE_HIDEF;
        strategy.filteringMode = EMSCRIPTEN_FULLSCREEN_FILTERING_DEFAULT;
        emscripten_request_fullscreen_strategy("#canvas", 1, &strategy);
    } else {
        emscripten_exit_fullscreen();
    }
}

}  // namespace vit::gui
