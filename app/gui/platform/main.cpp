// vitviz: the desktop app. Opens a GLFW window with an OpenGL 4.3 core
// context (3.3 when 4.3 is not available: everything but the GPU backend
// works), sets up Dear ImGui with its unmodified GLFW and OpenGL3 backends, and
// runs App one frame at a time. `--tour DIR` screenshots every stage and exits.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "controllers/app.h"
#include "base/assets.h"
#include "base/error.h"
#include "logic/lesson/handout.h"
#include "logic/state/options.h"

static void glfw_error(int code, const char* what) { std::fprintf(stderr, "vitviz: GLFW error %d: %s\n", code, what); }

static void drop_callback(GLFWwindow* window, int count, const char** paths) {
    if (auto* app = static_cast<vit::gui::App*>(glfwGetWindowUserPointer(window))) app->on_drop(count, paths);
}

// Our key and mouse-button callbacks are installed after Dear ImGui's and chain to them:
// ImGui still sees every key (text fields), the app queues what it acts on.
static GLFWkeyfun imgui_key_callback = nullptr;
static GLFWmousebuttonfun imgui_mouse_button_callback = nullptr;

static void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods) {
    if (imgui_key_callback) imgui_key_callback(window, key, scancode, action, mods);
    if (auto* app = static_cast<vit::gui::App*>(glfwGetWindowUserPointer(window))) app->on_key(key, action, mods);
}

static void mouse_button_callback(GLFWwindow* window, int button, int action, int mods) {
    if (imgui_mouse_button_callback) imgui_mouse_button_callback(window, button, action, mods);
    if (auto* app = static_cast<vit::gui::App*>(glfwGetWindowUserPointer(window))) app->on_mouse_button(button, action);
}

static GLFWwindow* open_window(int major, int minor, int width, int height) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    return glfwCreateWindow(width, height, "ViT Visualizer", nullptr, nullptr);
}

int main(int argc, char** argv) {
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
    try {
        if (!options.handout.empty()) vit::gui::check_handout_path(options.handout);
    } catch (const vit::Error& e) {
        std::fprintf(stderr, "vitviz: %s\n", e.what());
        return 1;
    }

    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        std::fprintf(stderr, "vitviz: cannot open a window (no display? try xvfb-run)\n");
        return 1;
    }
    int width = 1600, height = 1000;
    if (GLFWmonitor* m = glfwGetPrimaryMonitor()) {
        if (const GLFWvidmode* mode = glfwGetVideoMode(m)) {
            width = std::min(width, mode->width);
            height = std::min(height, mode->height);
        }
    }
    GLFWwindow* window = open_window(4, 3, width, height);
    if (!window) window = open_window(3, 3, width, height);
    if (!window) {
        std::fprintf(stderr, "vitviz: no OpenGL 3.3 context available\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(options.tour_dir.empty() && options.measure_fps <= 0 ? 1 : 0);
    if (!gladLoadGL(glfwGetProcAddress)) {
        std::fprintf(stderr, "vitviz: cannot load OpenGL functions\n");
        return 1;
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is fixed; write nothing into the user's folder
    ImGui::StyleColorsDark();
    ImGui::GetStyle().FrameRounding = 3.f;
    ImGui::GetStyle().WindowRounding = 0.f;
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    int code = 0;
    {
        vit::gui::App app(window, options, vit::asset_dir());
        glfwSetWindowUserPointer(window, &app);
        glfwSetDropCallback(window, drop_callback);
        imgui_key_callback = glfwSetKeyCallback(window, key_callback);
        imgui_mouse_button_callback = glfwSetMouseButtonCallback(window, mouse_button_callback);
        while (!glfwWindowShouldClose(window) && !app.should_close()) {
            glfwPollEvents();
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            app.feed_mouse_buttons();
            if (app.touring()) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            ImGui::NewFrame();
            app.draw_frame();
            ImGui::Render();
            int fb_w = 0, fb_h = 0;
            glfwGetFramebufferSize(window, &fb_w, &fb_h);
            glViewport(0, 0, fb_w, fb_h);
            glClearColor(0.08f, 0.08f, 0.1f, 1.f);
            glClear(GL_COLOR_BUFFER_BIT);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            app.after_render(fb_w, fb_h);
            glfwSwapBuffers(window);
        }
        code = app.exit_code();
        glfwSetKeyCallback(window, imgui_key_callback);
        glfwSetMouseButtonCallback(window, imgui_mouse_button_callback);
        glfwSetWindowUserPointer(window, nullptr);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return code;
}
