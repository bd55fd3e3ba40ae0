// The desktop window (platform/window.h): a GLFW window with an OpenGL 4.3 core
// context (3.3 when 4.3 is not available), Dear ImGui's unmodified GLFW and
// OpenGL3 backends, the callbacks that queue keys, mouse buttons and drops for
// the App, and one frame of the main loop.
#include "platform/window.h"

#include "platform/gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "base/error.h"
#include "controllers/app.h"

namespace vit::gui {

static GLFWwindow* g_window = nullptr;
static int g_windowed[4] = {100, 100, 1600, 1000};  // x, y, w, h before presenter mode

static void glfw_error(int code, const char* what) { std::fprintf(stderr, "vitviz: GLFW error %d: %s\n", code, what); }

static App* app_of(GLFWwindow* window) { return static_cast<App*>(glfwGetWindowUserPointer(window)); }

// The GLFW keys the app acts on; -1 for the rest (left to Dear ImGui).
static int app_key(int glfw_key) {
    switch (glfw_key) {
        case GLFW_KEY_RIGHT: return static_cast<int>(Key::Right);
        case GLFW_KEY_LEFT: return static_cast<int>(Key::Left);
        case GLFW_KEY_PAGE_DOWN: return static_cast<int>(Key::PageDown);
        case GLFW_KEY_PAGE_UP: return static_cast<int>(Key::PageUp);
        case GLFW_KEY_HOME: return static_cast<int>(Key::Home);
        case GLFW_KEY_END: return static_cast<int>(Key::End);
        case GLFW_KEY_DOWN: return static_cast<int>(Key::Down);
        case GLFW_KEY_UP: return static_cast<int>(Key::Up);
        case GLFW_KEY_ESCAPE: return static_cast<int>(Key::Escape);
        case GLFW_KEY_F11: return static_cast<int>(Key::F11);
        case GLFW_KEY_A: return static_cast<int>(Key::A);
        case GLFW_KEY_C: return static_cast<int>(Key::C);
        case GLFW_KEY_N: return static_cast<int>(Key::N);
        case GLFW_KEY_H: return static_cast<int>(Key::H);
        case GLFW_KEY_O: return static_cast<int>(Key::O);
        case GLFW_KEY_M: return static_cast<int>(Key::M);
        case GLFW_KEY_S: return static_cast<int>(Key::S);
        case GLFW_KEY_E: return static_cast<int>(Key::E);
        case GLFW_KEY_W: return static_cast<int>(Key::W);
        case GLFW_KEY_G: return static_cast<int>(Key::G);
        case GLFW_KEY_Z: return static_cast<int>(Key::Z);
        case GLFW_KEY_ENTER:
        case GLFW_KEY_KP_ENTER: return static_cast<int>(Key::Enter);
        case GLFW_KEY_V: return static_cast<int>(Key::V);
        case GLFW_KEY_L: return static_cast<int>(Key::L);
        case GLFW_KEY_R: return static_cast<int>(Key::R);
        case GLFW_KEY_F: return static_cast<int>(Key::F);
        default: break;
    }
    if (glfw_key >= GLFW_KEY_1 && glfw_key <= GLFW_KEY_9)
        return static_cast<int>(Key::Digit1) + glfw_key - GLFW_KEY_1;
    return -1;
}

// A key, mouse button or drop arrived since the last frame (it ends a wait_while_working).
static bool g_input_arrived = false;

static void drop_callback(GLFWwindow* window, int count, const char** paths) {
    g_input_arrived = true;
    if (App* app = app_of(window)) app->on_drop(count, paths);
}

// Our key and mouse-button callbacks are installed after Dear ImGui's and chain to them:
// ImGui still sees every key (text fields), the app queues what it acts on.
static GLFWkeyfun imgui_key_callback = nullptr;
static GLFWmousebuttonfun imgui_mouse_button_callback = nullptr;

static void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods) {
    g_input_arrived = true;
    if (imgui_key_callback) imgui_key_callback(window, key, scancode, action, mods);
    const int app_key_code = app_key(key);
    App* app = app_of(window);
    if (app && app_key_code >= 0)
        app->on_key(KeyEvent{static_cast<Key>(app_key_code), action != GLFW_RELEASE, (mods & GLFW_MOD_CONTROL) != 0});
}

static void mouse_button_callback(GLFWwindow* window, int button, int action, int mods) {
    g_input_arrived = true;
    if (imgui_mouse_button_callback) imgui_mouse_button_callback(window, button, action, mods);
    if (App* app = app_of(window)) app->on_mouse_button(MouseEvent{button, action != GLFW_RELEASE});
}

static GLFWwindow* create_window(int major, int minor, int width, int height) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    return glfwCreateWindow(width, height, "ViT Visualizer", nullptr, nullptr);
}

// Dear ImGui with its GLFW and OpenGL3 backends, on the window's context.
static void start_imgui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; write nothing into the user's folder
    ImGui::StyleColorsDark();
    ImGui::GetStyle().FrameRounding = 3.f;
    ImGui::GetStyle().WindowRounding = 0.f;
    ImGui_ImplGlfw_InitForOpenGL(g_window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
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
    start_imgui();
    return true;
}

void attach_app(App* app) {
    glfwSetWindowUserPointer(g_window, app);
    if (app) {
        glfwSetDropCallback(g_window, drop_callback);
        imgui_key_callback = glfwSetKeyCallback(g_window, key_callback);
        imgui_mouse_button_callback = glfwSetMouseButtonCallback(g_window, mouse_button_callback);
    } else {
        glfwSetKeyCallback(g_window, imgui_key_callback);
        glfwSetMouseButtonCallback(g_window, imgui_mouse_button_callback);
    }
}

bool window_closed() { return glfwWindowShouldClose(g_window); }

// While the app's pass runs on the worker, a frame is presented at most every quarter
// second (its progress bar), or at once when input arrives or the pass is done: llvmpipe
// renders on the CPU's cores, and frames drawn back to back would take the pass's cores.
constexpr double kProgressFrameS = 0.25;
static double g_presented_at = -1.0;  // glfwGetTime() of the last frame presented

static bool present_now(const App& app) {
    return !app.waiting_on_work() || glfwGetTime() - g_presented_at >= kProgressFrameS;
}

static void wait_while_working(const App& app) {
    constexpr double kPollS = 0.002;
    while (!present_now(app) && !g_input_arrived) glfwWaitEventsTimeout(kPollS);
}

void frame(App& app) {
    wait_while_working(app);
    glfwPollEvents();
    g_input_arrived = false;  // this frame takes it
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    app.feed_mouse_buttons();
    if (app.touring()) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    try {
        app.draw_frame();
    } catch (...) {  // the frame's windows are closed as they stand, and the app says what failed
        ImGui::ErrorCheckEndFrameRecover(nullptr);
        while (!ImGui::GetCurrentContext()->FontStack.empty()) ImGui::PopFont();  // fonts are not among what it recovers
        app.frame_failed(failure_message());
    }
    ImGui::Render();
    if (!present_now(app)) return;  // this frame started the pass (a click): the screen keeps the last one while it runs
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(g_window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.08f, 0.08f, 0.1f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    try {
        app.after_render(fb_w, fb_h);
    } catch (...) {
        app.frame_failed(failure_message());
    }
    glfwSwapBuffers(g_window);
    g_presented_at = glfwGetTime();
}

std::shared_ptr<Worker> platform_worker() { return threaded_worker(); }

void close_window() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(g_window);
    g_window = nullptr;
    glfwTerminate();
}

void set_window_title(const std::string& title) { glfwSetWindowTitle(g_window, title.c_str()); }

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
