// The desktop window (shell/window.h): a GLFW window with an OpenGL 4.3 core
// context (3.3 when 4.3 is not available), with what every GLFW window shares
// (shell/glfw_frame.h), one frame of the main loop paced for a pass that
// runs on the worker, presenter mode on the primary monitor.
#include "shell/window.h"

#include "services/gl.h"
#include "shell/glfw_frame.h"

#include <algorithm>
#include <cstdio>

#include "controllers/app.h"

namespace vit::gui {

static GLFWwindow* g_window = nullptr;
static int g_windowed[4] = {100, 100, 1600, 1000};  // x, y, w, h before presenter mode

static void glfw_error(int code, const char* what) { std::fprintf(stderr, "vitviz: GLFW error %d: %s\n", code, what); }

static GLFWwindow* create_window(int major, int minor, int width, int height) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    return glfwCreateWindow(width, height, "ViT Visualizer", nullptr, nullptr);
}

bool open_window(bool vsync) {
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        std::fprintf(stderr, "vitviz: cannot open a window (no display? try xvfb-run)\n");
        return false;
    }
    int width = 1600, height = 1000;
    if (GLFWmonitor* m = glfwGetPrimaryMonitor()) {
        if (const GLFWvidmode* mode = glfwGetVideoMode(m)) {
            width = std::min(width, mode->width);
            height = std::min(height, mode->height);
        }
    }
    g_window = create_window(4, 3, width, height);
    if (!g_window) g_window = create_window(3, 3, width, height);
    if (!g_window) {
        std::fprintf(stderr, "vitviz: no OpenGL 3.3 context available\n");
        glfwTerminate();
        return false;
    }
    glfwMakeContextCurrent(g_window);
    glfwSwapInterval(vsync ? 1 : 0);
    if (!gladLoadGL(glfwGetProcAddress)) {
        std::fprintf(stderr, "vitviz: cannot load OpenGL functions\n");
        return false;
    }
    glfw::start_imgui(g_window, "#version 330 core");
    return true;
}

void attach_app(App* app) { glfw::attach(g_window, app); }

bool window_closed() { return glfwWindowShouldClose(g_window); }

// While the app's pass runs on the worker, a frame is presented at most every quarter
// second (its progress bar), or at once when input arrives or the pass is done: llvmpipe
// renders on the CPU's cores, and frames drawn back to back would take the pass's cores.
constexpr double kProgressFrameS = 0.25;
static double g_presented_at = -1.0;  // glfwGetTime() of the last frame presented

static bool present_now(const App& app) {
    return !app.waiting_on_work() || glfwGetTime() - g_presented_at >= kProgressFrameS;
}

// Sleeps until input, the end of a job (the worker posts an empty event: platform_worker)
// or the next progress frame; no polling, which would take the pass's cores in slices.
static void wait_while_working(const App& app) {
    while (!present_now(app) && !glfw::input_arrived())
        glfwWaitEventsTimeout(std::max(0.001, kProgressFrameS - (glfwGetTime() - g_presented_at)));
}

void frame(App& app) {
    wait_while_working(app);
    glfwPollEvents();
    glfw::take_input();  // this frame takes it
    glfw::build_frame(app);
    if (!present_now(app))
        return;  // this frame started the pass (a click): the screen keeps the last one while it runs
    glfw::render_frame(g_window, app);
    glfwSwapBuffers(g_window);
    g_presented_at = glfwGetTime();
    app.presented();
}

std::shared_ptr<Worker> platform_worker() {
    const std::shared_ptr<ThreadedWorker> worker = threaded_worker();
    worker->signal_job_ends(glfwPostEmptyEvent);
    return worker;
}

float pixel_ratio() { return 1.f; }

void close_window() {
    threaded_worker()->signal_job_ends({});  // no job's end posts to a window that is gone
    glfw::stop_imgui();
    glfwDestroyWindow(g_window);
    g_window = nullptr;
    glfwTerminate();
}

void set_window_title(const std::string& title) { glfwSetWindowTitle(g_window, title.c_str()); }

void show_view_link(const std::string& /*query: a desktop window has no address*/) {}

void set_fullscreen(bool on) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (on && monitor) {
        glfwGetWindowPos(g_window, &g_windowed[0], &g_windowed[1]);
        glfwGetWindowSize(g_window, &g_windowed[2], &g_windowed[3]);
        const GLFWvidmode* mode = glfwGetVideoMode(monitor);
        if (mode) glfwSetWindowMonitor(g_window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else if (!on) {
        glfwSetWindowMonitor(g_window, nullptr, g_windowed[0], g_windowed[1], g_windowed[2], g_windowed[3], 0);
    }
}

}  // namespace vit::gui
