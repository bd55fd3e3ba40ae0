// The hidden GLFW window and the OpenGL 4.3 check (GPU backend).
#include "gl_context.h"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include "base/error.h"

namespace vit {

namespace {

int g_glfw_users = 0;  // HiddenGlContexts alive; GLFW is terminated with the last

std::string glfw_reason() {
    const char* description = nullptr;
    const int code = glfwGetError(&description);
    if (code == GLFW_NO_ERROR || !description) return "GLFW gave no reason";
    return description;
}

}  // namespace

HiddenGlContext::HiddenGlContext() {
    if (!glfwInit()) throw Error("no OpenGL 4.3 context: " + glfw_reason());
    ++g_glfw_users;
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(1, 1, "vitviz (hidden)", nullptr, nullptr);
    if (!window_) {
        const std::string reason = glfw_reason();
        if (--g_glfw_users == 0) glfwTerminate();
        throw Error("no OpenGL 4.3 context: " + reason);
    }
    glfwMakeContextCurrent(window_);
    try {
        gpu::require_gl43();
    } catch (...) {
        glfwDestroyWindow(window_);
        if (--g_glfw_users == 0) glfwTerminate();
        throw;
    }
}

HiddenGlContext::~HiddenGlContext() {
    if (glfwGetCurrentContext() == window_) glfwMakeContextCurrent(nullptr);
    glfwDestroyWindow(window_);
    if (--g_glfw_users == 0) glfwTerminate();
}

namespace gpu {

void require_gl43() {
    if (!GLAD_GL_VERSION_4_3) {
        if (!glfwGetCurrentContext()) throw Error("no OpenGL 4.3 context: no OpenGL context is current");
        const int version = gladLoadGL(glfwGetProcAddress);
        if (version == 0) throw Error("no OpenGL 4.3 context: the OpenGL functions could not be loaded");
        if (!GLAD_GL_VERSION_4_3)
            throw Error("no OpenGL 4.3 context: the current context is OpenGL " +
                        std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                        std::to_string(GLAD_VERSION_MINOR(version)) + " (compute shaders need 4.3)");
    }
}

std::string gl_description() {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return std::string(renderer ? renderer : "unknown renderer") + ", OpenGL " + (version ? version : "?");
}

}  // namespace gpu
}  // namespace vit
