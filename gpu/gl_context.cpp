// The GPU backend's context for computing (EGL with no window, else a hidden
// GLFW window) and the OpenGL 4.3 check.
#include "gl_context.h"

#include <glad/gl.h>
// glad first: GLFW and EGL must not pull in the system GL header.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLFW/glfw3.h>

#include <cstdio>
#include <vector>

#include "base/error.h"

namespace vit {

namespace {

int g_glfw_users = 0;  // ComputeGlContexts on a GLFW window alive; GLFW is terminated with the last

std::string glfw_reason() {
    const char* description = nullptr;
    const int code = glfwGetError(&description);
    if (code == GLFW_NO_ERROR || !description) return "GLFW gave no reason";
    return description;
}

std::string egl_error_text() {
    char text[32];
    std::snprintf(text, sizeof text, "EGL error 0x%04x", static_cast<unsigned>(eglGetError()));
    return text;
}

// An EGL display initialised, with an OpenGL 4.3 core context current and no surface.
struct EglSession {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
};

// `display` initialised and made current with a 4.3 core context, or the reason it could not be.
std::string start_egl(EGLDisplay display, EglSession& out) {
    if (display == EGL_NO_DISPLAY) return "no display";
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) return "eglInitialize failed (" + egl_error_text() + ")";
    const EGLint attributes[] = {
        EGL_CONTEXT_MAJOR_VERSION,           4,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = EGL_NO_CONTEXT;
    if (eglBindAPI(EGL_OPENGL_API))  // no config: the context draws nowhere (EGL_KHR_no_config_context)
        context = eglCreateContext(display, static_cast<EGLConfig>(nullptr), EGL_NO_CONTEXT, attributes);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        const std::string reason = "no OpenGL 4.3 core context (" + egl_error_text() + ")";
        if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
        eglTerminate(display);
        return reason;
    }
    out = {display, context};
    return "";
}

// EGL's devices, then Mesa's surfaceless platform; each failure appended to `tried`.
bool open_egl(EglSession& out, std::string& source, std::string& tried) {
    const auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    const auto platform_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!platform_display) {
        tried += "EGL: no eglGetPlatformDisplayEXT; ";
        return false;
    }
    std::vector<EGLDeviceEXT> devices(16);
    EGLint count = 0;
    if (!query_devices || !query_devices(static_cast<EGLint>(devices.size()), devices.data(), &count)) count = 0;
    for (EGLint d = 0; d < count; ++d) {
        const std::string why = start_egl(platform_display(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr), out);
        if (why.empty()) return source = "EGL device " + std::to_string(d), true;
        tried += "EGL device " + std::to_string(d) + ": " + why + "; ";
    }
    if (count == 0) tried += "EGL: no devices; ";
    const std::string why =
        start_egl(platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr), out);
    if (why.empty()) return source = "EGL surfaceless", true;
    tried += "EGL surfaceless: " + why + "; ";
    return false;
}

void close_egl(const EglSession& s) {
    eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(s.display, s.context);
    eglTerminate(s.display);
}

}  // namespace

struct ComputeGlContext::Egl {
    EglSession session;
};

ComputeGlContext::ComputeGlContext() {
    std::string tried;
    EglSession session;
    if (open_egl(session, source_, tried)) {
        egl_ = std::make_unique<Egl>(Egl{session});
        try {
            gpu::require_gl43();
            return;
        } catch (const Error& e) {
            tried += source_ + ": " + std::string(e.what()) + "; ";
            close_egl(session);
            egl_.reset();
        }
    }
    if (!glfwInit()) throw Error("no OpenGL 4.3 context: " + tried + "GLFW: " + glfw_reason());
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
        throw Error("no OpenGL 4.3 context: " + tried + "GLFW: " + reason);
    }
    glfwMakeContextCurrent(window_);
    source_ = "a hidden GLFW window";
    try {
        gpu::require_gl43();
    } catch (...) {
        glfwDestroyWindow(window_);
        if (--g_glfw_users == 0) glfwTerminate();
        throw;
    }
}

ComputeGlContext::~ComputeGlContext() {
    if (egl_) {
        close_egl(egl_->session);
        return;
    }
    if (glfwGetCurrentContext() == window_) glfwMakeContextCurrent(nullptr);
    glfwDestroyWindow(window_);
    if (--g_glfw_users == 0) glfwTerminate();
}

namespace gpu {

void require_gl43() {
    if (GLAD_GL_VERSION_4_3) return;
    // A GLFW window's context (the app's) first: the app never touches EGL.
    const bool egl = !glfwGetCurrentContext() && eglGetCurrentContext() != EGL_NO_CONTEXT;
    if (!egl && !glfwGetCurrentContext()) throw Error("no OpenGL 4.3 context: no OpenGL context is current");
    const int version =
        egl ? gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)) : gladLoadGL(glfwGetProcAddress);
    if (version == 0) throw Error("no OpenGL 4.3 context: the OpenGL functions could not be loaded");
    if (!GLAD_GL_VERSION_4_3)
        throw Error("no OpenGL 4.3 context: the current context is OpenGL " +
                    std::to_string(GLAD_VERSION_MAJOR(version)) + "." + std::to_string(GLAD_VERSION_MINOR(version)) +
                    " (compute shaders need 4.3)");
}

std::string gl_description() {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return std::string(renderer ? renderer : "unknown renderer") + ", OpenGL " + (version ? version : "?");
}

}  // namespace gpu
}  // namespace vit
