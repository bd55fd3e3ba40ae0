// The GLFW window's shared part (glfw_frame.h): keys, input callbacks, Dear ImGui and one frame's drawing.
#include "shell/glfw_frame.h"

#include "services/gl.h"
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <cfloat>

#include "base/error.h"
#include "controllers/app.h"

namespace vit::gui::glfw {

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
        case GLFW_KEY_F11:
        case GLFW_KEY_P: return static_cast<int>(Key::F11);  // P too: a browser keeps F11 for its own full screen
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
    if (glfw_key >= GLFW_KEY_1 && glfw_key <= GLFW_KEY_9) return static_cast<int>(Key::Digit1) + glfw_key - GLFW_KEY_1;
    return -1;
}

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
        // Alt as Ctrl too: a browser keeps Ctrl+1…9 for its tabs (the bookmarks' keys).
        app->on_key(KeyEvent{static_cast<Key>(app_key_code), action != GLFW_RELEASE,
                             (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT)) != 0});
}

static void mouse_button_callback(GLFWwindow* window, int button, int action, int mods) {
    g_input_arrived = true;
    if (imgui_mouse_button_callback) imgui_mouse_button_callback(window, button, action, mods);
    if (App* app = app_of(window)) app->on_mouse_button(MouseEvent{button, action != GLFW_RELEASE});
}

void start_imgui(GLFWwindow* window, const char* glsl_version) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; write nothing into the user's folder
    ImGui::StyleColorsDark();
    ImGui::GetStyle().FrameRounding = 3.f;
    ImGui::GetStyle().WindowRounding = 0.f;
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init(glsl_version);
}

void stop_imgui() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

void attach(GLFWwindow* window, App* app) {
    glfwSetWindowUserPointer(window, app);
    if (app) {
        glfwSetDropCallback(window, drop_callback);
        imgui_key_callback = glfwSetKeyCallback(window, key_callback);
        imgui_mouse_button_callback = glfwSetMouseButtonCallback(window, mouse_button_callback);
    } else {
        glfwSetKeyCallback(window, imgui_key_callback);
        glfwSetMouseButtonCallback(window, imgui_mouse_button_callback);
    }
}

bool input_arrived() { return g_input_arrived; }
void take_input() { g_input_arrived = false; }

// The window's sizes and the mouse in layout pixels: framebuffer pixels / ratio.
static void scale_display(float ratio) {
    if (ratio == 1.f) return;
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(io.DisplaySize.x / ratio, io.DisplaySize.y / ratio);
    io.DisplayFramebufferScale = ImVec2(ratio, ratio);
    if (io.MousePos.x != -FLT_MAX) io.MousePos = ImVec2(io.MousePos.x / ratio, io.MousePos.y / ratio);
}

void build_frame(App& app, float pixel_ratio) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    scale_display(pixel_ratio);
    app.feed_mouse_buttons();
    ImGui::NewFrame();
    try {
        app.draw_frame();
    } catch (...) {  // the frame's windows are closed as they stand, and the app says what failed
        ImGui::ErrorCheckEndFrameRecover(nullptr);
        while (!ImGui::GetCurrentContext()->FontStack.empty())
            ImGui::PopFont();  // fonts are not among what it recovers
        app.frame_failed(failure_message());
    }
    ImGui::Render();
}

void render_frame(GLFWwindow* window, App& app) {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.08f, 0.08f, 0.1f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    try {
        app.after_render(fb_w, fb_h);
    } catch (...) {
        app.frame_failed(failure_message());
    }
}

}  // namespace vit::gui::glfw
